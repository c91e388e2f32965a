import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';

/** One person, as the people a mark takes. */
export const onePerson = (personId: string) => sql`select ${personId}::uuid`;

/** A list of people's ids, as the people a mark (or a deletion) takes: one parameter, whatever its length. */
export const peopleWithIds = (personIds: readonly string[]) => sql`select unnest(${sql.param(personIds)}::uuid[])`;

/**
 * Marks people whose evidence changed, in the same transaction as the evidence itself: accepted
 * evidence can never miss its recompute, whatever happens to the process afterwards.
 */
export async function markDirty(tx: Tx, workspaceId: string, people: SQL) {
  // In person order, as `clearDirty` locks them: two writers marking overlapping people (a sync's page
  // and a removed member's neighbourhood) then queue behind each other instead of deadlocking.
  await tx.execute(sql`
    insert into graph_dirty (workspace_id, person_id)
    select ${workspaceId}::uuid, dirty.id from (select distinct id from (${people}) as marked(id)) as dirty(id)
     order by dirty.id
    on conflict (workspace_id, person_id) do update set marked_at = now()`);
}

/** Everyone the people of a `seed` query reach: in their meetings and mail, their LinkedIn connections, their colleagues past and present. */
const reachedFromSeed = (workspaceId: string) => sql`
    select other.person_id
      from interaction_participants mine
      -- Per interaction of the seed, one lookup on the primary key, whatever the statistics say: right
      -- after a sync they may not know its rows yet, and a plan joining the workspace's participants with
      -- themselves held a removed member's transaction for 35 s.
      cross join lateral (
        select o.person_id from interaction_participants o
         where o.workspace_id = mine.workspace_id and o.interaction_id = mine.interaction_id offset 0
      ) other
     where mine.workspace_id = ${workspaceId} and mine.person_id in (select id from seed)
    union
    select lc.person_id
      from linkedin_connections lc
      join users u on u.workspace_id = lc.workspace_id and u.id = lc.user_id
     where lc.workspace_id = ${workspaceId} and u.person_id in (select id from seed)
    union
    select theirs.person_id
      from employments mine
      join employments theirs on theirs.workspace_id = mine.workspace_id and theirs.company_id = mine.company_id
     where mine.workspace_id = ${workspaceId} and mine.person_id in (select id from seed)`;

/** The people the evidence of `personIds` reaches, themselves left out. */
export const neighbourhoodOf = (workspaceId: string, personIds: SQL) =>
  sql`with seed as (select id from (${personIds}) as s(id)) ${reachedFromSeed(workspaceId)}`;

/**
 * A person who became (or stopped being) a connector, a new member or a mapped ally, changes the
 * edges of everyone their evidence reaches, and their own.
 */
export async function markNeighbourhoodDirty(tx: Tx, workspaceId: string, personIds: SQL) {
  await markDirty(
    tx,
    workspaceId,
    sql`with seed as (select id from (${personIds}) as s(id)) select id from seed union ${reachedFromSeed(workspaceId)}`,
  );
}
