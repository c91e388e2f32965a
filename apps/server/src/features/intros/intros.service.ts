import {
  connectorIntroRequest,
  contactOwnerIntroRequest,
  firstNameOf,
  introTargetForward,
  type TWarmIntroItem,
  type TWarmIntroModalData,
  type WarmIntroSource,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.ts';
import { membersCte } from '../../graph/graph.sql.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { sendEmailFrom } from '../../integrations/mail/send-email.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import { introRequestsReceived, supersedeOpenActions } from '../actions/actions.repo.ts';
import { networkRows } from '../network/network.repo.ts';

// Warm intros from the network page: ask a colleague, or a client ally (through the member who owns
// the relationship, when there is one), by e-mail from the user's own Google account.

/** The same intro asked again within this window is refused: a double click never sends twice. */
const REPEAT_WINDOW_HOURS = 24;

type Person = {
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
  const result = await tx.execute<Person>(sql`
    with ${membersCte(ws)}
    select p.id, coalesce(u.first_name || ' ' || u.last_name, p.full_name) as full_name,
           coalesce(u.avatar, p.avatar_url) as avatar, p.title as job_title, co.name as company_name,
           coalesce(u.email, p.email) as email, u.id as user_id,
           cl.person_id is not null as is_ally, cl.contact_owner_user_id as owner_user_id
      from people p
      left join members m on m.person_id = p.id
      left join users u on u.workspace_id = p.workspace_id and u.id = m.user_id
      left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
      left join clients cl on cl.workspace_id = p.workspace_id and cl.person_id = p.id and cl.map_network
     where p.workspace_id = ${ws} and p.id = ${personId}`);
  return result.rows[0] ?? null;
}

async function findOwner(tx: Tx, workspaceId: string, userId: string) {
  const result = await tx.execute<Person>(sql`
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

async function requestsReceivedThisWeek(tx: Tx, workspaceId: string, connectorId: string) {
  return (await introRequestsReceived(tx, workspaceId, [connectorId])).get(connectorId) ?? 0;
}

const card = (person: Person) => ({
  id: person.id,
  fullName: person.full_name,
  firstName: firstNameOf(person.full_name),
  avatar: person.avatar,
  jobTitle: person.job_title,
  companyName: person.company_name,
});

/** Everything one intro needs, checked: the connector knows the target, and is of the kind asked for. */
async function resolveIntro(
  tx: Tx,
  member: Member,
  request: { source: WarmIntroSource; targetId: string; connectorId: string },
) {
  const ws = member.workspaceId;
  const { model, weeklyIntroCap } = await loadGraphSettings(tx, ws);
  const [row] = await networkRows(tx, member, [request.targetId], model);
  if (!row) throw new AppError('NOT_FOUND', 'Prospect not found');
  const link =
    request.source === 'connector'
      ? row.connectors.find((connector) => connector.id === request.connectorId)
      : row.clientsConnected.find((client) => client.id === request.connectorId);
  const connector = link ? await findPerson(tx, ws, request.connectorId) : null;
  if (!link || !connector) throw new AppError('NOT_FOUND', 'This connector does not know this prospect');
  const target = await findPerson(tx, ws, request.targetId);
  if (!target) throw new AppError('NOT_FOUND', 'Prospect not found');
  // An ally whose relationship the caller owns is asked directly.
  const owner =
    request.source === 'client' && connector.owner_user_id && connector.owner_user_id !== member.userId
      ? await findOwner(tx, ws, connector.owner_user_id)
      : null;
  const me = await findOwner(tx, ws, member.userId);
  return { row, link, connector, target, owner, me, weeklyIntroCap };
}

export async function warmIntroModalData(
  deps: { database: Database },
  member: Member,
  request: { source: WarmIntroSource; targetId: string; connectorId: string },
): Promise<TWarmIntroModalData> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const intro = await resolveIntro(tx, member, request);
    const input = {
      connectorFullName: intro.connector.full_name,
      targetFullName: intro.target.full_name,
      targetCompanyName: intro.target.company_name,
      userFullName: intro.me?.full_name ?? '',
    };
    return {
      source: request.source,
      connector: {
        ...card(intro.connector),
        connectionSources: intro.link.connectionSources,
        proximity: intro.link.proximity,
      },
      target: card(intro.target),
      contactOwner: intro.owner ? card(intro.owner) : null,
      signals: intro.row.signals,
      templates: {
        connectorMessage: intro.owner
          ? contactOwnerIntroRequest({ ...input, ownerFullName: intro.owner.full_name })
          : connectorIntroRequest(input),
        introTargetMessage: introTargetForward(input),
      },
      introRequestsLast7Days: await requestsReceivedThisWeek(tx, member.workspaceId, request.connectorId),
      weeklyCap: intro.weeklyIntroCap,
    };
  });
}

/**
 * E-mails one intro request from the user's Google account, through the outbox in the caller's
 * transaction (it leaves only if the caller's change commits). Refused: a connector past the weekly
 * cap, the same intro asked again within a day, asking oneself, an ally without an e-mail address.
 * Shared by the network page's warm intros and the recommended actions' Ask intro.
 */
export async function sendIntroRequest(tx: Tx, member: Member, item: TWarmIntroItem) {
  const intro = await resolveIntro(tx, member, {
    source: item.source,
    targetId: item.prospectContactId,
    connectorId: item.connectorId,
  });
  const recipient = intro.owner ?? intro.connector;
  if (recipient.user_id === member.userId) {
    throw new AppError('VALIDATION_FAILED', 'You cannot ask yourself for an intro');
  }
  if (!recipient.email) {
    throw new AppError('MISSING_EMAIL', `${recipient.full_name} has no e-mail address to send the request to`);
  }
  const received = await requestsReceivedThisWeek(tx, member.workspaceId, item.connectorId);
  if (received >= intro.weeklyIntroCap) {
    throw new AppError(
      'LIMIT_REACHED',
      `${intro.connector.full_name} has already received ${received} intro requests this week (the limit is ${intro.weeklyIntroCap}). Please ask someone else or try again next week.`,
    );
  }
  const repeated = await tx.execute(sql`
    select 1 from actions
     where workspace_id = ${member.workspaceId} and type = 'ask-intro' and owner_user_id = ${member.userId}
       and connector_id = ${item.connectorId} and prospect_id = ${item.prospectContactId} and superseded_by is null
       and acted_at > now() - make_interval(hours => ${REPEAT_WINDOW_HOURS})`);
  if (repeated.rows.length > 0) {
    throw new AppError('LIMIT_REACHED', `You already asked ${intro.connector.full_name} for this intro today`);
  }
  const text = item.introTargetMessage
    ? `${item.connectorMessage}\n\n---\n\n${item.introTargetMessage}`
    : item.connectorMessage;
  const outboxId = await sendEmailFrom(tx, member, {
    purpose: 'warm-intro',
    to: [recipient.email],
    subject: `Intro to ${intro.target.full_name}${intro.target.company_name ? ` (${intro.target.company_name})` : ''}`,
    text,
  });
  return { outboxId, signals: intro.row.signals };
}

/**
 * Sends each intro request (sendIntroRequest), each recorded as a past action in the same
 * transaction: both happen, or neither. The prospect's open actions (recommended or pending, for
 * whichever users) are closed with it: a prospect just contacted is recommended to nobody.
 */
export async function sendWarmIntros(deps: { database: Database }, member: Member, items: TWarmIntroItem[]) {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    for (const item of items) {
      const { outboxId, signals } = await sendIntroRequest(tx, member, item);
      const inserted = await tx.execute<{ id: string }>(sql`
        insert into actions (workspace_id, type, status, origin, prospect_id, connector_id, source, owner_user_id,
                             recommendation_users, signals, message, intro_target_message, outbox_id, acted_at)
        values (${member.workspaceId}, 'ask-intro', 'completed', 'network', ${item.prospectContactId},
                ${item.connectorId}, ${item.source}, ${member.userId}, array[${member.userId}]::uuid[],
                ${JSON.stringify(signals)}::jsonb, ${item.connectorMessage}, ${item.introTargetMessage},
                ${outboxId}, now())
        returning id`);
      const actionId = inserted.rows[0]?.id;
      if (!actionId) throw new Error('the warm intro was not recorded');
      await supersedeOpenActions(tx, member.workspaceId, {
        prospectId: item.prospectContactId,
        byActionId: actionId,
        ownerUserId: member.userId,
      });
    }
    return { sent: items.length };
  });
}
