import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { markDirty, onePerson } from './dirty.ts';
import { membersCte } from './graph.sql.ts';

// Departures ('may have left'): job changes of kind 'left', whose new company is unknown. The mail
// implies one when a delivery failure report names a person's company address (dead_addresses).

/** The latest mail a person wrote, by their (only) address. */
const lastMailFrom = (ws: string, person: SQL) => sql`
  (select max(i.occurred_at) from interaction_participants ip
     join interactions i on i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
    where ip.workspace_id = ${ws} and ip.person_id = ${person} and ip.role = 'from' and i.kind = 'mail')`;

/**
 * Departures the bounces imply, headers only: a person whose company address a delivery failure report
 * named, known at it (they wrote from it, met a member, are a saved contact, a client or an ally) and
 * who has not written from it since, may have left that company. Recorded as probable with the report as evidence, for an admin to confirm or
 * dismiss: an address can die for other reasons (a renamed domain, a full mailbox). Raised once per
 * person: a dismissed one is never raised again. One not yet decided is withdrawn when mail comes from
 * the address after the bounce. Then those a move of the same person agrees with become certain.
 */
export async function inferDeparturesFromBounces(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  const cleared = await tx.execute(sql`
    delete from job_changes j
     where j.workspace_id = ${ws} and j.kind = 'left' and j.status = 'detected'
       and ${lastMailFrom(ws, sql`j.person_id`)} > (j.evidence->>'bouncedAt')::timestamptz`);
  const raised = await tx.execute(sql`
    with ${membersCte(ws)},
    dead as materialized (
      select d.email, d.bounced_at, d.evidence, p.id as person_id, p.company_id, co.name as company_name,
             ${lastMailFrom(ws, sql`p.id`)} as last_from
        from dead_addresses d
        join people p on p.workspace_id = ${ws} and p.email = d.email
        -- Still at the company of the address: a person already known elsewhere left it before.
        join companies co on co.workspace_id = ${ws} and co.id = p.company_id and co.domain = split_part(d.email, '@', 2)
       where d.workspace_id = ${ws}
         and not exists (select 1 from members m where m.person_id = p.id)
         -- A private member's bounces tell the team nothing (issue 22).
         and not exists (select 1 from members m where m.user_id = d.source_user_id and m.sharing = 'private')
    )
    insert into job_changes (workspace_id, person_id, kind, past_company_id, past_company_name, changed_on,
                             source, confidence, evidence)
    select ${ws}::uuid, d.person_id, 'left', d.company_id, d.company_name, d.bounced_at::date, 'mail', 'probable',
           jsonb_build_object('address', d.email, 'bouncedAt', d.bounced_at, 'reportId', d.evidence->>'messageId',
                              'reportSender', d.evidence->>'sender', 'lastFromAddress', d.last_from)
      from dead d
     where (d.last_from < d.bounced_at
            -- Never heard from, yet known at that address: met before the bounce, saved in a member's
            -- contacts, kept by the team as a client or an ally. Only a mistyped address is no one's.
            or d.last_from is null
               and (exists (select 1 from interaction_participants ip
                              join interactions i on i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
                             where ip.workspace_id = ${ws} and ip.person_id = d.person_id and i.kind = 'meeting'
                               and i.occurred_at < d.bounced_at)
                    or exists (select 1 from address_book_entries a
                                where a.workspace_id = ${ws} and a.person_id = d.person_id and a.source = 'contact')
                    or exists (select 1 from clients c where c.workspace_id = ${ws} and c.person_id = d.person_id)))
       and not exists (select 1 from job_changes j where j.workspace_id = ${ws} and j.person_id = d.person_id and j.kind = 'left')
    on conflict do nothing`);
  await confirmAgreeingDepartures(tx, ws);
  return { raised: raised.rowCount ?? 0, cleared: cleared.rowCount ?? 0 };
}

/**
 * A probable departure becomes certain when a second source agrees: a move away from the same company
 * (a LinkedIn export, an import, an admin, or the mail showing them at a new company's address), of the
 * same person or of a person of the same name, not dismissed. Returns how many were confirmed.
 */
export async function confirmAgreeingDepartures(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  const nameKey = (alias: string) =>
    sql`lower(regexp_replace(btrim(${sql.identifier(alias)}.full_name), '\\s+', ' ', 'g'))`;
  // Each side's company and name keys are computed once, and a departure meets the moves from its company
  // by two equalities (the company's id, or its name's key), each a hash join: one join on 'either' made
  // PostgreSQL compare every departure with every move, keys computed anew each time (140 s for 473
  // departures and 33,000 moves at 1M people, 2026-11-26).
  const confirmed = await tx.execute<DepartureRow>(sql`
    with departures as materialized (
      select j.id, j.person_id, j.past_company_id, company_key(j.past_company_name) as company, ${nameKey('jp')} as name
        from job_changes j
        join people jp on jp.workspace_id = ${ws} and jp.id = j.person_id
       where j.workspace_id = ${ws} and j.kind = 'left' and j.status = 'detected'
    ),
    moves as materialized (
      select c.id, c.person_id, c.source, c.confidence, c.created_at, c.past_company_id,
             company_key(c.past_company_name) as company
        from job_changes c
       where c.workspace_id = ${ws} and c.kind = 'moved' and c.status <> 'dismissed'
         -- No key to compute when no departure waits, which is most times.
         and exists (select 1 from departures)
    ),
    from_same_company as (
      select d.id as departure_id, d.person_id as departed, d.name, m.id, m.person_id, m.source, m.confidence, m.created_at
        from departures d join moves m on m.past_company_id = d.past_company_id
      union
      select d.id, d.person_id, d.name, m.id, m.person_id, m.source, m.confidence, m.created_at
        from departures d join moves m on m.company = d.company
    ),
    agreeing as (
      select distinct on (k.departure_id) k.departure_id as id, k.source, k.id as by_change
        from from_same_company k
        join people cp on cp.workspace_id = ${ws} and cp.id = k.person_id
       where cp.id = k.departed or ${nameKey('cp')} = k.name
       order by k.departure_id, k.confidence = 'certain' desc, k.created_at
    )
    update job_changes j set status = 'confirmed', confidence = 'certain', decided_at = now(),
           evidence = j.evidence || jsonb_build_object('confirmedBy', a.source, 'confirmingChange', a.by_change)
      from agreeing a
     where j.workspace_id = ${ws} and j.id = a.id
    returning j.person_id, j.past_company_id, j.changed_on::text as changed_on`);
  for (const departure of confirmed.rows) await leaveCompany(tx, ws, departure);
  return confirmed.rows.length;
}

export type DepartureRow = { person_id: string; past_company_id: string | null; changed_on: string };

/**
 * A confirmed departure is true: the employment at the company ends (by the bounce, at the latest) and,
 * unless they are known elsewhere already, the person has no current company; rolled up again.
 */
export async function leaveCompany(tx: Tx, ws: string, departure: DepartureRow) {
  if (!departure.past_company_id) return;
  const { person_id: personId, past_company_id: companyId, changed_on: changedOn } = departure;
  await tx.execute(sql`
    update employments set ended_on = greatest(${changedOn}::date, coalesce(started_on, ${changedOn}::date))
     where workspace_id = ${ws} and person_id = ${personId} and company_id = ${companyId} and ended_on is null`);
  await tx.execute(sql`
    update people set company_id = null, updated_at = now()
     where workspace_id = ${ws} and id = ${personId} and company_id = ${companyId}`);
  await markDirty(tx, ws, onePerson(personId));
}

/**
 * Whether a person left their company for good (a departure or a move confirmed; the old record of one
 * who now writes from a new address has no company): mail from their old address, read again, must not
 * put them back at it. `person` is a column of people.
 */
export const leftTheirCompany = (person: string) => sql`exists (
  select 1 from job_changes j
   where j.workspace_id = ${sql.identifier(person)}.workspace_id and j.person_id = ${sql.identifier(person)}.id
     and j.status = 'confirmed')`;

/**
 * Whether a person left this company for good (a departure or a move away from it, confirmed): an
 * address there no longer places them there. A move confirmed *to* it does not count: that is where they
 * are now. `person` is a column of people; `company` an expression of a company id.
 */
export const leftCompany = (person: string, company: SQL) => sql`exists (
  select 1 from job_changes j
   where j.workspace_id = ${sql.identifier(person)}.workspace_id and j.person_id = ${sql.identifier(person)}.id
     and j.status = 'confirmed' and j.past_company_id = ${company})`;
