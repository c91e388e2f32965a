import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { confirmAgreeingDepartures, type DepartureRow, leaveCompany } from './departures.ts';
import { markDirty, markNeighbourhoodDirty } from './dirty.ts';
import { membersCte } from './graph.sql.ts';

/**
 * Job changes the mail implies, headers only: a person (two words or more in their name) who wrote
 * from one company's address, then, after their last mail from it, from another company's address
 * under the same name (and, when they kept it, the same local part). Recorded as probable, with the
 * evidence, for an admin to confirm or dismiss: two people can share a name. A change already
 * recorded or dismissed is not raised again. Returns how many were new.
 */
export async function inferJobChangesFromMail(tx: Tx, workspaceId: string) {
  const inferred = await tx.execute(mailJobChangesSql(workspaceId));
  await confirmAgreeingJobChanges(tx, workspaceId);
  return inferred.rowCount ?? 0;
}

/**
 * A probable change becomes certain when a second source agrees: a certain change (a LinkedIn export,
 * an import, an admin) of the same person, or of a person of the same name (mail and LinkedIn often know
 * one human as two people), to the same company. It is confirmed with the agreeing source in its
 * evidence, as an admin's confirmation would be; so are the departures a move agrees with
 * (departures.ts). Returns how many were confirmed.
 */
export async function confirmAgreeingJobChanges(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  const nameKey = (alias: string) => sql.raw(`lower(regexp_replace(btrim(${alias}.full_name), '\\s+', ' ', 'g'))`);
  const confirmed = await tx.execute<ConfirmedMove>(sql`
    with agreeing as (
      select distinct on (j.id) j.id, c.source, c.id as by_change
        from job_changes j
        join people jp on jp.workspace_id = ${ws} and jp.id = j.person_id
        join job_changes c on c.workspace_id = ${ws} and c.id <> j.id and c.confidence = 'certain'
                          and c.status <> 'dismissed' and c.source <> j.source
                          and company_key(c.new_company_name) = company_key(j.new_company_name)
        join people cp on cp.workspace_id = ${ws} and cp.id = c.person_id
       where j.workspace_id = ${ws} and j.status = 'detected' and j.confidence = 'probable'
         and (cp.id = jp.id or ${nameKey('cp')} = ${nameKey('jp')})
       order by j.id, c.created_at
    )
    update job_changes j set status = 'confirmed', confidence = 'certain', decided_at = now(),
           evidence = j.evidence || jsonb_build_object('confirmedBy', a.source, 'confirmingChange', a.by_change)
      from agreeing a
     where j.workspace_id = ${ws} and j.id = a.id
    returning j.person_id, j.new_company_id, j.past_company_id, j.changed_on::text as changed_on,
              j.evidence->>'newAddress' as new_address`);
  for (const change of confirmed.rows) await moveToNewCompany(tx, ws, change);
  // A move away from a company is also the second source a departure from it waits for.
  return confirmed.rows.length + (await confirmAgreeingDepartures(tx, ws));
}

export function mailJobChangesSql(workspaceId: string) {
  const ws = workspaceId;
  return sql`
    with ${membersCte(ws)},
    writers as materialized (
      select ip.person_id, min(i.occurred_at) as first_at, max(i.occurred_at) as last_at
        from interaction_participants ip
        join interactions i on i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
       where ip.workspace_id = ${ws} and ip.role = 'from' and i.kind = 'mail'
         -- A private member's mail tells the team nothing, not even who moved (issue 22).
         and not exists (select 1 from users su where su.workspace_id = i.workspace_id and su.id = i.source_user_id
                           and su.sharing_level = 'private')
       group by ip.person_id
    ),
    named as materialized (
      select p.id, p.email, p.company_id, w.first_at, w.last_at,
             lower(regexp_replace(btrim(p.full_name), '\\s+', ' ', 'g')) as name_key
        from people p join writers w on w.person_id = p.id
       where p.workspace_id = ${ws} and p.company_id is not null and p.email is not null
         and btrim(p.full_name) ~ '\\S\\s+\\S'
         and not exists (select 1 from members m where m.person_id = p.id)
    ),
    -- Only names seen at two companies or more can pair: a few among thousands. Pairing them alone keeps
    -- the join small whatever the planner believes (fresh from a sync, it believed one row each).
    candidates as materialized (
      select n.* from named n
       where n.name_key in (select name_key from named group by name_key having count(distinct company_id) > 1)
    )
    insert into job_changes (workspace_id, person_id, past_company_id, past_company_name, new_company_id,
                             new_company_name, changed_on, source, confidence, evidence)
    select ${ws}::uuid, old.id, old.company_id, oc.name, new.company_id, nc.name, new.first_at::date, 'mail', 'probable',
           jsonb_build_object('oldAddress', old.email, 'newAddress', new.email,
                              'lastFromOld', old.last_at, 'firstFromNew', new.first_at,
                              'sameLocalPart', split_part(old.email, '@', 1) = split_part(new.email, '@', 1))
      from candidates old
      join candidates new on new.name_key = old.name_key and new.id <> old.id and new.company_id <> old.company_id
                    and new.first_at > old.last_at
      join companies oc on oc.workspace_id = ${ws} and oc.id = old.company_id
      join companies nc on nc.workspace_id = ${ws} and nc.id = new.company_id
     where not exists (select 1 from job_changes j
                        where j.workspace_id = ${ws} and j.person_id = old.id and j.new_company_id = new.company_id)
    on conflict do nothing`;
}

/**
 * An admin's decision on a job change not yet decided. Confirming makes it certain and true: the
 * person's current company becomes the new one (the old employment ends, the new one begins), and
 * they are rolled up again (a tracked client then raises PAST_CLIENT); a departure ends the old
 * employment only. Returns false when there is no such change to decide.
 */
export async function decideJobChange(
  tx: Tx,
  workspaceId: string,
  decision: { id: string; userId: string; confirmed: boolean },
) {
  const ws = workspaceId;
  const decided = await tx.execute<ConfirmedMove & { kind: 'moved' | 'left' }>(sql`
    update job_changes set status = ${decision.confirmed ? 'confirmed' : 'dismissed'},
           confidence = case when ${decision.confirmed} then 'certain' else confidence end,
           decided_by_user_id = ${decision.userId}, decided_at = now()
     where workspace_id = ${ws} and id = ${decision.id} and status = 'detected'
    returning kind, person_id, new_company_id, past_company_id, changed_on::text as changed_on,
              evidence->>'newAddress' as new_address`);
  const change = decided.rows[0];
  if (!change) return false;
  if (decision.confirmed && change.kind === 'left') await leaveCompany(tx, ws, change);
  else if (decision.confirmed) await moveToNewCompany(tx, ws, change);
  return true;
}

/** A move confirmed: who moved, where to, and (the mail's moves) the address they now write from. */
type ConfirmedMove = DepartureRow & { new_company_id: string | null; new_address: string | null };

/**
 * A confirmed change is true: the old employment ends, the new one begins, and the person is rolled up
 * again. When the mail showed the move, the person writing from the new address is a record of their
 * own, and is who they are now: the old record leaves the old company (its address is dead), and a
 * tracked client follows them to the new one, so a message to a past client reaches their new address.
 */
async function moveToNewCompany(tx: Tx, ws: string, change: ConfirmedMove) {
  if (!change.new_company_id) return;
  const current = change.new_address
    ? await tx.execute<{ id: string }>(sql`
        select id from people where workspace_id = ${ws} and email = ${change.new_address} and id <> ${change.person_id}`)
    : null;
  const now = current?.rows[0]?.id;
  if (now) {
    await leaveCompany(tx, ws, change);
    await startEmployment(tx, ws, now, change.new_company_id, change.changed_on);
    await tx.execute(sql`
      update clients set person_id = ${now}
       where workspace_id = ${ws} and person_id = ${change.person_id}
         and not exists (select 1 from clients other where other.workspace_id = ${ws} and other.person_id = ${now})`);
    await markMoved(tx, ws, [change.person_id, now]);
    return;
  }
  await tx.execute(sql`
    update employments set ended_on = current_date
     where workspace_id = ${ws} and person_id = ${change.person_id} and ended_on is null
       and company_id <> ${change.new_company_id}`);
  await startEmployment(tx, ws, change.person_id, change.new_company_id, change.changed_on);
  await tx.execute(sql`
    update people set company_id = ${change.new_company_id}, updated_at = now()
     where workspace_id = ${ws} and id = ${change.person_id}`);
  await markMoved(tx, ws, [change.person_id]);
}

/**
 * The people a move changes, marked for the graph job. A client who moved may have become a connector
 * (a past client at a new company, `isConnectorClient`) or stopped being one where they were: everyone
 * their evidence reaches is rolled up again, their new colleagues-in-time first among them, so the
 * edges through them into the new company get built. Anyone else changes only their own row.
 */
async function markMoved(tx: Tx, ws: string, personIds: string[]) {
  const people = sql`select unnest(${sql.param(personIds)}::uuid[])`;
  const client = await tx.execute(sql`
    select 1 from clients where workspace_id = ${ws} and person_id = any(${sql.param(personIds)}::uuid[])
       and (map_network or track_job_changes)`);
  if (client.rows.length > 0) await markNeighbourhoodDirty(tx, ws, people);
  else await markDirty(tx, ws, people);
}

/** The employment a move begins, from the day it was seen, unless the person is there already. */
async function startEmployment(tx: Tx, ws: string, personId: string, companyId: string, changedOn: string) {
  await tx.execute(sql`
    insert into employments (workspace_id, person_id, company_id, source, started_on, seen_at)
    select ${ws}::uuid, ${personId}::uuid, ${companyId}::uuid, 'mail', ${changedOn}::date, now()
     where not exists (select 1 from employments where workspace_id = ${ws} and person_id = ${personId}
                         and company_id = ${companyId} and ended_on is null)`);
}
