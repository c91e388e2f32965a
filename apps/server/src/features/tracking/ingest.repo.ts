import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.ts';
import { markDirty, peopleWithIds } from '../../graph/dirty.ts';
import { upsertPeopleByEmail } from '../../graph/evidence.repo.ts';

/** An event as it is stored: the page's path only, a time the server trusts, a verified identity. */
export type TrackedEvent =
  | {
      type: 'page';
      anonymousId: string;
      path: string;
      referrer: string | null;
      /** The person a valid link token from our e-mails names, in this workspace. */
      personId: string | null;
      occurredAt: Date;
    }
  | { type: 'identify'; anonymousId: string; email: string; occurredAt: Date };

const param = <T>(values: T[]) => sql.param(values);

/** The site of a tracking key (a global table: the key is all the public endpoint knows), or null. */
export async function findTrackingSite(database: Database, key: string) {
  const found = await database.db.execute<{ workspace_id: string; origins: string[] }>(
    sql`select workspace_id, origins from tracking_sites where key = ${key}`,
  );
  const row = found.rows[0];
  return row ? { workspaceId: row.workspace_id, origins: row.origins } : null;
}

/** Whether any workspace's site sends from this origin (`https://www.acme.com`). */
export async function isTrackedOrigin(database: Database, origin: string) {
  // Written as the admin typed it: a trailing slash or capitals name the same origin.
  const found = await database.db.execute(sql`
    select 1 from tracking_sites s
     where exists (select 1 from unnest(s.origins) o where rtrim(lower(o), '/') = ${origin})
     limit 1`);
  return found.rows.length > 0;
}

/**
 * Stores one workspace's events in a handful of statements whatever their number: identifications
 * first (people created by e-mail, browsers mapped to them, their earlier anonymous events attached),
 * then every page view in one insert that takes its person from the browser's mapping. The people
 * whose visits changed are marked for the graph in the same transaction. Returns those people.
 */
export async function writeTrackedEvents(tx: Tx, workspaceId: string, events: readonly TrackedEvent[]) {
  const people = new Set<string>();

  // The last identity of each browser in this batch wins (a later identify is the newer truth).
  const identities = new Map<string, { personId: string | null; email: string | null }>();
  for (const event of events) {
    if (event.type === 'identify') identities.set(event.anonymousId, { personId: null, email: event.email });
    else if (event.personId) identities.set(event.anonymousId, { personId: event.personId, email: null });
  }
  if (identities.size > 0) {
    const emails = [...new Set([...identities.values()].flatMap((identity) => identity.email ?? []))];
    await upsertPeopleByEmail(
      tx,
      workspaceId,
      emails.map((email) => ({ email, name: null })),
    );
    // In browser order, so two batches mapping the same browsers lock their rows in the same order.
    const browsers = [...identities.keys()].sort();
    const mapped = await tx.execute<{ anonymous_id: string; person_id: string }>(sql`
      with input as (
        select * from unnest(
          ${param(browsers)}::text[],
          ${param(browsers.map((id) => identities.get(id)?.personId ?? null))}::uuid[],
          ${param(browsers.map((id) => identities.get(id)?.email ?? null))}::text[]
        ) as i(anonymous_id, person_id, email)
      ), resolved as (
        -- A token's person only if they still exist; an e-mail's person was just made sure of.
        select i.anonymous_id, p.id as person_id
          from input i join people p on p.workspace_id = ${workspaceId} and p.id = i.person_id
        union all
        select i.anonymous_id, p.id
          from input i join people p on p.workspace_id = ${workspaceId} and p.email = i.email
      )
      insert into website_visitors (workspace_id, anonymous_id, person_id)
      select ${workspaceId}::uuid, anonymous_id, person_id from resolved order by anonymous_id
      on conflict (workspace_id, anonymous_id) do update
         set person_id = excluded.person_id, identified_at = now()
      returning anonymous_id, person_id`);
    if (mapped.rows.length > 0) {
      // What the browser viewed before it said who it is is theirs too.
      await tx.execute(sql`
        update website_events e
           set person_id = v.person_id, company_id = p.company_id
          from website_visitors v
          join people p on p.workspace_id = v.workspace_id and p.id = v.person_id
         where v.workspace_id = ${workspaceId}
           and v.anonymous_id = any(${param(mapped.rows.map((row) => row.anonymous_id))}::text[])
           and e.workspace_id = ${workspaceId} and e.anonymous_id = v.anonymous_id and e.person_id is null`);
      for (const row of mapped.rows) people.add(row.person_id);
    }
  }

  const pages = events.filter((event) => event.type === 'page');
  let stored = 0;
  if (pages.length > 0) {
    const inserted = await tx.execute<{ person_id: string | null; views: number }>(sql`
      with input as (
        select * from unnest(
          ${param(pages.map((page) => page.anonymousId))}::text[],
          ${param(pages.map((page) => page.path))}::text[],
          ${param(pages.map((page) => page.referrer))}::text[],
          ${param(pages.map((page) => page.occurredAt.toISOString()))}::timestamptz[]
        ) as i(anonymous_id, path, referrer, occurred_at)
      ), inserted as (
        insert into website_events (workspace_id, person_id, company_id, anonymous_id, path, referrer, occurred_at)
        select ${workspaceId}::uuid, p.id, p.company_id, i.anonymous_id, i.path, i.referrer, i.occurred_at
          from input i
          left join website_visitors v on v.workspace_id = ${workspaceId} and v.anonymous_id = i.anonymous_id
          left join people p on p.workspace_id = ${workspaceId} and p.id = v.person_id
        returning person_id
      )
      select person_id, count(*)::int as views from inserted group by person_id`);
    for (const row of inserted.rows) {
      stored += row.views;
      if (row.person_id) people.add(row.person_id);
    }
  }

  if (people.size > 0) await markDirty(tx, workspaceId, peopleWithIds([...people]));
  return { stored, people: [...people] };
}

/**
 * Deletes up to `limit` page views older than `days` that count for nobody: no person was ever
 * identified for them (a company alone counts for nobody, see graph/recompute.ts). Returns how many went.
 */
export async function deleteAnonymousVisits(tx: Tx, workspaceId: string, days: number, limit: number) {
  const deleted = await tx.execute(sql`
    delete from website_events
     where workspace_id = ${workspaceId}
       and id in (select id from website_events
                   where workspace_id = ${workspaceId} and person_id is null
                     and occurred_at < now() - make_interval(days => ${days})
                   limit ${limit})`);
  return deleted.rowCount ?? 0;
}
