import { createHash } from 'node:crypto';
import type { TUpdatePrivacy } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { markDirty, peopleWithIds } from '../../graph/dirty.ts';

type PrivacyRow = {
  sharing_level: TUpdatePrivacy['sharingLevel'];
  accepts_intros: boolean;
  weekly_intro_cap: number | null;
};

export async function findPrivacy(tx: Tx, workspaceId: string, userId: string) {
  const result = await tx.execute<PrivacyRow>(sql`
    select sharing_level, accepts_intros, weekly_intro_cap from users
     where workspace_id = ${workspaceId} and id = ${userId}`);
  return result.rows[0] ?? null;
}

/** Saves the settings; returns the sharing level they replace. */
export async function savePrivacy(tx: Tx, workspaceId: string, userId: string, input: TUpdatePrivacy) {
  const result = await tx.execute<{ before: PrivacyRow['sharing_level'] }>(sql`
    update users u set sharing_level = ${input.sharingLevel}, accepts_intros = ${input.acceptsIntros},
                       weekly_intro_cap = ${input.weeklyIntroCap}
      from (select sharing_level from users where workspace_id = ${workspaceId} and id = ${userId} for update) old
     where u.workspace_id = ${workspaceId} and u.id = ${userId}
    returning old.sharing_level as before`);
  return result.rows[0]?.before ?? null;
}

/**
 * Everyone the member's edges reach, and the member: a changed sharing level changes what their rows
 * say (a prospect only a newly private member knew leaves the network). Allies among them carry the
 * change to the rows of everyone the ally knows (the recompute's trust step).
 */
export async function markMemberReachDirty(tx: Tx, workspaceId: string, userId: string) {
  await markDirty(
    tx,
    workspaceId,
    sql`select e.prospect_id from edges e
          join users u on u.workspace_id = e.workspace_id and u.person_id = e.connector_id
         where e.workspace_id = ${workspaceId} and u.id = ${userId}`,
  );
}

export async function blocklistEntries(tx: Tx, workspaceId: string, userId: string) {
  const result = await tx.execute<{ entry: string }>(sql`
    select entry from privacy_blocklist where workspace_id = ${workspaceId} and user_id = ${userId} order by entry`);
  return result.rows.map((row) => row.entry);
}

export async function insertBlocklistEntry(tx: Tx, workspaceId: string, userId: string, entry: string) {
  await tx.execute(sql`
    insert into privacy_blocklist (workspace_id, user_id, entry) values (${workspaceId}, ${userId}, ${entry})
    on conflict do nothing`);
}

export async function deleteBlocklistEntry(tx: Tx, workspaceId: string, userId: string, entry: string) {
  await tx.execute(sql`
    delete from privacy_blocklist where workspace_id = ${workspaceId} and user_id = ${userId} and entry = ${entry}`);
}

/** An address as `mail_correspondents` keeps it: never in clear. */
export const addressHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/** Whether an e-mail column is the entry's address or at its domain (or a subdomain of it). */
const matchesEntry = (email: SQL, entry: string) =>
  entry.includes('@')
    ? sql`${email} = ${entry}`
    : sql`(split_part(${email}, '@', 2) = ${entry} or split_part(${email}, '@', 2) like ${`%.${entry}`})`;

/**
 * Erases what was kept from the member's accounts about a blocked address or domain: their place in the
 * member's mail and meetings, the member's address book entries and LinkedIn connections of them, and
 * the member's record of corresponding with them. Their edges through the member follow at the next
 * recompute (they are marked). Returns how many people it concerned.
 */
export async function eraseBlockedEvidence(tx: Tx, workspaceId: string, userId: string, entry: string) {
  const ws = workspaceId;
  const erased = await tx.execute<{ person_id: string }>(sql`
    with blocked as (
      select id from people where workspace_id = ${ws} and email is not null and ${matchesEntry(sql`email`, entry)}
    ),
    participations as (
      delete from interaction_participants ip using interactions i
       where ip.workspace_id = ${ws} and i.workspace_id = ${ws} and i.id = ip.interaction_id
         and i.source_user_id = ${userId} and ip.person_id in (select id from blocked)
      returning ip.person_id
    ),
    address_book as (
      delete from address_book_entries
       where workspace_id = ${ws} and user_id = ${userId} and person_id in (select id from blocked)
      returning person_id
    ),
    linkedin as (
      delete from linkedin_connections
       where workspace_id = ${ws} and user_id = ${userId} and person_id in (select id from blocked)
      returning person_id
    )
    select person_id from participations union select person_id from address_book union select person_id from linkedin`);
  await tx.execute(sql`
    delete from mail_correspondents
     where workspace_id = ${ws} and user_id = ${userId}
       and ${
         entry.includes('@')
           ? sql`address_hash = ${addressHash(entry)}`
           : sql`(domain = ${entry} or domain like ${`%.${entry}`})`
       }`);
  const people = erased.rows.map((row) => row.person_id);
  if (people.length > 0) await markDirty(tx, ws, peopleWithIds(people));
  return people.length;
}

/**
 * Records who wrote to the member and whom the member wrote to, and returns the addresses among
 * `emails` a person may be created for: already a person, or in a two-way exchange with the member.
 */
export async function recordCorrespondence(
  tx: Tx,
  workspaceId: string,
  userId: string,
  input: { wrote: readonly string[]; written: readonly string[]; emails: readonly string[] },
) {
  const ws = workspaceId;
  const rows = new Map<string, { domain: string; wrote: boolean; written: boolean }>();
  const note = (email: string, side: 'wrote' | 'written') => {
    const row = rows.get(email) ?? { domain: email.slice(email.lastIndexOf('@') + 1), wrote: false, written: false };
    row[side] = true;
    rows.set(email, row);
  };
  for (const email of input.wrote) note(email, 'wrote');
  for (const email of input.written) note(email, 'written');
  const emails = [...rows.keys()];
  if (emails.length > 0) {
    await tx.execute(sql`
      insert into mail_correspondents as c (workspace_id, user_id, address_hash, domain, wrote, written)
      select ${ws}::uuid, ${userId}::uuid, i.hash, i.domain, i.wrote, i.written
        from unnest(${sql.param(emails.map(addressHash))}::text[], ${sql.param(emails.map((email) => rows.get(email)?.domain ?? ''))}::text[],
                    ${sql.param(emails.map((email) => rows.get(email)?.wrote ?? false))}::bool[],
                    ${sql.param(emails.map((email) => rows.get(email)?.written ?? false))}::bool[]) as i(hash, domain, wrote, written)
      on conflict (workspace_id, user_id, address_hash) do update
         set wrote = c.wrote or excluded.wrote, written = c.written or excluded.written
       where (excluded.wrote and not c.wrote) or (excluded.written and not c.written)`);
  }
  if (input.emails.length === 0) return new Set<string>();
  const hashes = input.emails.map(addressHash);
  const allowed = await tx.execute<{ email: string }>(sql`
    select i.email from unnest(${sql.param([...input.emails])}::text[], ${sql.param(hashes)}::text[]) as i(email, hash)
     where exists (select 1 from people p where p.workspace_id = ${ws} and p.email = i.email)
        or exists (select 1 from mail_correspondents c
                    where c.workspace_id = ${ws} and c.user_id = ${userId} and c.address_hash = i.hash and c.wrote and c.written)`);
  return new Set(allowed.rows.map((row) => row.email));
}

/** What a mail sync needs to know of the member and the workspace to screen its evidence. */
export async function screeningContext(tx: Tx, workspaceId: string, userId: string) {
  const result = await tx.execute<{ email: string; domains: string[]; members: string[] }>(sql`
    select lower(u.email) as email,
           coalesce((select w.domains from workspaces w where w.id = ${workspaceId}), '{}'::text[]) as domains,
           array(select lower(m.email) from users m where m.workspace_id = ${workspaceId}) as members
      from users u where u.workspace_id = ${workspaceId} and u.id = ${userId}`);
  return result.rows[0] ?? null;
}

/** Members' own limits as connectors, by their person id: who takes no intro requests, whose cap differs. */
export async function connectorLimits(tx: Tx, workspaceId: string) {
  const result = await tx.execute<{ person_id: string; accepts_intros: boolean; weekly_intro_cap: number | null }>(sql`
    select u.person_id, u.accepts_intros, u.weekly_intro_cap
      from users u
     where u.workspace_id = ${workspaceId} and u.person_id is not null
       and (not u.accepts_intros or u.weekly_intro_cap is not null)`);
  return new Map(
    result.rows.map((row) => [row.person_id, { acceptsIntros: row.accepts_intros, cap: row.weekly_intro_cap }]),
  );
}

/**
 * Withdraws the open intro asks naming the member as the connector (recommended to a teammate, not acted
 * on): a member who went private or takes no intro requests is not offered as one. The next run
 * recommends those prospects again through whoever may be asked.
 */
export async function withdrawOpenAsksOf(tx: Tx, workspaceId: string, userId: string) {
  await tx.execute(sql`
    delete from actions a
     using users u
     where a.workspace_id = ${workspaceId} and u.workspace_id = ${workspaceId} and u.id = ${userId}
       and a.connector_id = u.person_id and a.type = 'ask-intro' and a.status in ('recommended', 'pending')
       and a.acted_at is null and a.owner_user_id is distinct from ${userId}::uuid`);
}
