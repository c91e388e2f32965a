import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { freeEmailDomainList } from '../lib/free-email-domains.ts';
import { leftCompany } from './departures.ts';
import { markDirty, peopleWithIds } from './dirty.ts';
import { connectorsCte, membersCte } from './graph.sql.ts';

/**
 * Current stints the addresses prove: a person who writes or is written to at a company's own domain
 * works there now, even when no export or import ever said so (most prospects are known from mail
 * only). Without that stint nobody's overlap with them can be found: a past client who moved to their
 * company (`isConnectorClient`) would have no colleague there. Each such person with no employment at
 * that company gets one (source 'mail', start unknown, seen from their first mail), once: a rerun finds
 * them employed and adds nothing. Free mailboxes prove nothing (lib/free-email-domains.ts); someone who
 * left that company (a confirmed change or departure) is not put back, while one who moved there is placed. Returns how many stints were added.
 *
 * Cheap at 1M people after the first run: one pass over people with an index probe each, and the
 * first-mail lookup only for the few people new since the last run.
 */
export async function deriveMailEmployments(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  const result = await tx.execute<{ added: number; reached: string[] }>(sql`
    with ${membersCte(ws)}, ${connectorsCte(ws)},
    unplaced as materialized (
      -- The people the address places at a company they have no employment at: all of them on the first
      -- run, the few new since on the next ones. Materialized so the first-mail lookup below runs for
      -- these only, whatever the planner believes of the tables a sync has just filled.
      select p.id as person_id, p.company_id, p.created_at
        from people p
        -- The company is the address's own: a company an import named for them is not what the mail proves.
        join companies co on co.workspace_id = ${ws} and co.id = p.company_id
                         and co.domain = split_part(p.email, '@', 2)
       where p.workspace_id = ${ws} and p.email is not null
         and not (co.domain = any(${sql.param(freeEmailDomainList())}::text[]))
         and not exists (select 1 from employments e
                          where e.workspace_id = ${ws} and e.person_id = p.id and e.company_id = p.company_id)
         and not ${leftCompany('p', sql`p.company_id`)}
    ),
    stints as (
      -- Seen there from their first mail at the address; a person named only in an address book was first
      -- seen when recorded.
      select u.person_id, u.company_id, coalesce(first_mail.at, u.created_at) as seen_at
        from unplaced u
        left join lateral (
          select min(i.occurred_at) as at from interaction_participants ip
            join interactions i on i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
           where ip.workspace_id = ${ws} and ip.person_id = u.person_id and i.kind = 'mail'
        ) first_mail on true
    ),
    added as (
      insert into employments (workspace_id, person_id, company_id, source, started_on, seen_at)
      select ${ws}::uuid, person_id, company_id, 'mail', null, seen_at from stints
      returning person_id, company_id
    ),
    -- The companies where a connector works, this statement's new stints included (a past client known at
    -- the new address by mail only): only the people there have new colleagues-in-time to find.
    connector_companies as (
      select ce.company_id from connectors c join employments ce on ce.workspace_id = ${ws} and ce.person_id = c.person_id
      union
      select a.company_id from added a join connectors c on c.person_id = a.person_id
    )
    -- Only the people an edge can follow for are returned and marked for the graph job: at 1M people,
    -- the first run adds a stint to most of them, and rolling all of them up again would be a full
    -- recompute for nothing.
    select (select count(*) from added)::int as added,
           array(select a.person_id from added a where a.company_id in (select company_id from connector_companies)) as reached`);
  const row = result.rows[0];
  if (row && row.reached.length > 0) await markDirty(tx, ws, peopleWithIds(row.reached));
  return row?.added ?? 0;
}
