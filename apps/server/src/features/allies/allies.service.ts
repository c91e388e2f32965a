import {
  allyMatchKey,
  type TAllyConfirm,
  type TAllyMatch,
  type TAllyMatches,
  type TAllyShare,
  type TAllySharedConnections,
  type TAllyShareSent,
  ZAllyMatch,
} from '@warmpath/shared';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { EventRecorder } from '../../events/record.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { AppError } from '../../lib/app-error.ts';
import { createStateSigner, type OAuthFlow } from '../../lib/signed-state.ts';
import type { Member } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import type { GoogleClientFactory } from '../sources/google/google-client.ts';
import { connectionBatches } from '../sources/linkedin/connections-csv.ts';
import { Rejections } from '../sources/linkedin/export-rows.ts';
import { LINKEDIN_FILES, type LinkedinUpload, readUpload } from '../sources/linkedin/linkedin.service.ts';
import {
  findMappedAlly,
  findShare,
  findSharedConnections,
  insertShare,
  keepAllyConnections,
  matchAccounts,
  type ShareRow,
  withdrawShare,
} from './allies.repo.ts';

/** How long an ally's link works: to share, and later to withdraw. */
export const ALLY_SHARE_TTL_SECONDS = 30 * 24 * 3600;
/** How long the ally may look at their matches before confirming. */
const MATCHES_TTL_SECONDS = 2 * 3600;

export type AlliesDeps = {
  database: Database;
  events: Pick<EventRecorder, 'sendEmail'>;
  encryptionKey: Buffer;
  publicUrl: string;
  /** The official Google clients (or the sandbox), for an ally's one-time read-only consent. */
  google: GoogleClientFactory;
  /** That consent's state, bound to the ally's browser. */
  flow: OAuthFlow;
};

const ZLink = z.object({ w: z.uuid(), s: z.uuid() });
const ZSignedMatches = z.object({ s: z.uuid(), m: z.array(ZAllyMatch) });

const INVALID_LINK = 'This share link was altered or has expired. Ask for a new one.';

const signers = (deps: AlliesDeps) => ({
  link: createStateSigner(deps.encryptionKey, 'ally-share'),
  matches: createStateSigner(deps.encryptionKey, 'ally-matches'),
});

/** The workspace and share a link names, when its signature holds and it has not expired. */
function openLink(deps: AlliesDeps, token: string) {
  const value = ZLink.safeParse(signers(deps).link.verify(token));
  if (!value.success) throw new AppError('VALIDATION_FAILED', INVALID_LINK);
  return { workspaceId: value.data.w, shareId: value.data.s };
}

/** The share a link points at, read in its own workspace only: the signed workspace id is the tenancy. */
export async function shareOf(deps: AlliesDeps, token: string) {
  const link = openLink(deps, token);
  const share = await deps.database.inWorkspace(link.workspaceId, (tx) =>
    findShare(tx, link.workspaceId, link.shareId),
  );
  if (!share) throw new AppError('NOT_FOUND', 'This share link no longer exists.');
  return { ...link, share };
}

async function pageOf(deps: AlliesDeps, workspaceId: string, share: ShareRow): Promise<TAllyShare> {
  const shared = await deps.database.inWorkspace(workspaceId, (tx) =>
    findSharedConnections(tx, workspaceId, { shareId: share.id }),
  );
  return {
    workspaceName: share.workspaceName,
    allyName: share.allyName,
    senderName: share.senderName,
    expiresAt: share.expiresAt,
    status: share.withdrawnAt ? 'withdrawn' : share.confirmedAt ? 'confirmed' : 'open',
    shared,
  };
}

/**
 * Sends a mapped ally their share link, from the admin's Google account through the outbox (as the
 * intro requests go): signed, naming one workspace and one share, expiring in 30 days.
 */
export async function sendAllyShareLink(deps: AlliesDeps, member: Member, clientId: string): Promise<TAllyShareSent> {
  const ws = member.workspaceId;
  const expiresAt = new Date(Date.now() + ALLY_SHARE_TTL_SECONDS * 1000);
  return deps.database.inWorkspace(ws, async (tx) => {
    const ally = await findMappedAlly(tx, ws, clientId);
    if (!ally) throw new AppError('NOT_FOUND', 'Ally not found');
    if (!ally.email) throw new AppError('ALREADY_EXISTS', 'This ally has no e-mail address to send the link to');
    const shareId = await insertShare(tx, ws, { clientId, sentByUserId: member.userId, sentTo: ally.email, expiresAt });
    const token = signers(deps).link.sign({ w: ws, s: shareId }, ALLY_SHARE_TTL_SECONDS);
    const link = `${deps.publicUrl}/share?token=${encodeURIComponent(token)}`;
    await deps.events.sendEmail(tx, member, {
      purpose: 'ally-share',
      to: [ally.email],
      subject: 'Share which of your LinkedIn connections work at the companies we target',
      text: [
        `Hi ${ally.fullName},`,
        '',
        'Could you help us with warm introductions? The link below opens a page where you can upload the Connections.csv of your LinkedIn data export.',
        'Only the people who work at the companies we target are kept, and you see them before confirming; the rest of your file is discarded right after matching and never stored.',
        'You can remove anyone before confirming, and withdraw everything later with the same link.',
        '',
        link,
        '',
        `The link works until ${expiresAt.toISOString().slice(0, 10)}.`,
      ].join('\n'),
    });
    await recordAudit(tx, ws, {
      actorUserId: member.userId,
      action: 'ally.link-sent',
      subject: `${ally.fullName} · ${ally.email}`,
      details: { clientId, shareId },
    });
    return { sentTo: ally.email, expiresAt: expiresAt.toISOString() };
  });
}

export async function allySharedConnections(
  deps: AlliesDeps,
  member: Member,
  clientId: string,
): Promise<TAllySharedConnections> {
  const rows = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    findSharedConnections(tx, member.workspaceId, { clientId }),
  );
  return { rows };
}

export async function getAllyShare(deps: AlliesDeps, token: string): Promise<TAllyShare> {
  const { workspaceId, share } = await shareOf(deps, token);
  return pageOf(deps, workspaceId, share);
}

/**
 * Reads the ally's Connections.csv as it streams, keeping in memory only the rows at the workspace's
 * accounts. Nothing is written: the matches go back to the page with a signature over them, and only
 * the ones the ally then confirms are stored (no table of unconfirmed matches, nothing to purge).
 */
export async function matchAllyConnections(
  deps: AlliesDeps,
  token: string,
  upload: LinkedinUpload,
): Promise<TAllyMatches> {
  const { workspaceId, share } = await shareOf(deps, token);
  const rejected = new Rejections();
  const matches = new Map<string, TAllyMatch>();
  let scanned = 0;
  await readUpload(upload, LINKEDIN_FILES.connections, async () => {
    for await (const batch of connectionBatches(upload.file, rejected)) {
      scanned += batch.length;
      const rows = batch.map((row) => ({
        fullName: `${row.firstName} ${row.lastName}`.trim(),
        profileUrl: row.profileUrl,
        email: null,
        company: row.company,
        position: row.position,
      }));
      const kept = await deps.database.inWorkspace(workspaceId, (tx) => matchAccounts(tx, workspaceId, rows));
      for (const match of kept) matches.set(allyMatchKey(match), match);
    }
  });
  return signedMatches(deps, share.id, [...matches.values()], scanned);
}

/** The matches as the page shows them, with the signature a confirmation must bring back. */
export function signedMatches(deps: AlliesDeps, shareId: string, matches: TAllyMatch[], scanned: number): TAllyMatches {
  const list = [...matches].sort((a, b) => a.fullName.localeCompare(b.fullName));
  const matchToken = signers(deps).matches.sign({ s: shareId, m: list }, MATCHES_TTL_SECONDS);
  return { matches: list, scanned, matchToken };
}

/** Keeps the confirmed matches: only ones this link's matching signed, as connections of its ally. */
export async function confirmAllyConnections(deps: AlliesDeps, token: string, body: TAllyConfirm): Promise<TAllyShare> {
  const { workspaceId, share } = await shareOf(deps, token);
  const signed = ZSignedMatches.safeParse(signers(deps).matches.verify(body.matchToken));
  if (!signed.success || signed.data.s !== share.id) {
    throw new AppError('VALIDATION_FAILED', 'These matches were altered or have expired. Find your matches again.');
  }
  const keep = new Set(body.keep);
  const kept = signed.data.m.filter((match) => keep.has(allyMatchKey(match)));
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    await keepAllyConnections(tx, workspaceId, share, kept);
    await recordAudit(tx, workspaceId, {
      actorUserId: null,
      action: 'ally.shared',
      subject: share.allyName,
      details: { shareId: share.id, connections: kept.length },
    });
  });
  await recomputeDirty(deps.database, workspaceId);
  const fresh = await deps.database.inWorkspace(workspaceId, (tx) => findShare(tx, workspaceId, share.id));
  return pageOf(deps, workspaceId, fresh ?? share);
}

/** Withdraws everything the ally shared through this link (the link keeps working until it expires). */
export async function withdrawAllyConnections(deps: AlliesDeps, token: string): Promise<TAllyShare> {
  const { workspaceId, share } = await shareOf(deps, token);
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    await withdrawShare(tx, workspaceId, share.id);
    await recordAudit(tx, workspaceId, {
      actorUserId: null,
      action: 'ally.withdrew',
      subject: share.allyName,
      details: { shareId: share.id },
    });
  });
  await recomputeDirty(deps.database, workspaceId);
  const fresh = await deps.database.inWorkspace(workspaceId, (tx) => findShare(tx, workspaceId, share.id));
  return pageOf(deps, workspaceId, fresh ?? share);
}
