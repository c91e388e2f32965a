import {
  type DomainEvent,
  EVENT_SCHEMAS,
  type EventData,
  type EventType,
  SIGNAL_TEMPERATURE,
  WEBHOOK_EVENT_TYPES,
} from '@warmpath/shared';
import type { Tx } from '../db/client.ts';
import { hubspotEnabled, parseHubspotSettings } from '../integrations/hubspot/hubspot-account.ts';
import { HUBSPOT_EVENT_TYPES } from '../integrations/hubspot/hubspot-destination.ts';
import { type EmailToSend, queueEmail } from '../integrations/mail/send-email.ts';
import { SLACK_EVENT_TYPES } from '../integrations/slack/slack-messages.ts';
import { parseSlackSettings, slackEnabled } from '../integrations/slack/slack-settings.ts';
import { parseWebhookSettings, webhookEnabled } from '../integrations/webhook/webhook-settings.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { type Destination, findDestinations, insertDelivery, insertEvent } from './events.repo.ts';

/**
 * The outbox's door for the business code: domain events for every destination that wants them, and
 * e-mails from a member's own Gmail, each written in the transaction that causes it.
 */
export type EventRecorder = {
  /**
   * Validates the event against the catalogue, then writes it with one delivery per destination that
   * is connected and wants it, each queued in the same transaction. Returns the event's id, or null
   * when no destination wants it (then nothing is written: an unwanted event costs one read).
   * `data` may be a function, called only when a destination is connected: data that takes queries
   * to build then costs nothing when nobody listens.
   */
  record: <T extends EventType>(
    tx: Tx,
    workspaceId: string,
    type: T,
    data: EventData<T> | (() => Promise<EventData<T>>),
    options?: { only?: Destination },
  ) => Promise<string | null>;
  /** Whether a destination of the workspace may want events of this type: nothing to build otherwise. */
  wants: (tx: Tx, workspaceId: string, type: EventType) => Promise<boolean>;
  /**
   * Queues an e-mail from the member's Google account (refused with the spec's message when it is
   * not connected); returns the e-mail's id.
   */
  sendEmail: (tx: Tx, sender: { workspaceId: string; userId: string }, email: EmailToSend) => Promise<string>;
};

/** What a feature records events with: the recorder, and the product's address for the links to people. */
export type EventsDeps = { events: EventRecorder; publicUrl: string };

/** Which event types each destination receives: a webhook takes them all; a channel, what a team acts on. */
const DESTINATION_TYPES: Record<Destination, (type: EventType) => boolean> = {
  // A test event goes to the endpoint alone, asked for by name (`only`).
  webhook: (type) => type !== 'webhook.test' && WEBHOOK_EVENT_TYPES.includes(type),
  slack: (type) => SLACK_EVENT_TYPES.includes(type),
  // A workflow's push to the CRM is asked for by name (`only`), like a test event.
  hubspot: (type) => type !== 'workflow.triggered' && HUBSPOT_EVENT_TYPES.some((taken) => taken === type),
};

/**
 * Of the events of a type it receives, those a destination wants: of the signals, a channel hears the
 * warm ones (a channel told of every new LinkedIn connection gets muted).
 */
const DESTINATION_FILTERS: Record<Destination, (event: DomainEvent) => boolean> = {
  webhook: () => true,
  slack: (event) => event.type !== 'signal.raised' || SIGNAL_TEMPERATURE[event.data.signalType] === 'warm',
  hubspot: () => true,
};

function connected<T extends { kind: string; settings: string | null }>(
  destination: T,
): destination is T & {
  kind: Destination;
} {
  if (destination.kind === 'webhook') return webhookEnabled(parseWebhookSettings(destination.settings));
  if (destination.kind === 'slack') return slackEnabled(parseSlackSettings(destination.settings));
  if (destination.kind === 'hubspot') return hubspotEnabled(parseHubspotSettings(destination.settings));
  return false;
}

/** Notes on contacts can be turned off; a workflow's push to the CRM (asked for by name) is the agent's own choice. */
function takes(destination: { kind: Destination; settings: string | null }, type: EventType, only?: Destination) {
  if (only) return destination.kind === only;
  if (!DESTINATION_TYPES[destination.kind](type)) return false;
  return destination.kind !== 'hubspot' || parseHubspotSettings(destination.settings)?.notesEnabled === true;
}

/** The destinations of the workspace that are connected and enabled. */
export async function connectedDestinations(tx: Tx, workspaceId: string): Promise<Destination[]> {
  return (await findDestinations(tx, workspaceId)).filter(connected).map(({ kind }) => kind);
}

export function createEventRecorder(queue: Pick<JobQueue, 'enqueueDelivery'>): EventRecorder {
  return {
    async record(tx, workspaceId, type, data, options = {}) {
      const taking = (await findDestinations(tx, workspaceId))
        .filter(connected)
        .filter((destination) => takes(destination, type, options.only));
      if (taking.length === 0) return null;
      const built = EVENT_SCHEMAS[type].parse(typeof data === 'function' ? await data() : data);
      // Parsed by the schema of `type`: the pair is a member of the union TypeScript cannot pair up.
      const event = { type, data: built } as DomainEvent;
      const wanting = taking.filter(({ kind }) => options.only || DESTINATION_FILTERS[kind](event));
      if (wanting.length === 0) return null;
      const recorded = await insertEvent(tx, workspaceId, type, built);
      for (const { kind } of wanting) {
        const deliveryId = await insertDelivery(tx, workspaceId, { eventId: recorded.id }, kind);
        await queue.enqueueDelivery(tx, { workspaceId, deliveryId, attempt: 0 });
      }
      return recorded.id;
    },
    async wants(tx, workspaceId, type) {
      return (await findDestinations(tx, workspaceId))
        .filter(connected)
        .some((destination) => takes(destination, type));
    },
    sendEmail: (tx, sender, email) => queueEmail(tx, queue, sender, email),
  };
}
