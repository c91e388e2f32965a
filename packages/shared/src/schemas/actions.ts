import { z } from 'zod';
import { ACTION_TYPES, ENGAGEMENTS } from '../enums.ts';
import { WARM_INTRO_SOURCES } from '../network.ts';
import { SIGNAL_TYPES } from '../signals.ts';
import { ZClientConnected, ZConnector, ZPagination, ZSignal } from './network.ts';

// The Actions API of spec sections 3 and 7: the daily recommended actions, the past, pending and
// skipped ones, their filters, the commands on them, and the two sends of the action panels.
//
// Tabs: `recommended` are the caller's recommendations of today (the workspace's day); `pending` are
// recommendations of earlier days nobody acted on yet (the daily run moves them there); `past` are
// the completed ones (sent from a panel, marked complete, or a warm intro sent from the network page);
// `skipped` the skipped ones.

export const ACTION_STATUSES = ['recommended', 'pending', 'completed', 'skipped'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** Spec section 3, Recommended action `contact`: the prospect as a card. */
export const ZActionContact = z.object({
  id: z.uuid(),
  fullName: z.string(),
  avatar: z.string().nullable(),
  proximity: z.number().int(),
  engagement: z.enum(ENGAGEMENTS),
  linkedInUrl: z.string().nullable(),
  jobTitle: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
});
export type TActionContact = z.infer<typeof ZActionContact>;

/** Spec section 3, Recommended action `company`. */
export const ZActionCompany = z.object({
  id: z.uuid(),
  companyName: z.string(),
  companyLogo: z.string().nullable(),
  companySize: z.string().nullable(),
});
export type TActionCompany = z.infer<typeof ZActionCompany>;

/**
 * Spec section 3, Recommended action. An `ask-intro` goes through `connector` (a colleague) or
 * `clientConnector` (a mapped client ally; to its contact owner when it has one), as `source` says,
 * and carries `introTarget`/`introTargetCompany`; a `DIRECT_MESSAGE` carries `prospect`/`prospectCompany`
 * and no connector. `contact` and `company` are the prospect in both cases.
 */
export const ZRecommendedAction = z.object({
  actionId: z.uuid(),
  actionType: z.enum(ACTION_TYPES),
  /** The signals that justify it, warm before medium before cold, then by proximity. */
  signals: z.array(ZSignal),
  contact: ZActionContact,
  company: ZActionCompany.nullable(),
  connector: ZConnector.nullable(),
  clientConnector: ZClientConnected.nullable(),
  connectorCompany: ZActionCompany.nullable(),
  /** The users the action is for: only they may skip, complete or engage it. */
  recommendationUsers: z.array(z.object({ id: z.uuid() })),
  introTarget: ZActionContact.nullable(),
  introTargetCompany: ZActionCompany.nullable(),
  prospect: ZActionContact.nullable(),
  prospectCompany: ZActionCompany.nullable(),
  /** For an ask-intro: whom to ask (the send-ask-intro body's `source`); null for a direct message. */
  source: z.enum(WARM_INTRO_SOURCES).nullable(),
  /** The workspace's day it was recommended on (YYYY-MM-DD). */
  recommendedOn: z.string(),
  /**
   * Ours: the one line of why it was recommended (its warmest signal and whom to ask, or why a direct
   * message), the same text as `cli recommend --explain`. Null for one made before the line was kept.
   */
  why: z.string().nullable(),
});
export type TRecommendedAction = z.infer<typeof ZRecommendedAction>;

export const ZRecommendedActionsPage = z.object({ rows: z.array(ZRecommendedAction), pagination: ZPagination });
export type TRecommendedActionsPage = z.infer<typeof ZRecommendedActionsPage>;

/** Spec section 3, Past or skipped action `owner`: the user who acted (null while nobody did). */
export const ZActionOwner = z.object({
  id: z.uuid(),
  fullName: z.string(),
  avatar: z.string().nullable(),
  /** A user is a member, not a prospect: no proximity or engagement of their own. */
  proximity: z.number().int().nullable(),
  engagement: z.enum(ENGAGEMENTS).nullable(),
  linkedInUrl: z.string().nullable(),
});
export type TActionOwner = z.infer<typeof ZActionOwner>;

/** The colleague asked for an intro. */
export const ZActionConnectorUser = z.object({
  id: z.uuid(),
  fullName: z.string(),
  avatar: z.string().nullable(),
  jobTitle: z.string().nullable(),
});

/** The client ally asked for an intro. */
export const ZActionClientConnector = z.object({
  id: z.uuid(),
  name: z.string(),
  linkedinProfileImageUrl: z.string().nullable(),
  companyName: z.string().nullable(),
  companyLogo: z.string().nullable(),
});

/** Spec section 3, Past or skipped action, plus its type, status and whether the thread got a reply. */
export const ZPastAction = z.object({
  actionId: z.uuid(),
  actionType: z.enum(ACTION_TYPES),
  status: z.enum(['pending', 'completed', 'skipped']),
  /** When it was acted on (sent, completed, skipped); for a pending one, when it was recommended. */
  actionDate: z.string(),
  owner: ZActionOwner.nullable(),
  contact: ZActionContact,
  company: ZActionCompany.nullable(),
  warmIntroMessage: z.string().nullable(),
  connectorUser: ZActionConnectorUser.nullable(),
  clientConnector: ZActionClientConnector.nullable(),
  /** The connector or the prospect answered in the thread of the sent e-mail. */
  replied: z.boolean(),
  repliedAt: z.string().nullable(),
  /** When the owner thanked the connector for an intro that got a reply (`send-thank-you`); null until then. */
  thankedAt: z.string().nullable(),
});
export type TPastAction = z.infer<typeof ZPastAction>;

/**
 * `POST /actions/query` (past), `POST /actions/query/pending-actions` (ours: the spec names no pending call)
 * and `POST /actions/query/skipped-actions`, each with `?page&pageSize` and the filters body.
 */
export const ZPastActionsPage = z.object({ rows: z.array(ZPastAction), pagination: ZPagination });
export type TPastActionsPage = z.infer<typeof ZPastActionsPage>;

/** Filters of the recommended actions (admins' toggles under 'Show'); `user` picks whose recommendations. */
export const RECOMMENDED_ACTION_FILTER_NAMES = ['user', 'company', 'signal', 'actionType'] as const;
export type RecommendedActionFilterName = (typeof RECOMMENDED_ACTION_FILTER_NAMES)[number];
/** Filters of the past, pending and skipped actions; `user` is the owner (who acted). */
export const PAST_ACTION_FILTER_NAMES = ['user', 'company', 'connector', 'actionType'] as const;
export type PastActionFilterName = (typeof PAST_ACTION_FILTER_NAMES)[number];
export const ACTION_FILTER_NAMES = ['user', 'company', 'signal', 'connector', 'actionType'] as const;
export type ActionFilterName = (typeof ACTION_FILTER_NAMES)[number];
export const ACTION_FILTER_LABELS: Record<ActionFilterName, string> = {
  user: 'Users',
  company: 'Companies',
  signal: 'Signals',
  connector: 'Connectors',
  actionType: 'Action types',
};
/** How the action types read in filter options. */
export const ACTION_TYPE_LABELS: Record<(typeof ACTION_TYPES)[number], string> = {
  'ask-intro': 'Ask intro',
  DIRECT_MESSAGE: 'Direct message',
};
/** Option values of the `signal` and `actionType` filters are these enumerations. */
export const ACTION_FILTER_ENUMS = { signal: SIGNAL_TYPES, actionType: ACTION_TYPES } as const;

/** Spec section 3, Action filter. */
export const ZActionFilterOption = z.object({
  optionName: z.string(),
  optionValue: z.string(),
  count: z.number().int(),
  avatar: z.string().nullable(),
  companyLogo: z.string().nullable(),
});
export type TActionFilterOption = z.infer<typeof ZActionFilterOption>;
export const ZActionFilter = z.object({
  filterName: z.enum(ACTION_FILTER_NAMES),
  optionValues: z.array(ZActionFilterOption),
});
export type TActionFilter = z.infer<typeof ZActionFilter>;
export const ZActionFilters = z.object({ filters: z.array(ZActionFilter) });
export type TActionFilters = z.infer<typeof ZActionFilters>;
/** Options returned per filter (the most frequent first); narrow with the option search. */
export const ACTION_FILTER_OPTION_LIMIT = 50;

/** The body of the actions queries: a list of filterName and values (values within one filter OR, filters AND). */
export const ZActionFilterItem = z.object({
  filterName: z.enum(ACTION_FILTER_NAMES),
  values: z.array(z.string().max(300)).max(1000),
});
export type TActionFilterItem = z.infer<typeof ZActionFilterItem>;
export const ZActionFiltersBody = z.object({ filters: z.array(ZActionFilterItem).max(10).default([]) });
export type TActionFiltersBody = z.input<typeof ZActionFiltersBody>;

/** `GET /actions/query/recommended-actions-filters`: all filters, or one filter's options matching searchTerm. */
export const ZRecommendedActionsFiltersQuery = z.object({
  filterField: z.enum(RECOMMENDED_ACTION_FILTER_NAMES).optional(),
  searchTerm: z.string().trim().max(100).default(''),
});
export type TRecommendedActionsFiltersQuery = z.input<typeof ZRecommendedActionsFiltersQuery>;

/**
 * `GET /actions/query/counts` (ours: the spec's calls carry no tab counts). Counted like the lists:
 * recommended = the caller's of today; past, pending and skipped = the team's for admins, else the caller's.
 */
export const ZActionCounts = z.object({
  recommended: z.number().int(),
  past: z.number().int(),
  pending: z.number().int(),
  skipped: z.number().int(),
  /**
   * The caller finished onboarding and their first recommendations are on their way: their Google
   * sync, the network's update or the run itself is still to come. The page says so instead of a zero.
   */
  preparingRecommendations: z.boolean(),
});
export type TActionCounts = z.infer<typeof ZActionCounts>;

/** `POST /actions/command/skip-action` and `/set-action-complete`. */
export const ZActionIdBody = z.object({ actionId: z.uuid() });
export type TActionIdBody = z.infer<typeof ZActionIdBody>;
/** The answer of every action command and send: the action and where it went. */
export const ZActionCommandResult = z.object({ actionId: z.uuid(), status: z.enum(ACTION_STATUSES) });
export type TActionCommandResult = z.infer<typeof ZActionCommandResult>;

const ZMessage = z.string().trim().min(1).max(10_000);

/** `POST /contacts/command/send-ask-intro-action-email`. */
export const ZSendAskIntroActionBody = z.object({
  actionId: z.uuid(),
  connectorId: z.uuid(),
  prospectContactId: z.uuid(),
  message: ZMessage,
  source: z.enum(WARM_INTRO_SOURCES),
  /** Ours: the sender confirmed asking again what they asked this connector within 30 days. */
  confirmRepeat: z.boolean().optional(),
});
export type TSendAskIntroActionBody = z.infer<typeof ZSendAskIntroActionBody>;

/** `POST /contacts/command/send-direct-message-action-email`. */
export const ZSendDirectMessageActionBody = z.object({
  actionId: z.uuid(),
  email: z.email(),
  prospectContactId: z.uuid(),
  /** Ours: the e-mail's subject as the sender left it; `directMessageSubject` when absent. */
  subject: z.string().trim().min(1, 'The subject is required').max(200).optional(),
  message: ZMessage,
});
export type TSendDirectMessageActionBody = z.infer<typeof ZSendDirectMessageActionBody>;

/**
 * `POST /actions/command/send-thank-you` (ours: the outcome loop's thank-you note). For an ask-intro
 * that got a reply, its owner e-mails the connector who made the intro; once per action.
 */
export const ZSendThankYouBody = z.object({ actionId: z.uuid(), message: ZMessage });
export type TSendThankYouBody = z.infer<typeof ZSendThankYouBody>;
export const ZSendThankYouResult = z.object({ actionId: z.uuid(), thankedAt: z.string() });
export type TSendThankYouResult = z.infer<typeof ZSendThankYouResult>;
