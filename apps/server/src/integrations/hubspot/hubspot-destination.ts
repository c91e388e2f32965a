import { SIGNAL_LABELS, type TEventPayload } from '@warmpath/shared';
import { escapeHtml } from '../../lib/html.ts';
import type { DeliveryAttempt } from '../attempt.ts';
import { type HubspotAccountDeps, HubspotReconnectRequired, hubspotAccount } from './hubspot-account.ts';
import { HubspotCallError } from './hubspot-client.ts';

/** The event types written back to the CRM as notes on the prospect's contact. */
export const HUBSPOT_EVENT_TYPES = [
  'intro.requested',
  'intro.replied',
  'direct_message.sent',
  'workflow.triggered',
] as const satisfies readonly TEventPayload['type'][];

/**
 * The mark a note carries in its body: one search token (letters and digits only, as HubSpot's
 * CONTAINS_TOKEN splits on anything else), so a retry after a crash finds the note it already wrote.
 */
export const noteMark = (deliveryId: string) => `warmpath${deliveryId.replaceAll('-', '')}`;

/** The note's text (HubSpot renders a note body as HTML), or null for an event a note does not tell. */
export function noteBody(event: TEventPayload, deliveryId: string): string | null {
  const told = noteLine(event);
  if (told === null) return null;
  const { line, prospect } = told;
  return `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(prospect.url)}">Open ${escapeHtml(prospect.name)} in Warmpath</a></p><p style="color:#888">Ref ${noteMark(deliveryId)}</p>`;
}

type EventPerson = Extract<TEventPayload, { type: 'intro.requested' }>['data']['prospect'];

/** What a note says, and whose contact it goes on. */
function noteLine(event: TEventPayload): { line: string; prospect: EventPerson } | null {
  switch (event.type) {
    case 'intro.requested': {
      const { requestedBy, connector, prospect } = event.data;
      return {
        line: `${requestedBy.name} asked ${connector.name} for a warm introduction to ${prospect.name}.`,
        prospect,
      };
    }
    case 'intro.replied': {
      const { requestedBy, connector, prospect } = event.data;
      return {
        line: `${connector.name} replied to ${requestedBy.name}'s request for an introduction to ${prospect.name}.`,
        prospect,
      };
    }
    case 'direct_message.sent':
      return {
        line: `${event.data.sentBy.name} wrote to ${event.data.prospect.name} directly.`,
        prospect: event.data.prospect,
      };
    case 'workflow.triggered': {
      const { workflow, signalType, bestConnector, prospect } = event.data;
      const connector = bestConnector
        ? ` Closest connector: ${bestConnector.name} (proximity ${bestConnector.proximity}).`
        : '';
      return { line: `Agent "${workflow.name}": ${SIGNAL_LABELS[signalType]}.${connector}`, prospect };
    }
    default:
      return null;
  }
}

/**
 * Writes an event as a note on the prospect's HubSpot contact (found by e-mail, or created) and on
 * their company (found by domain), once. HubSpot has no idempotency key: each note carries its
 * delivery's mark, and an attempt after one that may have written (`mayHaveWritten`) searches for it
 * first. The note's id comes back with the attempt, to be kept on the delivery.
 */
export async function sendHubspotNote(
  deps: HubspotAccountDeps,
  input: { workspaceId: string; deliveryId: string; event: TEventPayload; mayHaveWritten: boolean },
): Promise<DeliveryAttempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const body = noteBody(input.event, input.deliveryId);
  const told = noteLine(input.event);
  if (body === null || told === null)
    return { outcome: 'gone', statusCode: null, durationMs: 0, error: `HubSpot takes no ${input.event.type}` };
  const { prospect } = told;
  if (!prospect.email)
    return {
      outcome: 'gone',
      statusCode: null,
      durationMs: 0,
      error: `No e-mail address for ${prospect.name}: the HubSpot contact cannot be found`,
    };
  const email = prospect.email;
  const client = deps.hubspot;
  try {
    const account = await hubspotAccount(deps, input.workspaceId);
    const found = input.mayHaveWritten
      ? await account.call((token) => client.findNote(token, noteMark(input.deliveryId)))
      : null;
    if (found) return { outcome: 'delivered', statusCode: 200, durationMs: elapsed(), error: null, externalId: found };
    const [firstName = '', ...rest] = prospect.name.split(' ');
    const contactId = await account.call((token) =>
      client.contactFor(token, { email, firstName, lastName: rest.join(' ') }),
    );
    const domain = prospect.companyDomain;
    const companyId = domain ? await account.call((token) => client.companyByDomain(token, domain)) : null;
    const noteId = await account.call((token) =>
      client.writeNote(token, { body, timestamp: new Date(input.event.timestamp), contactId, companyId }),
    );
    return { outcome: 'delivered', statusCode: 201, durationMs: elapsed(), error: null, externalId: noteId };
  } catch (error) {
    if (error instanceof HubspotReconnectRequired)
      return { outcome: 'gone', statusCode: null, durationMs: elapsed(), error: error.message, reconnect: true };
    if (!(error instanceof HubspotCallError)) throw error;
    const { failure } = error;
    if (failure.kind === 'rate_limited')
      return {
        outcome: 'retry',
        statusCode: 429,
        durationMs: elapsed(),
        error: 'HubSpot: rate limited',
        retryAfterMs: failure.retryAfterSeconds * 1000,
      };
    const status = 'status' in failure ? failure.status : null;
    return { outcome: 'retry', statusCode: status || null, durationMs: elapsed(), error: error.message };
  }
}
