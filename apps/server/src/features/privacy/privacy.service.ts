import { SHARING_LEVEL_LABELS, type TPrivacy, type TUpdatePrivacy } from '@warmpath/shared';
import type { Database, Tx } from '../../db/client.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import {
  blocklistEntries,
  deleteBlocklistEntry,
  eraseBlockedEvidence,
  findPrivacy,
  insertBlocklistEntry,
  markMemberReachDirty,
  savePrivacy,
  withdrawOpenAsksOf,
} from './privacy.repo.ts';

export type PrivacyDeps = { database: Database; jobs: Pick<JobQueue, 'enqueueGraphRecompute'> };

async function privacyOf(tx: Tx, member: Member): Promise<TPrivacy> {
  const row = await findPrivacy(tx, member.workspaceId, member.userId);
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  const { weeklyIntroCap } = await loadGraphSettings(tx, member.workspaceId);
  return {
    sharingLevel: row.sharing_level,
    acceptsIntros: row.accepts_intros,
    weeklyIntroCap: row.weekly_intro_cap,
    workspaceWeeklyIntroCap: weeklyIntroCap,
    blocklist: await blocklistEntries(tx, member.workspaceId, member.userId),
  };
}

export function getPrivacy(deps: PrivacyDeps, member: Member) {
  return deps.database.inWorkspace(member.workspaceId, (tx) => privacyOf(tx, member));
}

/**
 * Saves the member's settings. A new sharing level re-rolls the rows of everyone the member knows, so
 * teammates' network, connectors and counts follow within the graph's next run.
 */
export async function updatePrivacy(deps: PrivacyDeps, member: Member, input: TUpdatePrivacy) {
  const { privacy, changed } = await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const before = await savePrivacy(tx, member.workspaceId, member.userId, input);
    const changed = before !== null && before !== input.sharingLevel;
    if (changed) {
      await markMemberReachDirty(tx, member.workspaceId, member.userId);
      // What teammates see of the member changed: admins can tell when, and from what to what.
      await recordAudit(tx, member.workspaceId, {
        actorUserId: member.userId,
        action: 'sharing.changed',
        subject: `${SHARING_LEVEL_LABELS[before]} → ${SHARING_LEVEL_LABELS[input.sharingLevel]}`,
        details: { from: before, to: input.sharingLevel },
      });
    }
    if (input.sharingLevel === 'private' || !input.acceptsIntros) {
      await withdrawOpenAsksOf(tx, member.workspaceId, member.userId);
    }
    return { privacy: await privacyOf(tx, member), changed };
  });
  if (changed) await deps.jobs.enqueueGraphRecompute(member.workspaceId);
  return privacy;
}

/** Blocks an address or domain, erasing what the member's accounts gave about it. */
export async function blockContact(deps: PrivacyDeps, member: Member, entry: string) {
  const { privacy, erased } = await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    await insertBlocklistEntry(tx, member.workspaceId, member.userId, entry);
    const erased = await eraseBlockedEvidence(tx, member.workspaceId, member.userId, entry);
    return { privacy: await privacyOf(tx, member), erased };
  });
  if (erased > 0) await deps.jobs.enqueueGraphRecompute(member.workspaceId);
  return privacy;
}

/** Unblocks an address or domain: the member's next sync may bring it in again. */
export function unblockContact(deps: PrivacyDeps, member: Member, entry: string) {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    await deleteBlocklistEntry(tx, member.workspaceId, member.userId, entry);
    return privacyOf(tx, member);
  });
}
