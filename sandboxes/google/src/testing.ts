/**
 * Test helpers: a listening sandbox and the OAuth code flow driven through the real consent page
 * with the real `OAuth2Client`, as a browser and the product would.
 */
import { CodeChallengeMethod, OAuth2Client } from 'google-auth-library';
import type { GoogleSandboxOptions } from './sandbox.ts';
import { listenGoogleSandbox, type RunningGoogleSandbox } from './server.ts';

export const REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback';
export const CLIENT = { clientId: 'warmpath-test-client', clientSecret: 'test-secret' };

/** What the product asks for (issue 3): contacts, other contacts, calendar events, metadata, send. */
export const PRODUCT_SCOPES = [
  'openid',
  'email',
  'profile',
  'https://www.googleapis.com/auth/contacts.readonly',
  'https://www.googleapis.com/auth/contacts.other.readonly',
  'https://www.googleapis.com/auth/calendar.events.readonly',
  'https://www.googleapis.com/auth/gmail.metadata',
  'https://www.googleapis.com/auth/gmail.compose',
  'https://www.googleapis.com/auth/gmail.send',
];

export function startSandbox(options: Omit<GoogleSandboxOptions, 'publicUrl'> = {}): Promise<RunningGoogleSandbox> {
  return listenGoogleSandbox(options);
}

/** google-auth-library's OAuth2Client, configured for the sandbox. */
export function oauthClient(running: RunningGoogleSandbox): OAuth2Client {
  return new OAuth2Client({ ...CLIENT, redirectUri: REDIRECT_URI, endpoints: running.endpoints });
}

/** The same client with the options the product sets (refresh on a 401). */
export function apiAuth(running: RunningGoogleSandbox, options: { forceRefreshOnFailure?: boolean } = {}) {
  return new OAuth2Client({ ...CLIENT, redirectUri: REDIRECT_URI, endpoints: running.endpoints, ...options });
}

/** The hidden inputs and checkboxes of the consent form, as a browser would submit them. */
export function consentForm(html: string, email: string, decision: 'allow' | 'cancel'): URLSearchParams {
  const form = new URLSearchParams();
  const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  const decodeEntities = (value: string) =>
    value.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
  for (const tag of html.match(/<input[^>]*>/g) ?? []) {
    const name = attribute(tag, 'name');
    const value = attribute(tag, 'value');
    const type = attribute(tag, 'type');
    if (!name || value === undefined || name === 'email') continue;
    if (type === 'checkbox' && !/\schecked/.test(tag)) continue;
    form.append(name, decodeEntities(value));
  }
  form.set('email', email);
  form.set('decision', decision);
  return form;
}

/** Answers a consent URL as a browser would (Allow, as `email`); returns the redirect back to the client. */
export async function approveConsent(consentUrl: string, email: string, untick: string[] = []): Promise<URL> {
  const page = await fetch(consentUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${await page.text()}`);
  const form = consentForm(await page.text(), email, 'allow');
  for (const scope of untick) {
    const kept = form.getAll('granted_scope').filter((item) => item !== scope);
    form.delete('granted_scope');
    for (const item of kept) form.append('granted_scope', item);
  }
  const answer = await fetch(new URL('auth', consentUrl), { method: 'POST', body: form, redirect: 'manual' });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`consent answered ${answer.status}: ${await answer.text()}`);
  return new URL(location);
}

/** Consent as `email` for the given scopes; returns the redirect back to the client. */
export async function consent(
  running: RunningGoogleSandbox,
  email: string,
  options: { scopes?: string[]; state?: string; codeChallenge?: string; untick?: string[] } = {},
): Promise<URL> {
  const url = oauthClient(running).generateAuthUrl({
    access_type: 'offline',
    prompt: 'consent',
    scope: options.scopes ?? PRODUCT_SCOPES,
    state: options.state ?? 'state-123',
    login_hint: email,
    ...(options.codeChallenge
      ? { code_challenge: options.codeChallenge, code_challenge_method: CodeChallengeMethod.S256 }
      : {}),
  });
  return approveConsent(url, email, options.untick);
}

/** The whole code flow: a client holding access and refresh tokens for `email`. */
export async function connect(
  running: RunningGoogleSandbox,
  email: string,
  scopes?: string[],
  options: { forceRefreshOnFailure?: boolean } = {},
) {
  const client = apiAuth(running, options);
  const redirect = await consent(running, email, { scopes });
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`no code in ${redirect.toString()}`);
  const { tokens } = await client.getToken(code);
  client.setCredentials(tokens);
  return { client, tokens };
}

export type Failure = { status: number | undefined; data: unknown; header(name: string): string | null };

/** The HTTP failure of a client call (a GaxiosError, read by shape: there are two gaxios copies). */
export async function rejection(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (error) {
    const response = typeof error === 'object' && error !== null ? Reflect.get(error, 'response') : undefined;
    if (typeof response !== 'object' || response === null) throw error;
    const status: unknown = Reflect.get(response, 'status');
    const headers: unknown = Reflect.get(response, 'headers');
    return {
      status: typeof status === 'number' ? status : undefined,
      data: Reflect.get(response, 'data'),
      header: (name) => {
        const get: unknown = typeof headers === 'object' && headers !== null ? Reflect.get(headers, 'get') : undefined;
        const value: unknown = typeof get === 'function' ? Reflect.apply(get, headers, [name]) : undefined;
        return typeof value === 'string' ? value : null;
      },
    };
  }
  throw new Error('expected the call to fail');
}
