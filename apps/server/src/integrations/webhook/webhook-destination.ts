import type { Sealer } from '../../lib/sealing.ts';
import { deliverWebhook, type ResolveHost } from './egress.ts';
import { attemptOutcome } from './retry-schedule.ts';
import { signedHeaders } from './signing.ts';
import type { WebhookSettings } from './webhook-settings.ts';

export type WebhookDestinationDeps = {
  sealer: Sealer;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: on-premise installs and tests reach private addresses. */
  allowPrivateTargets: boolean;
  resolve?: ResolveHost;
};

/** The `webhook-id` of a delivery: the same on every retry, so receivers can drop repeats. */
export const webhookId = (deliveryId: string) => `msg_${deliveryId}`;

/** One signed POST of an event to the workspace's endpoint; what happened, never a throw. */
export async function sendWebhook(
  deps: WebhookDestinationDeps,
  input: {
    deliveryId: string;
    event: { type: string; occurredAt: Date; data: unknown };
    settings: WebhookSettings;
    sealedSecret: string;
  },
) {
  const body = JSON.stringify({
    type: input.event.type,
    timestamp: input.event.occurredAt.toISOString(),
    data: input.event.data,
  });
  const headers = signedHeaders({
    secret: deps.sealer.open(input.sealedSecret),
    id: webhookId(input.deliveryId),
    timestamp: new Date(),
    body,
  });
  const result = await deliverWebhook({
    url: input.settings.url,
    body,
    headers,
    allowPrivateTargets: deps.allowPrivateTargets,
    resolve: deps.resolve,
  });
  return {
    outcome: attemptOutcome({ status: result.status, error: result.error }),
    statusCode: result.status,
    durationMs: result.durationMs,
    error: result.error ?? (result.status !== null && result.status >= 300 ? `HTTP ${result.status}` : null),
  };
}
