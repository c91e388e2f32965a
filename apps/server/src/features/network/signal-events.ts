import type { Tx } from '../../db/client.ts';
import type { EventsDeps } from '../../events/record.ts';
import { eventPeople } from '../../events/subjects.ts';
import type { RaisedSignal, RaisedSignalsListener } from '../../graph/raised.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { networkRows } from './network.repo.ts';

/** No member: the rows are read for what they show everyone, not for one user's own requests. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * What the graph job's raised signals become: `signal.raised` for each (with the score the network
 * page shows on its chip), and `job_change.detected` when a tracked past client is seen at another
 * company. Recorded in the recompute's transaction, with the rows that raised them.
 */
export function signalEvents(deps: EventsDeps): RaisedSignalsListener {
  return {
    listens: async (tx, workspaceId) =>
      (await deps.events.wants(tx, workspaceId, 'signal.raised')) ||
      (await deps.events.wants(tx, workspaceId, 'job_change.detected')),
    raised: (tx, workspaceId, signals) => recordRaised(deps, tx, workspaceId, signals),
  };
}

async function recordRaised(deps: EventsDeps, tx: Tx, workspaceId: string, raised: RaisedSignal[]) {
  const prospectIds = [...new Set(raised.map((signal) => signal.prospectId))];
  const { model } = await loadGraphSettings(tx, workspaceId);
  const rows = new Map(
    (await networkRows(tx, { workspaceId, userId: NOBODY }, prospectIds, model)).map((row) => [row.id, row]),
  );
  const person = await eventPeople(tx, workspaceId, deps.publicUrl, prospectIds);
  for (const { prospectId, type } of raised) {
    const signal = rows.get(prospectId)?.signals.find((candidate) => candidate.type === type);
    if (!signal) continue;
    await deps.events.record(tx, workspaceId, 'signal.raised', {
      signalType: type,
      prospect: person(prospectId),
      proximityScore: signal.proximityScore,
    });
    const { pastCompanyName, newCompanyName } = signal.metadata;
    if (type === 'PAST_CLIENT' && newCompanyName)
      await deps.events.record(tx, workspaceId, 'job_change.detected', {
        person: person(prospectId),
        pastCompanyName: pastCompanyName ?? null,
        newCompanyName,
      });
  }
}
