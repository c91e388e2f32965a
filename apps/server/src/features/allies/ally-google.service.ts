import { type TAllyGoogleStart, type TAllyMatch, type TAllyMatches, ZAllyMatch } from '@warmpath/shared';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import { httpStatus } from '../sources/google/google-account.ts';
import { ALLY_GOOGLE_CALLBACK_PATH } from '../sources/google/google-client.ts';
import { listWorkspaceIds } from '../users/users.repo.ts';
import { holdGoogleMatches, matchAccounts, purgeExpiredGoogleMatches, takeGoogleMatches } from './allies.repo.ts';
import { type AlliesDeps, shareOf, signedMatches } from './allies.service.ts';
import { readAllyGoogle } from './ally-google-read.ts';

/** How long the page has to read the callback's matches (it does so as soon as it loads). */
const HELD_MATCHES_TTL_SECONDS = 15 * 60;
const MATCH_BATCH = 1_000;

const ZState = z.object({ t: z.string() });

/**
 * `POST /public/ally-share/google`: the consent address for the ally's Google account, once the link
 * is checked (an altered, expired or deleted link fails here as it does for the file). The state carries
 * the link itself, so the callback knows the share and its workspace from a signature, never from input.
 */
export async function startAllyGoogleConnection(deps: AlliesDeps, token: string) {
  const { share } = await shareOf(deps, token);
  const { state, cookie } = deps.flow.start({ t: token });
  const answer: TAllyGoogleStart = { url: deps.google.allyAuthorizationUrl(state, share.sentTo) };
  return { answer, cookie };
}

/**
 * The ally's return from Google: the code becomes a token that reads the account once and is revoked;
 * only the people at the workspace's accounts are held, for the page to read once. Returns the share
 * page's address to redirect to.
 */
export async function finishAllyGoogleConnection(
  deps: AlliesDeps,
  query: { code?: string; state?: string; error?: string },
  cookies: string | undefined,
): Promise<string> {
  const flow = deps.flow.finish(query.state, cookies);
  const state = ZState.safeParse(flow.status === 'invalid' ? null : flow.value);
  if (!state.success) {
    throw new AppError('VALIDATION_FAILED', 'This Google sign-in has expired. Connect again from your share link.');
  }
  const token = state.data.t;
  // The link is checked again: it may have expired or been deleted during the consent.
  const { workspaceId, share } = await shareOf(deps, token);
  const back = (outcome: string) =>
    `${deps.publicUrl}/share?token=${encodeURIComponent(token)}&fromGoogle=${encodeURIComponent(outcome)}`;
  if (flow.status === 'other-browser') return back('other-browser');
  if (query.error || !query.code) return back('denied');

  const client = deps.google.oauth(ALLY_GOOGLE_CALLBACK_PATH);
  let candidates: TAllyMatch[];
  try {
    const { tokens } = await client.getToken(query.code);
    client.setCredentials(tokens);
    candidates = await readAllyGoogle(deps.google, client);
  } catch (error) {
    // Google refused (a permission unticked on the consent, a code used twice, an outage): the ally is
    // told on their page, where they can try again or upload their file, rather than shown an error.
    if (httpStatus(error) !== undefined) return back('failed');
    throw error;
  } finally {
    // Used once and dropped: revoked at Google, never written anywhere.
    if (client.credentials.access_token) await client.revokeCredentials().catch(() => undefined);
  }
  const matches: TAllyMatch[] = [];
  for (let start = 0; start < candidates.length; start += MATCH_BATCH) {
    const batch = candidates.slice(start, start + MATCH_BATCH);
    matches.push(...(await deps.database.inWorkspace(workspaceId, (tx) => matchAccounts(tx, workspaceId, batch))));
  }
  const ref = await deps.database.inWorkspace(workspaceId, async (tx) => {
    await recordAudit(tx, workspaceId, {
      actorUserId: null,
      action: 'ally.google-read',
      subject: share.allyName,
      details: { shareId: share.id, read: candidates.length, matched: matches.length },
    });
    return holdGoogleMatches(tx, workspaceId, {
      shareId: share.id,
      matches,
      scanned: candidates.length,
      expiresAt: new Date(Date.now() + HELD_MATCHES_TTL_SECONDS * 1000),
    });
  });
  return back(ref);
}

/** `POST /public/ally-share/google/matches`: the held matches, signed as the file's are, and forgotten. */
export async function takeAllyGoogleMatches(deps: AlliesDeps, token: string, ref: string): Promise<TAllyMatches> {
  const { workspaceId, share } = await shareOf(deps, token);
  const held = await deps.database.inWorkspace(workspaceId, (tx) => takeGoogleMatches(tx, workspaceId, share.id, ref));
  if (!held) throw new AppError('NOT_FOUND', 'These matches were read already or have expired. Connect Google again.');
  return signedMatches(deps, share.id, z.array(ZAllyMatch).parse(held.matches), held.scanned);
}

/** The nightly purge: held matches an ally's page never came back for, in every workspace under its own security. */
export async function purgeUnreadGoogleMatches(database: Database): Promise<number> {
  let total = 0;
  for (const workspaceId of await listWorkspaceIds(database)) {
    total += await database.inWorkspace(workspaceId, (tx) => purgeExpiredGoogleMatches(tx, workspaceId));
  }
  return total;
}
