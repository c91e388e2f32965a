import { z } from 'zod';
import { ACTION_TYPES, ROLES } from './enums.ts';
import { IMPORT_KINDS } from './schemas/lists.ts';
import { SIGNAL_TYPES } from './signals.ts';

// The domain events the product records, and the public contract of what leaves it: each webhook
// delivery's body is `{ type, timestamp, data }` (the Standard Webhooks payload shape) with `data` as
// declared here; Slack messages are written from the same data. Add a field freely; never rename or
// remove one, since receivers outside the product read them.

/** A person of the network, with a link back to them in the product. */
export const ZEventPerson = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  title: z.string().nullable(),
  companyName: z.string().nullable(),
  /** The domain of their company, when it is known (how a CRM finds the company). */
  companyDomain: z.string().nullable(),
  /** Opens the product's network page on this person (`<PUBLIC_URL>/network?personId=<id>`). */
  url: z.url(),
});

/** A member of the workspace. */
export const ZEventUser = z.object({ id: z.uuid(), name: z.string(), email: z.string() }).meta({ id: 'EventUser' });

export const EVENT_SCHEMAS = {
  'intro.requested': z.object({
    actionId: z.uuid().nullable(),
    prospect: ZEventPerson,
    /** Who is asked to make the introduction. */
    connector: z.object({ id: z.uuid(), name: z.string(), email: z.string().nullable() }),
    requestedBy: ZEventUser,
  }),
  'intro.replied': z.object({
    actionId: z.uuid(),
    prospect: ZEventPerson,
    connector: z.object({ id: z.uuid(), name: z.string(), email: z.string().nullable() }),
    requestedBy: ZEventUser,
    repliedAt: z.iso.datetime(),
  }),
  'direct_message.sent': z.object({
    actionId: z.uuid().nullable(),
    prospect: ZEventPerson,
    sentBy: ZEventUser,
  }),
  'signal.raised': z.object({
    signalType: z.enum(SIGNAL_TYPES),
    prospect: ZEventPerson,
    proximityScore: z.number().int().min(0).max(100),
  }),
  'job_change.detected': z.object({
    person: ZEventPerson,
    pastCompanyName: z.string().nullable(),
    newCompanyName: z.string(),
  }),
  /** An action its user marked complete. A send from an action is its `intro.requested` or `direct_message.sent`. */
  'action.completed': z.object({
    actionId: z.uuid(),
    actionType: z.enum(ACTION_TYPES),
    prospect: ZEventPerson,
    completedBy: ZEventUser,
  }),
  'import.completed': z.object({
    importId: z.uuid(),
    kind: z.enum(IMPORT_KINDS),
    imported: z.number().int().min(0),
    rejected: z.number().int().min(0),
    startedBy: ZEventUser,
  }),
  'teammate.joined': z.object({
    user: ZEventUser,
    role: z.enum(ROLES),
    via: z.enum(['registration', 'invite', 'domain']),
  }),
  /** A workflow agent fired: a signal it listens to was raised on a prospect matching its filters. */
  'workflow.triggered': z.object({
    workflow: z.object({ id: z.uuid(), name: z.string() }),
    signalType: z.enum(SIGNAL_TYPES),
    prospect: ZEventPerson,
    /** The colleague or ally closest to the prospect, who could introduce them; null when nobody is. */
    bestConnector: z.object({ name: z.string(), proximity: z.number().int().min(0).max(100) }).nullable(),
  }),
  /** Sent by an admin from the webhook page to check an endpoint; nothing happened in the product. */
  'webhook.test': z.object({ message: z.string() }),
  /**
   * The webhook endpoint stopped receiving events (410 Gone, or five days of failures). Told to the
   * team's channel, never to the endpoint it is about.
   */
  'webhook.disabled': z.object({
    url: z.string(),
    reason: z.string(),
    /** The webhook page, where an admin turns deliveries back on. */
    settingsUrl: z.url(),
  }),
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as EventType[];
/** What a webhook endpoint may receive: every event but the news of its own disabling. */
export const WEBHOOK_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter((type) => type !== 'webhook.disabled');
export type EventData<T extends EventType> = z.infer<(typeof EVENT_SCHEMAS)[T]>;

/** One event of any type, as a discriminated union: what a receiver parses. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

const envelope = (type: EventType) =>
  z.object({ type: z.literal(type), timestamp: z.iso.datetime(), data: EVENT_SCHEMAS[type] });

/** The body of a webhook delivery of each type (published as the OpenAPI document's `webhooks`). */
export const EVENT_PAYLOADS = Object.fromEntries(EVENT_TYPES.map((type) => [type, envelope(type)])) as Record<
  EventType,
  ReturnType<typeof envelope>
>;
const [firstEnvelope, ...otherEnvelopes] = EVENT_TYPES.map((type) => EVENT_PAYLOADS[type]);

/** The body of a webhook delivery, whatever its type. */
export const ZEventPayload = z
  // The catalogue is never empty; the union wants that said as a tuple.
  .discriminatedUnion('type', [firstEnvelope as ReturnType<typeof envelope>, ...otherEnvelopes]);

/** 'intro.requested' is named IntroRequestedEvent in the OpenAPI document. */
export const eventComponentName = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;
export type TEventPayload = { [T in EventType]: { type: T; timestamp: string; data: EventData<T> } }[EventType];
