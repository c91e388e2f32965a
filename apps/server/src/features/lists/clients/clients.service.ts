import { randomUUID } from 'node:crypto';
import type { TClient, TClientForm, TClientsPage, TListParams } from '@warmpath/shared';
import { markDirty, markNeighbourhoodDirty, onePerson } from '../../../graph/dirty.ts';
import { decideJobChange } from '../../../graph/job-changes.ts';
import { loadGraphSettings } from '../../../graph/settings.ts';
import { AppError } from '../../../lib/app-error.ts';
import { containsPattern } from '../../../lib/like-pattern.ts';
import type { Member } from '../../../plugins/auth.ts';
import { hasCompletedOnboarding } from '../../users/users.repo.ts';
import { KINDS } from '../imports/import-kinds.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { ERASED_ROW_REASON, mergeRow } from '../imports/merge.ts';
import {
  type ClientList,
  clientRecord,
  clientTags,
  deleteClient,
  findClient,
  findClientIdOfPerson,
  findJobChanges,
  listClients,
  updateClientDetails,
} from './clients.repo.ts';

/**
 * Who may upload clients: admins, and any member still in onboarding, whose clients step is exactly
 * that (spec section 6, the clients-step role). Afterwards the lists are the admins' to change.
 */
export async function assertMayImportClients(deps: ImportDeps, member: Member) {
  if (member.role === 'admin') return;
  const done = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    hasCompletedOnboarding(tx, member.workspaceId, member.userId),
  );
  if (done !== false) {
    throw new AppError('FORBIDDEN', 'Only admins can import clients once onboarding is done.');
  }
}

export async function queryClients(
  deps: ImportDeps,
  member: Member,
  list: ClientList,
  query: TListParams,
): Promise<TClientsPage> {
  const { page, pageSize } = query;
  const { rows, totalCount } = await deps.database.readInWorkspace(member.workspaceId, async (tx) => {
    const { model } = await loadGraphSettings(tx, member.workspaceId);
    return listClients(tx, member.workspaceId, model, {
      list,
      pattern: containsPattern(query.searchTerm),
      page,
      pageSize,
    });
  });
  return {
    rows,
    pagination: { page, pageSize, totalCount, totalPages: Math.max(1, Math.ceil(totalCount / pageSize)) },
  };
}

const notFound = () => new AppError('NOT_FOUND', 'Client not found');

/**
 * The add-client form (spec section 4). A create merges the person exactly as a one-row import would
 * (matched by e-mail or LinkedIn, never duplicated) with the flags of the list it was opened from; an
 * update changes only the company, contact owner and tag, and keeps the flags.
 */
export async function saveClient(deps: ImportDeps, member: Member, form: TClientForm): Promise<TClient> {
  const ws = member.workspaceId;
  const { id } = form;
  const saved = await deps.database.inWorkspace(ws, async (tx) => {
    let clientId: string | null;
    let dirty: boolean;
    if (id === undefined) {
      const values = KINDS.clients.fields.map((field) => form[field.field as keyof TClientForm] ?? null);
      const merged = await mergeRow(tx, 'clients', values as (string | null)[], {
        workspaceId: ws,
        importId: randomUUID(),
        mapNetwork: form.mapNetwork,
        trackJobChanges: form.trackJobChanges,
        source: 'manual',
      });
      // The one row refused (a person erased at their request): nothing is written, and the form says why.
      if (merged.rejected > 0) throw new AppError('VALIDATION_FAILED', ERASED_ROW_REASON);
      dirty = merged.dirty;
      clientId = await findClientIdOfPerson(tx, ws, form.email, form.linkedinUrl);
    } else {
      const record = await clientRecord(tx, ws, id);
      if (!record) throw notFound();
      dirty = await updateClientDetails(tx, ws, id, {
        companyName: form.companyName,
        companyDomain: form.companyDomain,
        contactOwner: form.contactOwner ?? null,
        tag: form.tag ?? null,
      });
      const person = onePerson(record.person_id);
      if (dirty && record.may_connect) await markNeighbourhoodDirty(tx, ws, person);
      else if (dirty) await markDirty(tx, ws, person);
      clientId = id;
    }
    const { model } = await loadGraphSettings(tx, ws);
    const client = clientId ? await findClient(tx, ws, model, clientId) : null;
    if (!client) throw notFound();
    return { client, dirty };
  });
  if (saved.dirty) await deps.jobs.enqueueGraphRecompute(ws).catch(() => {});
  return saved.client;
}

/** Removes a client or ally (the person stays, as evidence): their network no longer counts, their job no longer tracked. */
export async function removeClient(deps: ImportDeps, member: Member, id: string) {
  const ws = member.workspaceId;
  await deps.database.inWorkspace(ws, async (tx) => {
    const record = await clientRecord(tx, ws, id);
    if (!record) throw notFound();
    await deleteClient(tx, ws, id);
    const person = onePerson(record.person_id);
    if (record.may_connect) await markNeighbourhoodDirty(tx, ws, person);
    else await markDirty(tx, ws, person);
  });
  await deps.jobs.enqueueGraphRecompute(ws).catch(() => {});
}

export async function queryClientTags(deps: ImportDeps, member: Member, searchTerm: string | undefined) {
  const tags = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    clientTags(tx, member.workspaceId, containsPattern(searchTerm)),
  );
  return { tags };
}

/** How many job changes (and how many departures) the page lists: the newest. */
const JOB_CHANGES_SHOWN = 200;

export async function queryJobChanges(deps: ImportDeps, member: Member, query: { recentDays?: number }) {
  return deps.database.inWorkspace(member.workspaceId, (tx) =>
    findJobChanges(tx, member.workspaceId, { recentDays: query.recentDays, limit: JOB_CHANGES_SHOWN }),
  );
}

/** An admin's decision on a probable job change; a confirmed one is rolled into the network. */
export async function decideJobChangeFor(deps: ImportDeps, member: Member, id: string, confirmed: boolean) {
  const decided = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    decideJobChange(tx, member.workspaceId, { id, userId: member.userId, confirmed }),
  );
  if (!decided) throw new AppError('NOT_FOUND', 'No undecided job change with this id');
  if (confirmed) await deps.jobs.enqueueGraphRecompute(member.workspaceId);
}
