import type { TAllyMatch } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { markDirty } from '../../graph/dirty.ts';
import { isErased } from '../../graph/erased.ts';

export type AllyRow = { clientId: string; personId: string; fullName: string; email: string | null };

/** A mapped ally (a client the team maps the network of), with their address. */
export async function findMappedAlly(tx: Tx, workspaceId: string, clientId: string): Promise<AllyRow | null> {
  const { rows } = await tx.execute<{ id: string; person_id: string; full_name: string; email: string | null }>(sql`
    select c.id, c.person_id, coalesce(nullif(trim(concat_ws(' ', c.first_name, c.last_name)), ''), p.full_name) as full_name,
           p.email
      from clients c join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
     where c.workspace_id = ${workspaceId} and c.id = ${clientId} and c.map_network`);
  const row = rows[0];
  return row ? { clientId: row.id, personId: row.person_id, fullName: row.full_name, email: row.email } : null;
}

export async function insertShare(
  tx: Tx,
  workspaceId: string,
  share: { clientId: string; sentByUserId: string; sentTo: string; expiresAt: Date },
): Promise<string> {
  const { rows } = await tx.execute<{ id: string }>(sql`
    insert into ally_shares (workspace_id, client_id, sent_by_user_id, sent_to, expires_at)
    values (${workspaceId}, ${share.clientId}, ${share.sentByUserId}, ${share.sentTo}, ${share.expiresAt.toISOString()})
    returning id`);
  const id = rows[0]?.id;
  if (!id) throw new Error('the share was not written');
  return id;
}

export type ShareRow = {
  id: string;
  clientId: string;
  allyPersonId: string;
  allyName: string;
  /** The address the link was sent to: the Google account the consent suggests. */
  sentTo: string;
  workspaceName: string;
  senderName: string;
  expiresAt: string;
  confirmedAt: string | null;
  withdrawnAt: string | null;
};

/** A share link's row, with what its page names: the workspace, the ally and who sent it. */
export async function findShare(tx: Tx, workspaceId: string, shareId: string): Promise<ShareRow | null> {
  const { rows } = await tx.execute<{
    id: string;
    client_id: string;
    person_id: string | null;
    ally_name: string | null;
    sent_to: string;
    workspace_name: string;
    sender_name: string | null;
    expires_at: Date | string;
    confirmed_at: Date | string | null;
    withdrawn_at: Date | string | null;
  }>(sql`
    select s.id, s.client_id, c.person_id,
           coalesce(nullif(trim(concat_ws(' ', c.first_name, c.last_name)), ''), p.full_name) as ally_name,
           s.sent_to, w.name as workspace_name,
           nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') as sender_name,
           s.expires_at, s.confirmed_at, s.withdrawn_at
      from ally_shares s
      join workspaces w on w.id = s.workspace_id
      left join clients c on c.workspace_id = s.workspace_id and c.id = s.client_id
      left join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
      left join users u on u.workspace_id = s.workspace_id and u.id = s.sent_by_user_id
     where s.workspace_id = ${workspaceId} and s.id = ${shareId}`);
  const row = rows[0];
  // An ally deleted since: the link leads nowhere.
  if (!row?.person_id) return null;
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  return {
    id: row.id,
    clientId: row.client_id,
    allyPersonId: row.person_id,
    allyName: row.ally_name ?? '',
    sentTo: row.sent_to,
    workspaceName: row.workspace_name,
    senderName: row.sender_name ?? 'A member',
    expiresAt: new Date(row.expires_at).toISOString(),
    confirmedAt: iso(row.confirmed_at),
    withdrawnAt: iso(row.withdrawn_at),
  };
}

const inputOf = (rows: readonly TAllyMatch[]) => sql`
  select * from unnest(
    ${sql.param(rows.map((row) => row.fullName))}::text[],
    ${sql.param(rows.map((row) => row.profileUrl))}::text[],
    ${sql.param(rows.map((row) => row.email?.toLowerCase() ?? null))}::text[],
    ${sql.param(rows.map((row) => row.company))}::text[],
    ${sql.param(rows.map((row) => row.position))}::text[]
  ) as input(full_name, profile_url, email, company, position)`;

/**
 * The workspace's account (target company) a connection works at: by the company name they gave (the
 * company key), else by the domain of their e-mail address (a Google contact or correspondent).
 */
const accountCompanyOf = (workspaceId: string, company: SQL, email: SQL) => sql`coalesce(
  (select c.id from accounts a join companies c on c.workspace_id = a.workspace_id and c.id = a.company_id
    where a.workspace_id = ${workspaceId} and ${company} is not null and company_key(c.name) = company_key(${company})
    limit 1),
  (select c.id from accounts a join companies c on c.workspace_id = a.workspace_id and c.id = a.company_id
    where a.workspace_id = ${workspaceId} and ${email} is not null and c.domain = split_part(${email}, '@', 2)
    limit 1))`;

/**
 * Of the people an ally knows (their LinkedIn connections, or their Google contacts and correspondents),
 * those at one of the workspace's accounts: by company name or e-mail domain, or a person the workspace
 * already knows at one by their profile or address. Read only: nothing of the input is written.
 */
export async function matchAccounts(tx: Tx, workspaceId: string, rows: readonly TAllyMatch[]): Promise<TAllyMatch[]> {
  if (rows.length === 0) return [];
  const { rows: matched } = await tx.execute<{
    full_name: string;
    profile_url: string | null;
    email: string | null;
    company: string | null;
    position: string | null;
  }>(sql`
    select distinct on (coalesce(input.profile_url, input.email))
           input.full_name, input.profile_url, input.email,
           coalesce(input.company, (select c.name from companies c where c.workspace_id = ${workspaceId} and c.id = m.company_id)) as company,
           input.position
      from (${inputOf(rows)}) input
      cross join lateral (select ${accountCompanyOf(workspaceId, sql`input.company`, sql`input.email`)} as company_id) m
     where coalesce(input.profile_url, input.email) is not null
       and not ${isErased(workspaceId, sql`input.profile_url`)} and not ${isErased(workspaceId, sql`input.email`)}
       and (m.company_id is not null
            or exists (select 1 from people p join accounts a on a.workspace_id = p.workspace_id and a.company_id = p.company_id
                        where p.workspace_id = ${workspaceId} and (p.linkedin_url = input.profile_url or p.email = input.email)))
     order by coalesce(input.profile_url, input.email)`);
  return matched.map((row) => ({
    fullName: row.full_name,
    profileUrl: row.profile_url,
    email: row.email,
    company: row.company,
    position: row.position,
  }));
}

/**
 * Keeps the matches an ally confirmed as their connections: each person found by profile or address, or
 * created at their account's company; the people marked for the recompute.
 */
export async function keepAllyConnections(
  tx: Tx,
  workspaceId: string,
  share: ShareRow,
  matches: readonly TAllyMatch[],
) {
  if (matches.length === 0) return;
  // No conflict target: a person already known by either their profile or their address is kept as is.
  const created = await tx.execute<{ id: string }>(sql`
    insert into people (workspace_id, full_name, linkedin_url, email, title, company_id)
    select ${workspaceId}::uuid, input.full_name, input.profile_url, input.email, input.position,
           ${accountCompanyOf(workspaceId, sql`input.company`, sql`input.email`)}
      from (${inputOf([...matches])}) input
     where not ${isErased(workspaceId, sql`input.profile_url`)} and not ${isErased(workspaceId, sql`input.email`)}
    on conflict do nothing
    returning id`);
  const createdIds = created.rows.map((row) => row.id);
  await tx.execute(sql`
    insert into ally_connections (workspace_id, share_id, client_id, person_id, company, position, created_person)
    select ${workspaceId}::uuid, ${share.id}::uuid, ${share.clientId}::uuid, p.id, input.company, input.position,
           p.id = any(${sql.param(createdIds)}::uuid[])
      from (${inputOf([...matches])}) input
      join people p on p.workspace_id = ${workspaceId} and (p.linkedin_url = input.profile_url or p.email = input.email)
    on conflict do nothing`);
  await markDirty(
    tx,
    workspaceId,
    sql`select person_id from ally_connections where workspace_id = ${workspaceId} and share_id = ${share.id}`,
  );
  await tx.execute(sql`
    update ally_shares set confirmed_at = now(), withdrawn_at = null where workspace_id = ${workspaceId} and id = ${share.id}`);
}

/** What an ally shared: through one link, or through all of an ally's links. */
export async function findSharedConnections(
  tx: Tx,
  workspaceId: string,
  by: { shareId: string } | { clientId: string },
): Promise<TAllyMatch[]> {
  const filter = 'shareId' in by ? sql`ac.share_id = ${by.shareId}` : sql`ac.client_id = ${by.clientId}`;
  const { rows } = await tx.execute<{
    full_name: string;
    linkedin_url: string | null;
    email: string | null;
    company: string | null;
    position: string | null;
  }>(sql`
    select distinct on (p.id) p.full_name, p.linkedin_url, p.email, ac.company, ac.position
      from ally_connections ac join people p on p.workspace_id = ac.workspace_id and p.id = ac.person_id
     where ac.workspace_id = ${workspaceId} and ${filter}
     order by p.id`);
  return rows
    .map((row) => ({
      fullName: row.full_name,
      profileUrl: row.linkedin_url,
      email: row.email,
      company: row.company,
      position: row.position,
    }))
    .sort((a, b) => a.fullName.localeCompare(b.fullName));
}

/**
 * Withdraws everything shared through a link: its connections, and the people created for it whom
 * nothing else names. They are marked for the recompute first, which then removes their network rows.
 */
export async function withdrawShare(tx: Tx, workspaceId: string, shareId: string) {
  const shared = sql`select person_id from ally_connections where workspace_id = ${workspaceId} and share_id = ${shareId}`;
  await markDirty(tx, workspaceId, shared);
  const { rows } = await tx.execute<{ person_id: string }>(sql`
    delete from ally_connections where workspace_id = ${workspaceId} and share_id = ${shareId} and created_person
    returning person_id`);
  await tx.execute(sql`delete from ally_connections where workspace_id = ${workspaceId} and share_id = ${shareId}`);
  const created = rows.map((row) => row.person_id);
  if (created.length > 0) {
    await tx.execute(sql`
      delete from people p
       where p.workspace_id = ${workspaceId} and p.id = any(${sql.param(created)}::uuid[])
         and not exists (select 1 from ally_connections o where o.workspace_id = p.workspace_id and o.person_id = p.id)
         and not exists (select 1 from interaction_participants o where o.workspace_id = p.workspace_id and o.person_id = p.id)
         and not exists (select 1 from linkedin_connections o where o.workspace_id = p.workspace_id and o.person_id = p.id)
         and not exists (select 1 from address_book_entries o where o.workspace_id = p.workspace_id and o.person_id = p.id)
         and not exists (select 1 from clients o where o.workspace_id = p.workspace_id and o.person_id = p.id)
         and not exists (select 1 from actions o where o.workspace_id = p.workspace_id and o.prospect_id = p.id)`);
    await tx.execute(sql`
      delete from edges e where e.workspace_id = ${workspaceId} and e.prospect_id = any(${sql.param(created)}::uuid[])
         and not exists (select 1 from people p where p.workspace_id = e.workspace_id and p.id = e.prospect_id)`);
  }
  await tx.execute(
    sql`update ally_shares set withdrawn_at = now() where workspace_id = ${workspaceId} and id = ${shareId}`,
  );
}

/** Holds an ally's Google matches (only people at the accounts) until their page reads them, once. */
export async function holdGoogleMatches(
  tx: Tx,
  workspaceId: string,
  held: { shareId: string; matches: readonly TAllyMatch[]; scanned: number; expiresAt: Date },
): Promise<string> {
  await purgeExpiredGoogleMatches(tx, workspaceId);
  const { rows } = await tx.execute<{ id: string }>(sql`
    insert into ally_google_matches (workspace_id, share_id, matches, scanned, expires_at)
    values (${workspaceId}, ${held.shareId}, ${JSON.stringify(held.matches)}::jsonb, ${held.scanned}, ${held.expiresAt.toISOString()})
    returning id`);
  const id = rows[0]?.id;
  if (!id) throw new Error('the matches were not held');
  return id;
}

/** An ally's held Google matches, deleted as they are read; null when read already, expired or another share's. */
export async function takeGoogleMatches(
  tx: Tx,
  workspaceId: string,
  shareId: string,
  ref: string,
): Promise<{ matches: unknown; scanned: number } | null> {
  const { rows } = await tx.execute<{
    matches: unknown;
    scanned: number;
    expires_at: Date | string;
    taken: boolean;
  }>(sql`
    delete from ally_google_matches
     where workspace_id = ${workspaceId} and (expires_at < now() or (id = ${ref} and share_id = ${shareId}))
    returning matches, scanned, expires_at, id = ${ref} as taken`);
  const row = rows.find((candidate) => candidate.taken);
  return row && new Date(row.expires_at).getTime() > Date.now() ? { matches: row.matches, scanned: row.scanned } : null;
}

/** Held Google matches whose page never read them: gone once expired, by the next hold or the nightly purge. */
export async function purgeExpiredGoogleMatches(tx: Tx, workspaceId: string): Promise<number> {
  const result = await tx.execute(
    sql`delete from ally_google_matches where workspace_id = ${workspaceId} and expires_at < now()`,
  );
  return result.rowCount ?? 0;
}
