import type { TEventPayload } from '@warmpath/shared';
import type { Database, Tx } from '../db/client.ts';
import type { GoogleAccountDeps } from '../features/sources/google/google-account.ts';
import type { DeliveryAttempt, DeliveryStep } from '../integrations/attempt.ts';
import {
  type HubspotAccountDeps,
  hubspotEnabled,
  parseHubspotSettings,
} from '../integrations/hubspot/hubspot-account.ts';
import { sendHubspotNote } from '../integrations/hubspot/hubspot-destination.ts';
import { findWorkspaceIntegration, saveWorkspaceIntegration } from '../integrations/integrations.repo.ts';
import { nextEmailAttemptDelayMs, sendGmail } from '../integrations/mail/gmail-destination.ts';
import { type SlackDestinationDeps, sendSlack } from '../integrations/slack/slack-destination.ts';
import { parseSlackSettings, slackEnabled } from '../integrations/slack/slack-settings.ts';
import { nextAttemptDelayMs, shouldDisableEndpoint } from '../integrations/webhook/retry-schedule.ts';
import { sendWebhook, type WebhookDestinationDeps } from '../integrations/webhook/webhook-destination.ts';
import {
  parseWebhookSettings,
  type WebhookSettings,
  webhookEnabled,
} from '../integrations/webhook/webhook-settings.ts';
import type { DeliveryJob, JobQueue } from '../jobs/queue.ts';
import { type DeliveryKind, findDelivery, insertAttempt, updateDelivery } from './events.repo.ts';
import { createEventRecorder } from './record.ts';

/** The web app's webhook page (apps/web's PATHS.admin.webhook). */
const WEBHOOK_PAGE_PATH = '/admin/integrations/webhook';

export type DeliveryDeps = {
  database: Database;
  queue: Pick<JobQueue, 'enqueueDelivery'>;
  webhook: WebhookDestinationDeps;
  slack: SlackDestinationDeps;
  hubspot: HubspotAccountDeps;
  email: GoogleAccountDeps;
  /** The product's address, for the links in what is told about a destination. */
  publicUrl: string;
  now?: () => Date;
  /** Called at each step of an attempt where a worker may die: tests stop or kill a worker there. */
  at?: (step: DeliveryStep, job: DeliveryJob) => Promise<void>;
};

type Attempt = DeliveryAttempt;
type Loaded = NonNullable<Awaited<ReturnType<typeof findDelivery>>> & {
  integration: Awaited<ReturnType<typeof findWorkspaceIntegration>>;
};

const DISCONNECTED: Attempt = {
  outcome: 'gone',
  statusCode: null,
  durationMs: 0,
  error: 'The destination was disconnected',
};

/**
 * The delay before the next attempt, by attempts made; null once the schedule is spent. Events follow
 * the Standard Webhooks schedule (about three days); an e-mail someone is waiting for gives up within
 * a quarter of an hour, and its sender sees it and may send it again.
 */
const RETRY_SCHEDULES: Record<DeliveryKind, (attemptsMade: number) => number | null> = {
  webhook: nextAttemptDelayMs,
  slack: nextAttemptDelayMs,
  hubspot: nextAttemptDelayMs,
  email: nextEmailAttemptDelayMs,
};

/** Destinations without idempotency keys, asked whether an earlier attempt got through before trying again. */
const ASKED_FIRST = new Set<DeliveryKind>(['slack', 'hubspot']);

/** Whether the job is the delivery's next attempt: otherwise it was made already, or is no longer wanted. */
const isThisAttempt = (delivery: { status: string; attempts: number }, job: DeliveryJob) =>
  delivery.status === 'pending' && delivery.attempts === job.attempt;

/**
 * One attempt of a delivery (a pg-boss job). The attempt is made outside any transaction (it may take
 * 30 s), then recorded with the delivery locked; a job whose attempt number is no longer the
 * delivery's is stale (a retry of a job whose attempt was recorded) and does nothing. A worker that
 * dies after sending and before recording leaves the job to pg-boss's retry: a webhook receiver sees
 * the same delivery again, with the same `webhook-id`; Slack, which has no such id, is asked first
 * whether the message is already in the channel (`sending_since` says an attempt was under way);
 * an e-mail resumes from the Gmail draft it recorded (gmail-destination.ts).
 */
export async function deliverEvent(deps: DeliveryDeps, job: DeliveryJob): Promise<void> {
  const { workspaceId, deliveryId } = job;
  const now = deps.now ?? (() => new Date());
  const current = await deps.database.inWorkspace(workspaceId, async (tx): Promise<Loaded | null> => {
    const row = await findDelivery(tx, workspaceId, deliveryId, true);
    if (!row || !isThisAttempt(row.delivery, job)) return null;
    const { destination } = row.delivery;
    const integration = destination === 'email' ? null : await findWorkspaceIntegration(tx, workspaceId, destination);
    // Slack and HubSpot have no idempotency key: a later attempt that finds this set asks them first.
    if (ASKED_FIRST.has(row.delivery.destination) && row.delivery.sendingSince === null)
      await updateDelivery(tx, workspaceId, deliveryId, { sendingSince: now() });
    return { ...row, integration };
  });
  if (!current) return;

  const at = (step: DeliveryStep) => deps.at?.(step, job) ?? Promise.resolve();
  await at('before-send');
  const attempt = await makeAttempt(deps, current, at);
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    const locked = await findDelivery(tx, workspaceId, deliveryId, true);
    if (!locked || !isThisAttempt(locked.delivery, job)) return;
    const attempts = job.attempt + 1;
    const scheduled = attempt.outcome === 'retry' ? RETRY_SCHEDULES[locked.delivery.destination](attempts) : null;
    // A rate limit's Retry-After is honoured, never sooner than the schedule.
    const delay = scheduled === null ? null : Math.max(scheduled, attempt.retryAfterMs ?? 0);
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
      sendingSince: null,
      deliveredAt: attempt.outcome === 'delivered' ? now() : null,
      ...(attempt.externalId ? { externalId: attempt.externalId } : {}),
    });
    if (nextAttemptAt)
      await deps.queue.enqueueDelivery(tx, { workspaceId, deliveryId, attempt: attempts }, nextAttemptAt);
    await followDestinationHealth(deps, tx, current, attempt, now());
  });
}

/** Makes the attempt with the destination's own sender; a destination removed meanwhile ends the delivery. */
async function makeAttempt(
  deps: DeliveryDeps,
  current: Loaded,
  at: (step: DeliveryStep) => Promise<void>,
): Promise<Attempt> {
  const { delivery, event, integration } = current;
  if (delivery.destination === 'email' && delivery.emailId)
    return sendGmail(deps.email, { workspaceId: delivery.workspaceId, emailId: delivery.emailId, at });
  const sealed = integration?.sealedTokens;
  if (!sealed || !event) return DISCONNECTED;
  if (delivery.destination === 'webhook') {
    const settings = parseWebhookSettings(integration.settings);
    if (!webhookEnabled(settings)) return DISCONNECTED;
    const attempt = await sendWebhook(deps.webhook, { deliveryId: delivery.id, event, settings, sealedSecret: sealed });
    await at('after-send');
    return attempt;
  }
  // The event was checked against the catalogue when it was recorded.
  const payload = { type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data } as TEventPayload;
  if (delivery.destination === 'hubspot') {
    if (!hubspotEnabled(parseHubspotSettings(integration.settings))) return DISCONNECTED;
    const attempt = await sendHubspotNote(deps.hubspot, {
      workspaceId: delivery.workspaceId,
      deliveryId: delivery.id,
      event: payload,
      mayHaveWritten: delivery.sendingSince !== null,
    });
    await at('after-send');
    return attempt;
  }
  const settings = parseSlackSettings(integration.settings);
  if (!slackEnabled(settings)) return DISCONNECTED;
  const attempt = await sendSlack(deps.slack, {
    deliveryId: delivery.id,
    event: payload,
    occurredAt: event.occurredAt,
    settings,
    sealedToken: sealed,
    mayHavePosted: delivery.sendingSince !== null,
  });
  await at('after-send');
  return attempt;
}

/**
 * What an attempt says about its destination. A webhook: a success clears its failing streak; 410
 * Gone, or failing without a success for five days, disables it until an admin saves its URL again.
 * Slack: a refused token means the admin must connect again.
 */
async function followDestinationHealth(deps: DeliveryDeps, tx: Tx, current: Loaded, attempt: Attempt, now: Date) {
  const { workspaceId } = current.delivery;
  const stored = current.integration?.settings ?? null;
  // A refused Google or HubSpot grant already marked its connection (google-account.ts, hubspot-account.ts).
  if (current.delivery.destination === 'email' || current.delivery.destination === 'hubspot') return;
  if (current.delivery.destination === 'slack') {
    const settings = parseSlackSettings(stored);
    if (settings && attempt.reconnect && !settings.reconnectRequired)
      await saveWorkspaceIntegration(tx, workspaceId, 'slack', {
        settings: JSON.stringify({ ...settings, reconnectRequired: true }),
      });
    return;
  }
  const settings = parseWebhookSettings(stored);
  if (!settings) return;
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
  if (JSON.stringify(next) === JSON.stringify(settings)) return;
  await saveWorkspaceIntegration(tx, workspaceId, 'webhook', { settings: JSON.stringify(next) });
  // The admins are told where they look: every page they open (the web app asks), and the team's channel.
  if (next.disabledReason && !settings.disabledReason)
    await createEventRecorder(deps.queue).record(
      tx,
      workspaceId,
      'webhook.disabled',
      { url: settings.url, reason: next.disabledReason, settingsUrl: `${deps.publicUrl}${WEBHOOK_PAGE_PATH}` },
      { only: 'slack' },
    );
}
