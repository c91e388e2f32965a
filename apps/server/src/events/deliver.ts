import type { Database, Tx } from '../db/client.ts';
import { findWorkspaceIntegration, saveWorkspaceIntegration } from '../integrations/integrations.repo.ts';
import { nextAttemptDelayMs, shouldDisableEndpoint } from '../integrations/webhook/retry-schedule.ts';
import { sendWebhook, type WebhookDestinationDeps } from '../integrations/webhook/webhook-destination.ts';
import {
  parseWebhookSettings,
  type WebhookSettings,
  webhookEnabled,
} from '../integrations/webhook/webhook-settings.ts';
import type { DeliveryJob, JobQueue } from '../jobs/queue.ts';
import { findDelivery, insertAttempt, updateDelivery } from './events.repo.ts';

export type DeliveryDeps = {
  database: Database;
  queue: Pick<JobQueue, 'enqueueDelivery'>;
  webhook: WebhookDestinationDeps;
  now?: () => Date;
  /** Called once the destination has answered, before the attempt is recorded: tests stop a worker there. */
  afterSend?: (job: DeliveryJob) => Promise<void>;
};

type Attempt = {
  outcome: 'delivered' | 'gone' | 'retry';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
};

/** Whether the job is the delivery's next attempt: otherwise it was made already, or is no longer wanted. */
const isThisAttempt = (delivery: { status: string; attempts: number }, job: DeliveryJob) =>
  delivery.status === 'pending' && delivery.attempts === job.attempt;

/**
 * One attempt of a delivery (a pg-boss job). The attempt is made outside any transaction (it may take
 * 30 s), then recorded with the delivery locked; a job whose attempt number is no longer the
 * delivery's is stale (a retry of a job whose attempt was recorded) and does nothing. A worker that
 * dies after sending and before recording leaves the job to pg-boss's retry: the destination sees the
 * same delivery again, with the same `webhook-id`.
 */
export async function deliverEvent(deps: DeliveryDeps, job: DeliveryJob): Promise<void> {
  const { workspaceId, deliveryId } = job;
  const now = deps.now ?? (() => new Date());
  const current = await deps.database.inWorkspace(workspaceId, async (tx) => {
    const row = await findDelivery(tx, workspaceId, deliveryId);
    if (!row || !isThisAttempt(row.delivery, job)) return null;
    const integration = await findWorkspaceIntegration(tx, workspaceId, row.delivery.destination);
    return { ...row, integration };
  });
  if (!current) return;

  const settings = parseWebhookSettings(current.integration?.settings ?? null);
  const attempt: Attempt =
    webhookEnabled(settings) && current.integration?.sealedTokens
      ? await sendWebhook(deps.webhook, {
          deliveryId,
          event: current.event,
          settings,
          sealedSecret: current.integration.sealedTokens,
        })
      : { outcome: 'gone', statusCode: null, durationMs: 0, error: 'The destination was disconnected' };

  await deps.afterSend?.(job);
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    const locked = await findDelivery(tx, workspaceId, deliveryId, true);
    if (!locked || !isThisAttempt(locked.delivery, job)) return;
    const attempts = job.attempt + 1;
    const delay = attempt.outcome === 'retry' ? nextAttemptDelayMs(attempts) : null;
    const nextAttemptAt = delay === null ? null : new Date(now().getTime() + delay);
    await insertAttempt(tx, {
      workspaceId,
      deliveryId,
      destination: locked.delivery.destination,
      statusCode: attempt.statusCode,
      durationMs: attempt.durationMs,
      error: attempt.error,
      nextAttemptAt,
    });
    await updateDelivery(tx, workspaceId, deliveryId, {
      attempts,
      status: attempt.outcome === 'delivered' ? 'delivered' : nextAttemptAt ? 'pending' : 'failed',
      nextAttemptAt,
      lastError: attempt.error,
      deliveredAt: attempt.outcome === 'delivered' ? now() : null,
    });
    if (nextAttemptAt)
      await deps.queue.enqueueDelivery(tx, { workspaceId, deliveryId, attempt: attempts }, nextAttemptAt);
    if (settings) await followEndpointHealth(tx, workspaceId, settings, attempt, now());
  });
}

/**
 * A success clears the endpoint's failing streak; 410 Gone, or failing without a success for five
 * days, disables it: no event is queued for it until an admin saves its URL again.
 */
async function followEndpointHealth(
  tx: Tx,
  workspaceId: string,
  settings: WebhookSettings,
  attempt: Attempt,
  now: Date,
) {
  let next: WebhookSettings = settings;
  if (attempt.outcome === 'delivered') next = { ...settings, failingSince: null };
  else if (attempt.outcome === 'gone' && attempt.statusCode === 410)
    next = { ...settings, disabledAt: now.toISOString(), disabledReason: 'The endpoint answered 410 Gone.' };
  else {
    const failingSince = settings.failingSince ?? now.toISOString();
    next = shouldDisableEndpoint(new Date(failingSince), now)
      ? {
          ...settings,
          failingSince,
          disabledAt: now.toISOString(),
          disabledReason: 'Every delivery failed for 5 days.',
        }
      : { ...settings, failingSince };
  }
  if (JSON.stringify(next) !== JSON.stringify(settings))
    await saveWorkspaceIntegration(tx, workspaceId, 'webhook', { settings: JSON.stringify(next) });
}
