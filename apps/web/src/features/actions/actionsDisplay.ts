import {
  ACTION_FILTER_NAMES,
  type ActionFilterName,
  askIntroActionMessage,
  contactOwnerIntroRequest,
  directMessage,
  introTargetForward,
  requestWithForwardNote,
  type TActionCompany,
  type TActionContact,
  type TActionFilterItem,
  type TMe,
  type TPastAction,
  type TRecommendedAction,
  type TSignal,
  thankYouNote,
} from '@warmpath/shared';
import type { PersonCardPerson } from '../network/components/PersonCard.tsx';

// What the actions screens and panels show of an action (spec sections 2 and 4), as pure functions.

/** The values chosen per filter; a filter with none chosen does not narrow the list. */
export type ActionFilterSelection = Partial<Record<ActionFilterName, readonly string[]>>;

/** The queries' filter body: the filters with values, in the contract's order. */
export function toActionFilterItems(selection: ActionFilterSelection): TActionFilterItem[] {
  return ACTION_FILTER_NAMES.flatMap((filterName) => {
    const values = selection[filterName] ?? [];
    return values.length > 0 ? [{ filterName, values: [...values] }] : [];
  });
}

/** Only the users an action is for may skip, complete or engage it (spec section 6). */
export function isActionFor(action: Pick<TRecommendedAction, 'recommendationUsers'>, userId: string): boolean {
  return action.recommendationUsers.some((recommended) => recommended.id === userId);
}

export function userFullName(user: Pick<TMe, 'firstName' | 'lastName'>): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/** The person the action is about: the intro target of an ask, the prospect of a direct message. */
export function actionTarget(action: TRecommendedAction): { person: TActionContact; company: TActionCompany | null } {
  if (action.actionType === 'ask-intro') {
    return { person: action.introTarget ?? action.contact, company: action.introTargetCompany ?? action.company };
  }
  return { person: action.prospect ?? action.contact, company: action.prospectCompany ?? action.company };
}

/** The past client's move, from a PAST_CLIENT signal (companies null when unknown). */
export function pastClientMove(
  signals: readonly TSignal[],
): { newCompanyName: string | null; pastCompanyName: string | null } | null {
  const signal = signals.find((candidate) => candidate.type === 'PAST_CLIENT');
  if (!signal) return null;
  return {
    newCompanyName: signal.metadata.newCompanyName ?? null,
    pastCompanyName: signal.metadata.pastCompanyName ?? null,
  };
}

/**
 * Who an ask-intro goes through: a colleague, or a client ally (asked through their contact owner when
 * they have one other than the user). `connectorId` is the send's connectorId, the colleague's or the ally's.
 */
export type IntroConnector = {
  connectorId: string;
  ally: PersonCardPerson;
  /** The client ally's contact owner, who is the one asked; null when the ally is asked directly. */
  owner: { fullName: string; avatar: string | null } | null;
};

export function introConnector(action: TRecommendedAction, userId: string): IntroConnector | null {
  if (action.source === 'client' && action.clientConnector) {
    const client = action.clientConnector;
    // The user's own ally is asked directly, as the server sends it.
    const owner = client.contactOwner?.id === userId ? null : client.contactOwner;
    return {
      connectorId: client.id,
      ally: {
        fullName: client.name,
        avatar: client.linkedinProfileImageUrl,
        jobTitle: client.jobTitle,
        companyName: client.companyName,
      },
      owner: owner ? { fullName: owner.fullName, avatar: owner.avatar } : null,
    };
  }
  if (action.connector) {
    return {
      connectorId: action.connector.id,
      ally: {
        fullName: action.connector.fullName,
        avatar: action.connector.avatar,
        jobTitle: action.connector.jobTitle,
        companyName: action.connectorCompany?.companyName ?? null,
      },
      owner: null,
    };
  }
  return null;
}

/** The Ask intro panel's context, prefilled from the templates (spec section 4). */
export function askIntroPrefill(action: TRecommendedAction, connector: IntroConnector, userName: string): string {
  const { person, company } = actionTarget(action);
  const input = {
    connectorFullName: connector.ally.fullName,
    targetFullName: person.fullName,
    targetCompanyName: company?.companyName ?? null,
    userFullName: userName,
  };
  // The note for the target goes below the request, in the same editable text the mail carries.
  const note = introTargetForward(input);
  if (connector.owner) {
    return requestWithForwardNote(
      contactOwnerIntroRequest({ ...input, ownerFullName: connector.owner.fullName }),
      note,
    );
  }
  return requestWithForwardNote(askIntroActionMessage({ ...input, pastClient: pastClientMove(action.signals) }), note);
}

/** The Engage with Prospect panel's message: a past client's move, or 'Hello {prospect name}..'. */
export function directMessagePrefill(action: TRecommendedAction, userName: string): string {
  return directMessage({
    prospectFullName: actionTarget(action).person.fullName,
    userFullName: userName,
    pastClient: pastClientMove(action.signals),
  });
}

/** The person who made (or was asked for) a past intro: a colleague or a client ally; null for a direct message. */
export function pastConnector(action: TPastAction): PersonCardPerson | null {
  if (action.connectorUser) {
    return {
      fullName: action.connectorUser.fullName,
      avatar: action.connectorUser.avatar,
      jobTitle: action.connectorUser.jobTitle,
      companyName: null,
    };
  }
  if (action.clientConnector) {
    return {
      fullName: action.clientConnector.name,
      avatar: action.clientConnector.linkedinProfileImageUrl,
      jobTitle: null,
      companyName: action.clientConnector.companyName,
    };
  }
  return null;
}

/**
 * The outcome loop: the user who sent an intro request that got a reply may thank the connector,
 * once (the server refuses anyone else, and a second note).
 */
export function canSendThankYou(action: TPastAction, userId: string): boolean {
  return (
    action.actionType === 'ask-intro' &&
    action.status === 'completed' &&
    action.replied &&
    action.thankedAt === null &&
    action.owner?.id === userId &&
    pastConnector(action) !== null
  );
}

/** The thank-you note's prefill: the connector's first name, the target, the user's name. */
export function thankYouPrefill(action: TPastAction, userName: string): string {
  return thankYouNote({
    connectorFullName: pastConnector(action)?.fullName ?? '',
    targetFullName: action.contact.fullName,
    userFullName: userName,
  });
}
