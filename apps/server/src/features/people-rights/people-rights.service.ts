import { signalsOfMask, type TPersonExport } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvLine } from '../../lib/csv-write.ts';
import type { Member } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import { erasePersonData, findPersonIdentity, findPersonRecords, type PersonIdentity } from './people-rights.repo.ts';

export type PeopleRightsDeps = { database: Database };

/** How the audit log names a person: their name and the key they are known by. */
const subjectOf = (person: PersonIdentity) =>
  [person.fullName, person.email ?? person.linkedinUrl]
    .filter((part) => part && part !== person.fullName)
    .join(' · ') || person.fullName;

/** Everything the workspace holds about a person (GDPR article 15), recorded in the audit log. */
export async function exportPerson(
  deps: PeopleRightsDeps,
  member: Member,
  personId: string,
  format: 'json' | 'csv' = 'json',
): Promise<TPersonExport> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const person = await findPersonIdentity(tx, member.workspaceId, personId);
    if (!person) throw new AppError('NOT_FOUND', 'Person not found');
    const records = await findPersonRecords(tx, member.workspaceId, personId);
    await recordAudit(tx, member.workspaceId, {
      actorUserId: member.userId,
      action: 'person.exported',
      subject: subjectOf(person),
      details: { personId, format },
    });
    const { isMember: _member, ...identity } = person;
    return {
      exportedAt: new Date().toISOString(),
      identity,
      employments: records.employments,
      interactions: records.interactions,
      edges: records.edges,
      signals: signalsOfMask(records.signalMask),
      actions: records.actions,
      sources: records.sources,
    };
  });
}

/** The same export as CSV: one line per fact (section, index, field, value), for a spreadsheet. */
export function personExportCsv(data: TPersonExport): string {
  const lines = [csvLine(['section', 'item', 'field', 'value'])];
  const add = (section: string, item: number, record: Record<string, unknown>) => {
    for (const [field, value] of Object.entries(record)) {
      const cell = Array.isArray(value) ? value.join('; ') : value === null || value === undefined ? '' : String(value);
      lines.push(csvLine([section, item, field, cell]));
    }
  };
  add('identity', 1, data.identity);
  const sections: [string, Record<string, unknown>[]][] = [
    ['employment', data.employments],
    ['interaction', data.interactions],
    ['edge', data.edges],
    ['signal', data.signals.map((type) => ({ type }))],
    ['action', data.actions],
    ['source', data.sources.map((source) => ({ source }))],
  ];
  for (const [section, rows] of sections) {
    for (const [index, row] of rows.entries()) add(section, index + 1, row);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Erases a person (GDPR article 17): their evidence, edges, signals and actions, with a tombstone that
 * keeps the next sync or import from creating them again; then the network is rolled up again. A member
 * is not erased here: they leave the workspace first (Admin › Users).
 */
export async function erasePerson(deps: PeopleRightsDeps, member: Member, personId: string): Promise<void> {
  await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const person = await findPersonIdentity(tx, member.workspaceId, personId);
    if (!person) throw new AppError('NOT_FOUND', 'Person not found');
    if (person.isMember) {
      throw new AppError('FORBIDDEN', 'This person is a member of the workspace: remove them in Admin › Users first');
    }
    await erasePersonData(tx, member.workspaceId, person);
    await recordAudit(tx, member.workspaceId, {
      actorUserId: member.userId,
      action: 'person.erased',
      subject: subjectOf(person),
      details: { personId },
    });
  });
  // At once rather than by the graph job: the admin who erased someone expects them gone from the network.
  await recomputeDirty(deps.database, member.workspaceId);
}
