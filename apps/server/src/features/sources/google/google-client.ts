import { calendar } from '@googleapis/calendar';
import { gmail } from '@googleapis/gmail';
import { people } from '@googleapis/people';
import { OAuth2Client } from 'google-auth-library';
import type { Config } from '../../../config.ts';

/**
 * What Warmpath asks of a Google account, and why (also in the README):
 * - contacts.readonly and contacts.other.readonly: the people a member knows (address book and the
 *   "other contacts" Gmail keeps), to map the network;
 * - calendar.events.readonly: who a member met and when (meetings weigh most in proximity);
 * - gmail.metadata: who a member exchanged mail with and when, from headers only; bodies are never read;
 * - gmail.compose: to send intro requests and messages from the member's own address as drafts sent
 *   afterwards, which is what lets a retry never send twice (gmail.send alone cannot create drafts);
 * - openid and email: which Google account was connected.
 */
export const GOOGLE_SCOPES = [
  'openid',
  'email',
  'https://www.googleapis.com/auth/contacts.readonly',
  'https://www.googleapis.com/auth/contacts.other.readonly',
  'https://www.googleapis.com/auth/calendar.events.readonly',
  'https://www.googleapis.com/auth/gmail.metadata',
  'https://www.googleapis.com/auth/gmail.compose',
];

export const GOOGLE_CALLBACK_PATH = '/api/public/google/callback';

/**
 * What a client ally's share page asks of their Google account, once (issue 22): read-only, and only
 * what finds the people they know: the address book (names, e-mails, organisations), mail headers (who
 * they wrote to and heard from) and meetings (whom they met). No send scope, no offline access.
 */
export const ALLY_GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/contacts.readonly',
  'https://www.googleapis.com/auth/gmail.metadata',
  'https://www.googleapis.com/auth/calendar.events.readonly',
];

/** The ally's consent comes back here (an authorised redirect URI of the OAuth client, as the members' is). */
export const ALLY_GOOGLE_CALLBACK_PATH = '/api/public/ally-share/google/callback';

export type GoogleClientFactory = ReturnType<typeof createGoogleClientFactory>;
/**
 * google-auth-library's OAuth2Client. The version in package.json is the one googleapis-common pins,
 * so there is one copy and the clients' `auth` option accepts it.
 */
export type GoogleAuth = OAuth2Client;

/**
 * The official clients, pointed at Google or at the built-in sandbox: only the base URLs differ.
 */
export function createGoogleClientFactory(config: Config) {
  const sandbox = config.google.real ? null : config.google.sandboxUrl;
  // The clients resolve each API path against the origin of rootUrl (a path in it is dropped), so the
  // sandbox serves the APIs at its server's root, as Google does.
  const rootUrl = sandbox ? `${new URL(sandbox).origin}/` : undefined;

  const oauth = (callbackPath = GOOGLE_CALLBACK_PATH): GoogleAuth =>
    new OAuth2Client({
      // Refresh and retry once when Google answers 401 (an access token revoked or expired early).
      forceRefreshOnFailure: true,
      clientId: config.google.clientId,
      clientSecret: config.google.clientSecret,
      redirectUri: `${config.publicUrl}${callbackPath}`,
      endpoints: sandbox
        ? {
            oauth2AuthBaseUrl: `${sandbox}/o/oauth2/v2/auth`,
            oauth2TokenUrl: `${sandbox}/token`,
            oauth2RevokeUrl: `${sandbox}/revoke`,
          }
        : undefined,
    });

  return {
    oauth,
    authorizationUrl: (state: string, loginHint?: string) =>
      oauth().generateAuthUrl({
        access_type: 'offline',
        // Always ask again: Google only returns a refresh token on a fresh consent.
        prompt: 'consent',
        scope: GOOGLE_SCOPES,
        state,
        login_hint: loginHint,
        include_granted_scopes: true,
      }),
    /** An ally's one-time, read-only consent: online access, so no refresh token ever exists. */
    allyAuthorizationUrl: (state: string, loginHint?: string) =>
      oauth(ALLY_GOOGLE_CALLBACK_PATH).generateAuthUrl({
        access_type: 'online',
        scope: ALLY_GOOGLE_SCOPES,
        state,
        login_hint: loginHint,
      }),
    // Retries are ours (google-sync's withBackoff honours Retry-After); the client's own are off.
    gmail: (auth: GoogleAuth) => gmail({ version: 'v1', auth, rootUrl, retry: false }),
    people: (auth: GoogleAuth) => people({ version: 'v1', auth, rootUrl, retry: false }),
    calendar: (auth: GoogleAuth) => calendar({ version: 'v3', auth, rootUrl, retry: false }),
  };
}
