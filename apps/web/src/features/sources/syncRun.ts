import type { TSyncRun } from '@warmpath/shared';
import { plural } from '../../lib/format.ts';

/** How often the sync status is asked for while a run is queued or running. */
export const SYNC_POLL_INTERVAL_MS = 1000;

/** A run still to finish: the status is polled until it is not. */
export function isSyncActive(run: TSyncRun | null | undefined): boolean {
  return run?.status === 'queued' || run?.status === 'running';
}

/** The share done, 0 to 100, when the run knows its total; null when it cannot tell (an indeterminate bar). */
export function syncPercent(run: Pick<TSyncRun, 'processed' | 'total'>): number | null {
  if (run.total === null || run.total <= 0) return null;
  return Math.min(100, Math.round((run.processed / run.total) * 100));
}

/**
 * What a finished sync brought in, e.g. '3,021 messages, 412 meetings, 230 contacts'. Google's
 * address book and its "other contacts" both count as contacts; kinds the run did not report are left out.
 */
export function syncCountsSummary(counts: Record<string, number>): string {
  const contactKeys = ['contacts', 'otherContacts'].filter((key) => counts[key] !== undefined);
  const parts: string[] = [];
  if (counts.messages !== undefined) parts.push(plural(counts.messages, 'message', 'messages'));
  if (counts.meetings !== undefined) parts.push(plural(counts.meetings, 'meeting', 'meetings'));
  if (contactKeys.length > 0) {
    const contacts = contactKeys.reduce((sum, key) => sum + (counts[key] ?? 0), 0);
    parts.push(plural(contacts, 'contact', 'contacts'));
  }
  return parts.join(', ');
}

/** The run failed because Google refused our access: only connecting again helps. */
export function isAccessRevoked(error: string | null): boolean {
  return error !== null && /revoked/i.test(error);
}
