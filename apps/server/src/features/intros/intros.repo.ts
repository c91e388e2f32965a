import type { TWarmIntroItem } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { isConnectorClient, membersCte } from '../../graph/graph.sql.ts';

// The SQL of intros. An intro request or a direct message is recorded as a row of `actions`; the
// statements here are the ones only intros make on those rows (a request from the network page, the
// repeat windows, replies, thank-yous). An action's life (lock, close, supersede) is the actions
// feature's, through actions.repo. Every statement runs inside `inWorkspace`.

export type IntroPerson = {
  id: string;
  full_name: string;
  avatar: string | null;
  job_title: string | null;
  company_name: string | null;
  email: string | null;
  user_id: string | null;
  is_ally: boolean;
  owner_user_id: string | null;
};

/** A person as an e-mail reaches them: a colleague by their user's name and address, anyone else by their own. */
export async function findPerson(tx: Tx, workspaceId: string, personId: string) {
  const ws = workspaceId;
  const result = await tx.execute<IntroPerson>(sql`
    with ${membersCte(ws)}
    select p.id, coalesce(u.first_name || ' ' || u.last_name, p.full_name) as full_name,
           coalesce(u.avatar, p.avatar_url) as avatar, p.title as job_title, co.name as company_name,
           coalesce(u.email, p.email) as email, u.id as user_id,
           cl.person_id is not null as is_ally, cl.contact_owner_user_id as owner_user_id
      from people p
      left join members m on m.person_id = p.id
      left join users u on u.workspace_id = p.workspace_id and u.id = m.user_id
      left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
      -- A past client at a new company is asked as an ally is (isConnectorClient).
      left join clients cl on cl.workspace_id = p.workspace_id and cl.person_id = p.id and ${isConnectorClient('cl')}
     where p.workspace_id = ${ws} and p.id = ${personId}`);
  return result.rows[0] ?? null;
}

/** A member as their own person record, named as their user. */
export async function findMember(tx: Tx, workspaceId: string, userId: string) {
  const result = await tx.execute<IntroPerson>(sql`
    with ${membersCte(workspaceId)}
    select m.person_id as id, u.first_name || ' ' || u.last_name as full_name, u.avatar, p.title as job_title,
           co.name as company_name, u.email, u.id as user_id, false as is_ally, null as owner_user_id
      from users u
      join members m on m.user_id = u.id
      join people p on p.workspace_id = u.workspace_id and p.id = m.person_id
      left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
     where u.workspace_id = ${workspaceId} and u.id = ${userId}`);
  return result.rows[0] ?? null;
}

/** Whether the user asked this connector for this intro within the last `hours` (a superseded ask asked nobody). */
export async function introAskedWithin(
  tx: Tx,
  workspaceId: string,
  input: { userId: string; connectorId: string; prospectId: string; hours: number },
) {
  const result = await tx.execute(sql`
    select 1 from actions
     where workspace_id = ${workspaceId} and type = 'ask-intro' and owner_user_id = ${input.userId}
       and connector_id = ${input.connectorId} and prospect_id = ${input.prospectId} and superseded_by is null
       and acted_at > now() - make_interval(hours => ${input.hours})`);
  return result.rows.length > 0;
}

/** Records an intro request sent from the network page as a past action of the user; returns its id. */
export async function insertIntroRequest(
  tx: Tx,
  workspaceId: string,
  input: { userId: string; item: TWarmIntroItem; signals: unknown[]; outboxId: string },
) {
  const { item } = input;
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into actions (workspace_id, type, status, origin, prospect_id, connector_id, source, owner_user_id,
                         recommendation_users, signals, message, intro_target_message, outbox_id, acted_at)
    values (${workspaceId}, 'ask-intro', 'completed', 'network', ${item.prospectContactId},
            ${item.connectorId}, ${item.source}, ${input.userId}, array[${input.userId}]::uuid[],
            ${JSON.stringify(input.signals)}::jsonb, ${item.connectorMessage}, ${item.introTargetMessage},
            ${input.outboxId}, now())
    returning id`);
  const id = inserted.rows[0]?.id;
  if (!id) throw new Error('the warm intro was not recorded');
  return id;
}

/** Whether the user messaged this prospect directly within the last `hours`. */
export async function directMessageSentWithin(
  tx: Tx,
  workspaceId: string,
  input: { userId: string; prospectId: string; hours: number },
) {
  const result = await tx.execute(sql`
    select 1 from actions
     where workspace_id = ${workspaceId} and type = 'DIRECT_MESSAGE' and status = 'completed'
       and owner_user_id = ${input.userId} and prospect_id = ${input.prospectId} and outbox_id is not null
       and acted_at > now() - make_interval(hours => ${input.hours})`);
  return result.rows.length > 0;
}

/** The prospect's and the sender's names, for a direct message. */
export async function directMessageNames(tx: Tx, workspaceId: string, input: { prospectId: string; userId: string }) {
  const names = await tx.execute<{ prospect: string; sender: string }>(sql`
    select p.full_name as prospect, u.first_name || ' ' || u.last_name as sender
      from people p, users u
     where p.workspace_id = ${workspaceId} and p.id = ${input.prospectId}
       and u.workspace_id = ${workspaceId} and u.id = ${input.userId}`);
  return names.rows[0] ?? null;
}

/** Records the thank-you for an intro; returns when. */
export async function markThanked(tx: Tx, workspaceId: string, actionId: string) {
  const result = await tx.execute<{ thanked_at: Date }>(sql`
    update actions set thanked_at = now() where workspace_id = ${workspaceId} and id = ${actionId}
    returning thanked_at`);
  const thankedAt = result.rows[0]?.thanked_at;
  if (!thankedAt) throw new Error(`action ${actionId} vanished while thanking`);
  return new Date(thankedAt);
}

// ---------------------------------------------------------------------------------------------
// Replies

/** A message the Google sync read, as far as replies are concerned. */
export type SyncedMessage = {
  id: string;
  threadId: string | null;
  /** The sender's address, lower-case. */
  from: string;
  /** The In-Reply-To and References headers, as they came. */
  references: string;
  at: Date;
};

export type RepliedAction = {
  id: string;
  type: 'ask-intro' | 'DIRECT_MESSAGE';
  prospect_id: string;
  connector_id: string | null;
  owner_user_id: string | null;
  replied_at: Date;
};

/**
 * Marks the sent actions that got an answer: a message in the sent e-mail's thread, or one that
 * refers to its Message-ID, from anybody but its sender. The sent copy itself, once synced, tells
 * the thread's id. Returns the actions that got their first reply.
 */
export async function recordActionReplies(
  tx: Tx,
  workspaceId: string,
  sender: { userId: string; emails: string[] },
  messages: SyncedMessage[],
): Promise<RepliedAction[]> {
  if (messages.length === 0) return [];
  const ws = workspaceId;
  const column = <T>(pick: (message: SyncedMessage) => T) => sql.param(messages.map(pick));
  const synced = sql`
    unnest(${column((message) => message.id)}::text[], ${column((message) => message.threadId)}::text[],
           ${column((message) => message.from)}::text[], ${column((message) => message.references)}::text[],
           ${column((message) => message.at.toISOString())}::timestamptz[]) as m(id, thread_id, sender, refs, at)`;
  await tx.execute(sql`
    update actions a set thread_id = m.thread_id
      from outbox o, ${synced}
     where a.workspace_id = ${ws} and a.thread_id is null and a.outbox_id is not null
       and o.workspace_id = ${ws} and o.id = a.outbox_id and o.sender_user_id = ${sender.userId}
       and o.gmail_message_id = m.id and m.thread_id is not null`);
  const replied = await tx.execute<RepliedAction>(sql`
    update actions a set replied_at = first.at
      from (
        select a2.id, min(m.at) as at
          from actions a2
          join outbox o on o.workspace_id = a2.workspace_id and o.id = a2.outbox_id
          cross join ${synced}
         where a2.workspace_id = ${ws} and a2.replied_at is null and a2.status = 'completed'
           and o.sender_user_id = ${sender.userId}
           and m.sender <> all(${sql.param(sender.emails)}::text[])
           and m.sender <> (select lower(u.email) from users u where u.workspace_id = ${ws} and u.id = ${sender.userId})
           and (m.thread_id = a2.thread_id or strpos(m.refs, o.message ->> 'messageId') > 0)
         group by a2.id
      ) first
     where a.workspace_id = ${ws} and a.id = first.id
    returning a.id, a.type, a.prospect_id, a.connector_id, a.owner_user_id, a.replied_at`);
  return replied.rows.map((row) => ({ ...row, replied_at: new Date(row.replied_at) }));
}
