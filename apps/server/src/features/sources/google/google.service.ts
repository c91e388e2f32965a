import { z } from 'zod';
import type { Database } from '../../../db/client.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { Sealer } from '../../../lib/sealing.ts';
import type { OAuthFlow } from '../../../lib/signed-state.ts';
import type { Member } from '../../../plugins/auth.ts';
import { recordAudit } from '../../audit/audit.repo.ts';
import { saveGoogleConnection } from './google.repo.ts';
import type { GoogleClientFactory } from './google-client.ts';

export type GoogleDeps = {
  database: Database;
  google: GoogleClientFactory;
  sealer: Sealer;
  /** The consent's state, bound to the browser that started it. */
  flow: OAuthFlow;
  publicUrl: string;
};

const ZState = z.object({ userId: z.uuid(), workspaceId: z.uuid(), redirectUrl: z.string() });

/** Only a path of our own app: the callback must never become an open redirect. */
export function safeRedirectPath(redirectUrl: string | undefined) {
  return redirectUrl?.startsWith('/') && !redirectUrl.startsWith('//') && !redirectUrl.includes('\\')
    ? redirectUrl
    : '/';
}

/**
 * `POST /google/authenticate`: where to send the browser to grant access, and the cookie that binds
 * the consent to this browser.
 */
export function startGoogleConnection(deps: GoogleDeps, member: Member, redirectUrl: string | undefined) {
  const { state, cookie } = deps.flow.start({
    userId: member.userId,
    workspaceId: member.workspaceId,
    redirectUrl: safeRedirectPath(redirectUrl),
  });
  return { url: deps.google.authorizationUrl(state, member.email ?? undefined), cookie };
}

/**
 * The browser's return from Google: exchange the code (offline access), keep the tokens sealed, and
 * send the member back where they started. Returns the address to redirect to. A browser other than
 * the one that started the consent (`cookies` without its nonce) connects nothing and is told so
 * (`?google=other-browser`).
 */
export async function finishGoogleConnection(
  deps: GoogleDeps,
  query: { code?: string; state?: string; error?: string },
  cookies: string | undefined,
): Promise<{ redirectTo: string; userId: string; workspaceId: string } | { redirectTo: string }> {
  const flow = deps.flow.finish(query.state, cookies);
  const state = ZState.safeParse(flow.status === 'invalid' ? null : flow.value);
  if (!state.success)
    throw new AppError('VALIDATION_FAILED', 'This Google sign-in link has expired. Connect again from the app.');
  const back = (outcome: string) => {
    const url = new URL(state.data.redirectUrl, deps.publicUrl);
    url.searchParams.set('google', outcome);
    return `${url.pathname}${url.search}`;
  };
  if (flow.status === 'other-browser') return { redirectTo: back('other-browser') };
  if (query.error || !query.code) return { redirectTo: back('denied') };

  const client = deps.google.oauth();
  const { tokens } = await client.getToken(query.code);
  if (!tokens.refresh_token) throw new AppError('NOT_CONNECTED', 'Google granted no offline access. Connect again.');
  client.setCredentials(tokens);
  const email = googleAccountEmail(tokens.id_token ?? null);
  const { userId, workspaceId } = state.data;
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    await saveGoogleConnection(tx, workspaceId, userId, {
      sealedTokens: deps.sealer.seal(JSON.stringify(tokens)),
      settings: { email, reconnectRequired: false },
    });
    await recordAudit(tx, workspaceId, {
      actorUserId: userId,
      action: 'source.connected',
      subject: 'Google',
      details: { account: email },
    });
  });
  return { redirectTo: back('connected'), userId, workspaceId };
}

/**
 * The connected account's address, from the ID token returned with the code. It came straight from
 * the token endpoint over TLS, which OpenID Connect accepts in place of checking its signature.
 */
function googleAccountEmail(idToken: string | null): string | null {
  if (!idToken) return null;
  const [, payload] = idToken.split('.');
  if (!payload) return null;
  const claims = z.object({ email: z.string() }).safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString()));
  return claims.success ? claims.data.email.toLowerCase() : null;
}
