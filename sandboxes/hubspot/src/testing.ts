/**
 * Test helpers: the connect screen driven over plain HTTP, as a browser would (GET the page, fill in
 * the e-mail, submit Connect app or Cancel, read the redirect), so tests exercise the page itself.
 */
import type { RunningHubSpotSandbox } from './server.ts';
import { DEFAULT_CLIENT, KNOWN_SCOPES, type TokenResponse } from './state.ts';

/** The hidden inputs of the connect form, decoded from the page's HTML. */
export function consentFormFields(html: string): URLSearchParams {
  const form = new URLSearchParams();
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const decode = (value: string) =>
    value.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
  for (const tag of html.match(/<input[^>]*>/g) ?? []) {
    const name = attribute(tag, 'name');
    const value = attribute(tag, 'value');
    if (name && value !== undefined && attribute(tag, 'type') === 'hidden') form.append(name, decode(value));
  }
  return form;
}

/**
 * Opens `authorizeUrl` (the product's own, with its client, scopes, redirect URI and state), signs in
 * as `email` and clicks Connect app (or Cancel); answers the redirect.
 */
export async function submitConsent(
  running: RunningHubSpotSandbox,
  authorizeUrl: string,
  options: { email: string; decision?: 'allow' | 'cancel' },
): Promise<URL> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`connect screen answered ${page.status}: ${html}`);
  const form = consentFormFields(html);
  form.set('email', options.email);
  form.set('decision', options.decision ?? 'allow');
  const answer = await fetch(`${running.url}/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location)
    throw new Error(`connect form answered ${answer.status}: ${await answer.text()}`);
  return new URL(location);
}

/** The authorize URL of the default client with every scope the sandbox knows. */
export function authorizeUrlFor(
  running: RunningHubSpotSandbox,
  options: { redirectUri?: string; state?: string; scopes?: readonly string[] } = {},
): string {
  const url = new URL(running.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: DEFAULT_CLIENT.clientId,
    scope: (options.scopes ?? KNOWN_SCOPES).join(' '),
    redirect_uri: options.redirectUri ?? 'http://127.0.0.1:9/hubspot-oauth-callback',
    state: options.state ?? 'state',
  }).toString();
  return url.toString();
}

/** Connects `email`'s account with the default client and answers HubSpot's token response. */
export async function connect(
  running: RunningHubSpotSandbox,
  email: string,
  options: { scopes?: readonly string[] } = {},
): Promise<TokenResponse> {
  const redirectUri = 'http://127.0.0.1:9/hubspot-oauth-callback';
  const back = await submitConsent(running, authorizeUrlFor(running, { redirectUri, scopes: options.scopes }), {
    email,
  });
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code in ${back}`);
  const answer = await fetch(`${running.url}/oauth/v1/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: DEFAULT_CLIENT.clientId,
      client_secret: DEFAULT_CLIENT.clientSecret,
      redirect_uri: redirectUri,
      code,
    }),
  });
  if (!answer.ok) throw new Error(`token exchange answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as TokenResponse;
}
