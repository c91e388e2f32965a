import { type SQL, sql } from 'drizzle-orm';
import { sequentially, type Tx } from '../../db/client.ts';
import { markNeighbourhoodDirty, onePerson, peopleWithIds } from '../../graph/dirty.ts';
import { erasureKey } from '../../graph/erased.ts';
import { membersCte } from '../../graph/graph.sql.ts';

// What the workspace holds about one person (GDPR articles 15 and 17): read for an export, removed
// for an erasure. Every table that names a person is listed here, in one place.

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export type PersonIdentity = {
  id: string;
  fullName: string;
  email: string | null;
  linkedinUrl: string | null;
  phone: string | null;
  title: string | null;
  company: string | null;
  isMember: boolean;
};

export async function findPersonIdentity(
  tx: Tx,
  workspaceId: string,
  personId: string,
): Promise<PersonIdentity | null> {
  const result = await tx.execute<{
    id: string;
    full_name: string;
    email: string | null;
    linkedin_url: string | null;
    phone: string | null;
    title: string | null;
    company: string | null;
    is_member: boolean;
  }>(sql`
    with ${membersCte(workspaceId)}
    select p.id, p.full_name, p.email, p.linkedin_url, p.phone, p.title, c.name as company,
           exists (select 1 from members m where m.person_id = p.id) as is_member
      from people p
      left join companies c on c.workspace_id = p.workspace_id and c.id = p.company_id
     where p.workspace_id = ${workspaceId} and p.id = ${personId}`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    fullName: row.full_name,
    email: row.email,
    linkedinUrl: row.linkedin_url,
    phone: row.phone,
    title: row.title,
    company: row.company,
    isMember: row.is_member,
  };
}

/** Everything else about the person, each section as the export shows it. */
export async function findPersonRecords(tx: Tx, workspaceId: string, personId: string) {
  // One after another: a transaction's connection runs one statement at a time (pg 9 refuses more).
  const [employments, interactions, edges, signalMask, actions, sources] = await sequentially([
    () =>
      tx.execute<{
        company: string;
        title: string | null;
        started_on: string | null;
        ended_on: string | null;
        source: string;
      }>(sql`
      select c.name as company, e.title, e.started_on::text, e.ended_on::text, e.source
        from employments e join companies c on c.workspace_id = e.workspace_id and c.id = e.company_id
       where e.workspace_id = ${workspaceId} and e.person_id = ${personId}
       order by e.started_on nulls last`),
    () =>
      tx.execute<{
        kind: string;
        occurred_at: Date | string;
        role: string;
        participant_count: number;
        account: string;
      }>(sql`
      select i.kind, i.occurred_at, ip.role, i.participant_count, coalesce(u.email, 'a former member') as account
        from interaction_participants ip
        join interactions i on i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
        left join users u on u.workspace_id = i.workspace_id and u.id = i.source_user_id
       where ip.workspace_id = ${workspaceId} and ip.person_id = ${personId}
       order by i.occurred_at desc`),
    () =>
      tx.execute<{
        connector: string;
        meetings: number;
        mails_sent: number;
        mails_received: number;
        shared_months: number;
        linkedin: boolean;
        last_interaction_at: Date | string | null;
      }>(sql`
      select case when e.prospect_id = ${personId} then cp.full_name else pp.full_name end as connector,
             e.meetings, e.mails_sent, e.mails_received, e.shared_months, e.linkedin, e.last_interaction_at
        from edges e
        join people cp on cp.workspace_id = e.workspace_id and cp.id = e.connector_id
        join people pp on pp.workspace_id = e.workspace_id and pp.id = e.prospect_id
       where e.workspace_id = ${workspaceId} and (e.prospect_id = ${personId} or e.connector_id = ${personId})`),
    () =>
      tx.execute<{ signal_mask: number }>(sql`
      select signal_mask from network_rows where workspace_id = ${workspaceId} and prospect_id = ${personId}`),
    () =>
      tx.execute<{ type: string; status: string; created_at: Date | string }>(sql`
      select type, status, created_at from actions
       where workspace_id = ${workspaceId} and (prospect_id = ${personId} or connector_id = ${personId})
       order by created_at desc`),
    () =>
      tx.execute<{ source: string }>(sql`
      select distinct 'Mail and calendar of ' || coalesce(u.email, 'a former member') as source
        from interaction_participants ip
        join interactions i on i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
        left join users u on u.workspace_id = i.workspace_id and u.id = i.source_user_id
       where ip.workspace_id = ${workspaceId} and ip.person_id = ${personId}
      union
      select 'LinkedIn export of ' || u.email from linkedin_connections lc
        join users u on u.workspace_id = lc.workspace_id and u.id = lc.user_id
       where lc.workspace_id = ${workspaceId} and lc.person_id = ${personId}
      union
      select 'Google contacts of ' || u.email from address_book_entries ab
        join users u on u.workspace_id = ab.workspace_id and u.id = ab.user_id
       where ab.workspace_id = ${workspaceId} and ab.person_id = ${personId}
      union
      select 'Clients and allies list' from clients c where c.workspace_id = ${workspaceId} and c.person_id = ${personId}
      union
      select 'LinkedIn connections shared by an ally' from ally_connections ac
       where ac.workspace_id = ${workspaceId} and ac.person_id = ${personId}
      union
      select 'Employment from ' || e.source from employments e
       where e.workspace_id = ${workspaceId} and e.person_id = ${personId}
      order by 1`),
  ]);
  return {
    employments: employments.rows.map((row) => ({
      company: row.company,
      title: row.title,
      startedOn: row.started_on,
      endedOn: row.ended_on,
      source: row.source,
    })),
    interactions: interactions.rows.map((row) => ({
      kind: row.kind,
      occurredAt: new Date(row.occurred_at).toISOString(),
      role: row.role,
      participants: row.participant_count,
      account: row.account,
    })),
    edges: edges.rows.map((row) => ({
      connector: row.connector,
      meetings: row.meetings,
      mailsSent: row.mails_sent,
      mailsReceived: row.mails_received,
      sharedMonths: row.shared_months,
      linkedin: row.linkedin,
      lastInteractionAt: iso(row.last_interaction_at),
    })),
    signalMask: signalMask.rows[0]?.signal_mask ?? 0,
    actions: actions.rows.map((row) => ({
      type: row.type,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    sources: sources.rows.map((row) => row.source),
  };
}

/**
 * Erases a person: a tombstone for each address and profile URL, then every row about them. Their
 * neighbourhood (and they) are marked for the recompute, which removes their network row and rescores
 * the connectors who knew them; the caller runs it once this commits.
 */
export async function erasePersonData(tx: Tx, workspaceId: string, person: PersonIdentity) {
  await markNeighbourhoodDirty(tx, workspaceId, onePerson(person.id));
  await tx.execute(sql`
    insert into erased_people (workspace_id, key_hash)
    select ${workspaceId}::uuid, ${erasureKey(sql`k.value`)}
      from unnest(${sql.param([person.email, person.linkedinUrl].filter((key) => key !== null))}::text[]) as k(value)
    on conflict do nothing`);
  await deletePeopleData(tx, workspaceId, [person.id]);
}

/**
 * Deletes people with every row about them, without a tombstone: erasure's deletions, and what the
 * scale bench forgets of its earlier windows' imports. Their network rows go with the recompute of the
 * marks the caller made.
 */
export async function deletePeopleData(tx: Tx, workspaceId: string, personIds: readonly string[]) {
  const ids = peopleWithIds(personIds);
  const statements: SQL[] = [
    sql`delete from interaction_participants where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from linkedin_connections where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from ally_connections where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from address_book_entries where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from employments where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from clients where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from job_changes where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from website_visitors where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from recommendation_log where workspace_id = ${workspaceId} and prospect_id in (${ids})`,
    sql`delete from recommendation_log where workspace_id = ${workspaceId} and connector_id in (${ids})`,
    sql`delete from actions where workspace_id = ${workspaceId} and prospect_id in (${ids})`,
    sql`delete from actions where workspace_id = ${workspaceId} and connector_id in (${ids})`,
    sql`delete from workflow_runs where workspace_id = ${workspaceId} and prospect_id in (${ids})`,
    sql`delete from edges where workspace_id = ${workspaceId} and prospect_id in (${ids})`,
    sql`delete from edges where workspace_id = ${workspaceId} and connector_id in (${ids})`,
    sql`delete from allies where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`update website_events set person_id = null where workspace_id = ${workspaceId} and person_id in (${ids})`,
    sql`delete from dead_addresses where workspace_id = ${workspaceId}
           and email in (select email from people where workspace_id = ${workspaceId} and id in (${ids}))`,
  ];
  for (const statement of statements) await tx.execute(statement);
  await tx.execute(sql`delete from people where workspace_id = ${workspaceId} and id in (${ids})`);
}
