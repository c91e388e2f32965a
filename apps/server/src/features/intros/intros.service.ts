import {
  connectorIntroRequest,
  contactOwnerIntroRequest,
  directMessageSubject,
  firstNameOf,
  introTargetForward,
  requestWithForwardNote,
  type TActionCommandResult,
  type TSendAskIntroActionBody,
  type TSendDirectMessageActionBody,
  type TSendThankYouBody,
  type TSendThankYouResult,
  type TWarmIntroItem,
  type TWarmIntroModalData,
  type WarmIntroSource,
} from '@warmpath/shared';
import type { Database, Tx } from '../../db/client.ts';
import type { EventsDeps } from '../../events/record.ts';
import { eventPeople, eventUser } from '../../events/subjects.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import {
  closeAction,
  introRequestsReceived,
  type LockedAction,
  lockAction,
  supersedeOpenActions,
} from '../actions/actions.repo.ts';
import { claimOpenAction } from '../actions/actions.service.ts';
import { networkRows } from '../network/network.repo.ts';
import { connectorLimits } from '../privacy/privacy.repo.ts';
import { siteLinkFor, withSiteLink } from '../tracking/site-link.ts';
import type { VisitLinks } from '../tracking/visit-link.ts';
import {
  directMessageNames,
  directMessageSentWithin,
  findMember,
  findPerson,
  type IntroPerson,
  insertIntroRequest,
  introAskedWithin,
  markThanked,
} from './intros.repo.ts';

// Intros: asking a connector for an intro (from the network page, or from a recommended action),
// messaging a prospect from an action, and thanking the connector once somebody replied. Every
// message leaves from the user's own Google account through the outbox, in the transaction that
// records it as an action, with its event. The rules live here: who may ask whom, the connector's
// weekly cap, the repeat windows, when a thank-you may follow.

export type IntrosDeps = { database: Database; visitLinks: VisitLinks } & EventsDeps;

/** The same intro, or a message to the same prospect, asked again within this window is refused: a double click never sends twice. */
const REPEAT_WINDOW_HOURS = 24;
/** The same intro asked again within this many days needs the sender's confirmation: a connector asked twice tires. */
const REPEAT_CONFIRMATION_DAYS = 30;

type IntroRequest = { source: WarmIntroSource; targetId: string; connectorId: string };

const card = (person: IntroPerson) => ({
  id: person.id,
  fullName: person.full_name,
  firstName: firstNameOf(person.full_name),
  avatar: person.avatar,
  jobTitle: person.job_title,
  companyName: person.company_name,
});

async function requestsReceivedThisWeek(tx: Tx, workspaceId: string, connectorId: string) {
  return (await introRequestsReceived(tx, workspaceId, [connectorId])).get(connectorId) ?? 0;
}

/** Everything one intro needs, checked: the connector knows the target, and is of the kind asked for. */
async function resolveIntro(tx: Tx, member: Member, request: IntroRequest) {
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
  // An ally whose relationship another member owns is asked through that member.
  const owner =
    request.source === 'client' && connector.owner_user_id && connector.owner_user_id !== member.userId
      ? await findMember(tx, ws, connector.owner_user_id)
      : null;
  const me = await findMember(tx, ws, member.userId);
  // A member may take no intro requests at all, or fewer (or more) a week than the workspace's cap.
  const limits = (await connectorLimits(tx, ws)).get(request.connectorId);
  return {
    row,
    link,
    connector,
    target,
    owner,
    me,
    acceptsIntros: limits?.acceptsIntros ?? true,
    weeklyIntroCap: limits?.cap ?? weeklyIntroCap,
  };
}

export async function warmIntroModalData(
  deps: IntrosDeps,
  member: Member,
  request: IntroRequest,
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
 */
async function sendIntroRequest(deps: IntrosDeps, tx: Tx, member: Member, item: TWarmIntroItem) {
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
  if (!intro.acceptsIntros) {
    throw new AppError(
      'LIMIT_REACHED',
      `${intro.connector.full_name} does not take intro requests. Please ask someone else.`,
    );
  }
  const received = await requestsReceivedThisWeek(tx, member.workspaceId, item.connectorId);
  if (received >= intro.weeklyIntroCap) {
    throw new AppError(
      'LIMIT_REACHED',
      `${intro.connector.full_name} has already received ${received} intro requests this week (the limit is ${intro.weeklyIntroCap}). Please ask someone else or try again next week.`,
    );
  }
  const repeated = await introAskedWithin(tx, member.workspaceId, {
    userId: member.userId,
    connectorId: item.connectorId,
    prospectId: item.prospectContactId,
    hours: REPEAT_WINDOW_HOURS,
  });
  if (repeated) {
    throw new AppError('LIMIT_REACHED', `You already asked ${intro.connector.full_name} for this intro today`);
  }
  // Asking the same person about the same prospect again within a month is allowed, once the sender says so.
  if (!item.confirmRepeat) {
    const recently = await introAskedWithin(tx, member.workspaceId, {
      userId: member.userId,
      connectorId: item.connectorId,
      prospectId: item.prospectContactId,
      hours: REPEAT_CONFIRMATION_DAYS * 24,
    });
    if (recently)
      throw new AppError(
        'NEEDS_CONFIRMATION',
        `You asked ${intro.connector.full_name} for an intro to ${intro.target.full_name} in the last ${REPEAT_CONFIRMATION_DAYS} days. Ask again?`,
      );
  }
  // The note the connector forwards reaches the prospect: its link to the team's site names them.
  const note = item.introTargetMessage.trim()
    ? withSiteLink(item.introTargetMessage, await siteLinkFor(tx, deps.visitLinks, member.workspaceId, intro.target.id))
    : item.introTargetMessage;
  const text = requestWithForwardNote(item.connectorMessage, note);
  const outboxId = await deps.events.sendEmail(tx, member, {
    purpose: 'warm-intro',
    to: [recipient.email],
    subject: `Intro to ${intro.target.full_name}${intro.target.company_name ? ` (${intro.target.company_name})` : ''}`,
    text,
  });
  return { outboxId, signals: intro.row.signals };
}

/** `intro.requested`: the connector asked (an ally's contact owner only relays), the prospect, the user. */
function recordIntroRequested(
  deps: IntrosDeps,
  tx: Tx,
  member: Member,
  request: { actionId: string; prospectId: string; connectorId: string },
) {
  const ws = member.workspaceId;
  return deps.events.record(tx, ws, 'intro.requested', async () => {
    const person = await eventPeople(tx, ws, deps.publicUrl, [request.prospectId, request.connectorId]);
    const connector = person(request.connectorId);
    return {
      actionId: request.actionId,
      prospect: person(request.prospectId),
      connector: { id: connector.id, name: connector.name, email: connector.email },
      requestedBy: await eventUser(tx, ws, member.userId),
    };
  });
}

/** A send acted on this action: it is past, and the prospect's other open actions leave everyone's recommendations. */
async function completeBySending(
  tx: Tx,
  member: Member,
  action: LockedAction,
  sent: { message: string; outboxId: string; connectorId?: string; source?: 'connector' | 'client' },
) {
  await closeAction(tx, member.workspaceId, action.id, { status: 'completed', ownerUserId: member.userId, ...sent });
  await supersedeOpenActions(tx, member.workspaceId, {
    prospectId: action.prospect_id,
    byActionId: action.id,
    ownerUserId: member.userId,
  });
}

/**
 * The network page's warm intros: each request sent (sendIntroRequest) and recorded as a past action
 * in the same transaction: both happen, or neither. The prospect's open actions (recommended or
 * pending, for whichever users) are closed with it: a prospect just contacted is recommended to nobody.
 */
export async function sendWarmIntros(deps: IntrosDeps, member: Member, items: TWarmIntroItem[]) {
  const ws = member.workspaceId;
  return deps.database.inWorkspace(ws, async (tx) => {
    for (const item of items) {
      const { outboxId, signals } = await sendIntroRequest(deps, tx, member, item);
      const actionId = await insertIntroRequest(tx, ws, { userId: member.userId, item, signals, outboxId });
      await supersedeOpenActions(tx, ws, {
        prospectId: item.prospectContactId,
        byActionId: actionId,
        ownerUserId: member.userId,
      });
      await recordIntroRequested(deps, tx, member, {
        actionId,
        prospectId: item.prospectContactId,
        connectorId: item.connectorId,
      });
    }
    return { sent: items.length };
  });
}

/** A send from an action panel must be about that action's prospect. */
function assertSameProspect(action: LockedAction, prospectId: string) {
  if (action.prospect_id !== prospectId) {
    throw new AppError('VALIDATION_FAILED', 'This action is about another prospect');
  }
}

/** The Ask intro panel's send: the intro request e-mailed, and the action moved to past, together. */
export async function sendAskIntroAction(
  deps: IntrosDeps,
  member: Member,
  body: TSendAskIntroActionBody,
): Promise<TActionCommandResult> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const action = await claimOpenAction(tx, member, body.actionId);
    if (action.type !== 'ask-intro') throw new AppError('VALIDATION_FAILED', 'This action is not an intro request');
    assertSameProspect(action, body.prospectContactId);
    const { outboxId } = await sendIntroRequest(deps, tx, member, {
      connectorId: body.connectorId,
      prospectContactId: body.prospectContactId,
      connectorMessage: body.message,
      introTargetMessage: '',
      source: body.source,
      ...(body.confirmRepeat ? { confirmRepeat: true } : {}),
    });
    await completeBySending(tx, member, action, {
      message: body.message,
      outboxId,
      connectorId: body.connectorId,
      source: body.source,
    });
    await recordIntroRequested(deps, tx, member, {
      actionId: action.id,
      prospectId: action.prospect_id,
      connectorId: body.connectorId,
    });
    return { actionId: action.id, status: 'completed' };
  });
}

/** The Engage with Prospect panel's send: the message e-mailed to the prospect, and the action moved to past. */
export async function sendDirectMessageAction(
  deps: IntrosDeps,
  member: Member,
  body: TSendDirectMessageActionBody,
): Promise<TActionCommandResult> {
  const ws = member.workspaceId;
  return deps.database.inWorkspace(ws, async (tx) => {
    const action = await claimOpenAction(tx, member, body.actionId);
    if (action.type !== 'DIRECT_MESSAGE')
      throw new AppError('VALIDATION_FAILED', 'This action is not a direct message');
    assertSameProspect(action, body.prospectContactId);
    const names = await directMessageNames(tx, ws, { prospectId: action.prospect_id, userId: member.userId });
    const { prospect = 'them', sender = '' } = names ?? {};
    const repeated = await directMessageSentWithin(tx, ws, {
      userId: member.userId,
      prospectId: action.prospect_id,
      hours: REPEAT_WINDOW_HOURS,
    });
    if (repeated) throw new AppError('LIMIT_REACHED', `You already messaged ${prospect} today`);
    const outboxId = await deps.events.sendEmail(tx, member, {
      purpose: 'direct-message',
      to: [body.email],
      subject: body.subject ?? directMessageSubject(sender),
      text: withSiteLink(body.message, await siteLinkFor(tx, deps.visitLinks, ws, action.prospect_id)),
    });
    await completeBySending(tx, member, action, { message: body.message, outboxId });
    await deps.events.record(tx, ws, 'direct_message.sent', async () => ({
      actionId: action.id,
      prospect: (await eventPeople(tx, ws, deps.publicUrl, [action.prospect_id]))(action.prospect_id),
      sentBy: await eventUser(tx, ws, member.userId),
    }));
    return { actionId: action.id, status: 'completed' };
  });
}

/**
 * The outcome loop's thank-you: once an intro request got a reply, the user who sent it e-mails the
 * connector who made the intro (the connector themselves, even for an ally asked through their
 * contact owner), from their Google account. Once per action: the note and `thanked_at` commit together.
 */
export async function sendThankYou(
  deps: IntrosDeps,
  member: Member,
  body: TSendThankYouBody,
): Promise<TSendThankYouResult> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const ws = member.workspaceId;
    const action = await lockAction(tx, ws, body.actionId);
    if (!action) throw new AppError('NOT_FOUND', 'Action not found');
    if (action.owner_user_id !== member.userId) {
      throw new AppError('FORBIDDEN', 'Only the user who sent this intro request can send the thank-you.');
    }
    const connector =
      action.type === 'ask-intro' && action.connector_id ? await findPerson(tx, ws, action.connector_id) : null;
    if (action.status !== 'completed' || !connector) {
      throw new AppError('VALIDATION_FAILED', 'Only a sent intro request can be followed by a thank-you.');
    }
    if (action.thanked_at)
      throw new AppError('ALREADY_DONE', `You already thanked ${connector.full_name} for this intro.`);
    if (!action.replied_at) throw new AppError('NO_REPLY_YET', 'Nobody has replied to this intro request yet.');
    if (!connector.email) {
      throw new AppError('MISSING_EMAIL', `${connector.full_name} has no e-mail address to send the thank-you to.`);
    }
    const target = await findPerson(tx, ws, action.prospect_id);
    await deps.events.sendEmail(tx, member, {
      purpose: 'thank-you',
      to: [connector.email],
      subject: target ? `Thank you for the intro to ${target.full_name}` : 'Thank you for the intro',
      text: body.message,
    });
    const thankedAt = await markThanked(tx, ws, action.id);
    return { actionId: action.id, thankedAt: thankedAt.toISOString() };
  });
}
