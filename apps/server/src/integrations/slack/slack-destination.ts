import type { TEventPayload } from '@warmpath/shared';
import type { Sealer } from '../../lib/sealing.ts';
import type { DeliveryAttempt } from '../attempt.ts';
import { SlackCallError, type SlackClient } from './slack-client.ts';
import { slackMessage } from './slack-messages.ts';
import type { SlackSettings } from './slack-settings.ts';

export type SlackDestinationDeps = { sealer: Sealer; client: SlackClient };

/** How our messages are marked in Slack (message metadata), to find one again after a crash. */
const METADATA_EVENT_TYPE = 'warmpath_event';
/** How far back, before the event, a crashed attempt's message is looked for. */
const LOOKBACK_MS = 60_000;

/**
 * Posts an event to the workspace's channel, once. Slack has no idempotency key, so each message
 * carries its delivery id in its metadata; when an earlier attempt may have posted before its worker
 * died (`mayHavePosted`), the channel's recent history is asked first.
 */
export async function sendSlack(
  deps: SlackDestinationDeps,
  input: {
    deliveryId: string;
    event: TEventPayload;
    occurredAt: Date;
    settings: SlackSettings;
    sealedToken: string;
    mayHavePosted: boolean;
  },
): Promise<DeliveryAttempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const message = slackMessage(input.event);
  if (!message)
    return { outcome: 'gone', statusCode: null, durationMs: 0, error: `Slack takes no ${input.event.type}` };
  const token = deps.sealer.open(input.sealedToken);
  try {
    if (input.mayHavePosted) {
      const posted = await deps.client.findMessageByMetadata(
        token,
        input.settings.channelId,
        METADATA_EVENT_TYPE,
        'delivery_id',
        input.deliveryId,
        { oldest: new Date(input.occurredAt.getTime() - LOOKBACK_MS) },
      );
      if (posted) return { outcome: 'delivered', statusCode: 200, durationMs: elapsed(), error: null };
    }
    await deps.client.postMessage(token, {
      channel: input.settings.channelId,
      ...message,
      metadata: {
        event_type: METADATA_EVENT_TYPE,
        event_payload: { delivery_id: input.deliveryId, type: input.event.type },
      },
    });
    return { outcome: 'delivered', statusCode: 200, durationMs: elapsed(), error: null };
  } catch (error) {
    if (!(error instanceof SlackCallError)) throw error;
    const { failure } = error;
    const base = { durationMs: elapsed(), error: `Slack: ${failure.code}` };
    if (failure.kind === 'rate_limited')
      return { ...base, outcome: 'retry', statusCode: 429, retryAfterMs: failure.retryAfterSeconds * 1000 };
    if (failure.kind === 'revoked') return { ...base, outcome: 'gone', statusCode: null, reconnect: true };
    return { ...base, outcome: 'retry', statusCode: null };
  }
}
