import type { Tx } from '../../db/client.ts';
import type { InteractionEvidence } from '../../graph/evidence.repo.ts';
import { blocklistOf } from './blocklist.ts';
import {
  colleagueTest,
  correspondence,
  outsidersOf,
  type ScreenContext,
  screenInteractions,
  withoutBlocked,
} from './mail-screen.ts';
import { blocklistEntries, recordCorrespondence, screeningContext } from './privacy.repo.ts';

/** What screens one member's synced evidence: read once per sync. */
export async function loadScreen(
  tx: Tx,
  workspaceId: string,
  userId: string,
  accountEmail: string | null,
): Promise<ScreenContext> {
  const found = await screeningContext(tx, workspaceId, userId);
  return {
    // The connected Google account is the mailbox read; the member's own address when it is unknown.
    owner: (accountEmail ?? found?.email ?? '').toLowerCase(),
    blocklist: blocklistOf(await blocklistEntries(tx, workspaceId, userId)),
    isColleague: colleagueTest(found?.domains ?? [], found?.members ?? []),
  };
}

/**
 * A page of a member's evidence as it may be kept (issue 22): blocked addresses taken out, and in mail
 * an outsider only once a person exists for them or they and the member wrote to each other.
 */
export async function screenEvidence(
  tx: Tx,
  workspaceId: string,
  userId: string,
  screen: ScreenContext,
  interactions: readonly InteractionEvidence[],
) {
  const unblocked = withoutBlocked(interactions, screen.blocklist);
  const mail = unblocked.filter((interaction) => interaction.kind === 'mail');
  const allowed =
    mail.length === 0
      ? new Set<string>()
      : await recordCorrespondence(tx, workspaceId, userId, {
          ...correspondence(mail, screen),
          emails: outsidersOf(mail, screen),
        });
  return screenInteractions(unblocked, screen, allowed);
}
