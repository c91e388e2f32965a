import {
  DELIVERY_LOG_SIZE,
  type EventType,
  type TDeliveryLog,
  type TSetWebhookUrl,
  type TWebhookEndpoint,
  type TWebhookSaved,
  type TWebhookSecret,
} from '@warmpath/shared';
import type { Database, Tx } from '../../db/client.ts';
import { countWaitingDeliveries, findDelivery, findRecentAttempts, updateDelivery } from '../../events/events.repo.ts';
import type { EventRecorder } from '../../events/record.ts';
import {
  deleteWorkspaceIntegration,
  findWorkspaceIntegration,
  saveWorkspaceIntegration,
} from '../../integrations/integrations.repo.ts';
import { checkWebhookTarget, type ResolveHost } from '../../integrations/webhook/egress.ts';
import { newWebhookSecret } from '../../integrations/webhook/signing.ts';
import { parseWebhookSettings, type WebhookSettings } from '../../integrations/webhook/webhook-settings.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Sealer } from '../../lib/sealing.ts';
import type { Member } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.repo.ts';

export type IntegrationsDeps = {
  database: Database;
  sealer: Sealer;
  events: EventRecorder;
  queue: Pick<JobQueue, 'enqueueDelivery'>;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS */
  allowPrivateTargets: boolean;
  resolve?: ResolveHost;
};

const NO_WEBHOOK = 'No webhook endpoint is configured';

/** Enough of a secret to tell two apart, never enough to sign with. */
const secretPreview = (secret: string) => `${secret.slice(0, 'whsec_'.length + 4)}…`;

function endpointView(settings: WebhookSettings, secret: string): TWebhookEndpoint {
  return {
    url: settings.url,
    secretPreview: secretPreview(secret),
    disabledReason: settings.disabledAt ? settings.disabledReason : null,
    failingSince: settings.failingSince,
  };
}

async function loadWebhook(deps: IntegrationsDeps, tx: Tx, workspaceId: string) {
  const row = await findWorkspaceIntegration(tx, workspaceId, 'webhook');
  const settings = parseWebhookSettings(row?.settings ?? null);
  if (!row?.sealedTokens || !settings) return null;
  return { settings, secret: deps.sealer.open(row.sealedTokens) };
}

/**
 * Saves the endpoint (spec: 'the webhook becomes connected after a save'). The address is checked
 * now, and again at every delivery, since DNS can change. Saving again re-enables a disabled endpoint
 * and keeps its secret; the first save creates the secret and answers it.
 */
export async function setWebhookUrl(
  deps: IntegrationsDeps,
  member: Member,
  { webhookUrl }: TSetWebhookUrl,
): Promise<TWebhookSaved> {
  const target = await checkWebhookTarget(webhookUrl, {
    allowPrivateTargets: deps.allowPrivateTargets,
    resolve: deps.resolve,
  });
  if (!target.ok) throw new AppError('VALIDATION_FAILED', target.reason);
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const existing = await loadWebhook(deps, tx, member.workspaceId);
    const secret = existing?.secret ?? newWebhookSecret();
    const settings: WebhookSettings = { url: webhookUrl, failingSince: null, disabledAt: null, disabledReason: null };
    await saveWorkspaceIntegration(tx, member.workspaceId, 'webhook', {
      settings: JSON.stringify(settings),
      sealedTokens: deps.sealer.seal(secret),
    });
    await recordAudit(tx, member.workspaceId, {
      actorUserId: member.userId,
      action: 'source.connected',
      subject: 'Webhook',
      details: { url: webhookUrl },
    });
    return { endpoint: endpointView(settings, secret), secret: existing ? null : secret };
  });
}

export async function getWebhook(deps: IntegrationsDeps, member: Member): Promise<TWebhookEndpoint | null> {
  const webhook = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    loadWebhook(deps, tx, member.workspaceId),
  );
  return webhook ? endpointView(webhook.settings, webhook.secret) : null;
}

/** Removes the endpoint and its secret; deliveries still queued for it end as failed when they come up. */
export async function deleteWebhookUrl(deps: IntegrationsDeps, member: Member): Promise<void> {
  const deleted = await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const gone = await deleteWorkspaceIntegration(tx, member.workspaceId, 'webhook');
    if (gone) {
      await recordAudit(tx, member.workspaceId, {
        actorUserId: member.userId,
        action: 'source.disconnected',
        subject: 'Webhook',
      });
    }
    return gone;
  });
  if (!deleted) throw new AppError('NOT_FOUND', NO_WEBHOOK);
}

export async function revealWebhookSecret(deps: IntegrationsDeps, member: Member): Promise<TWebhookSecret> {
  const webhook = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    loadWebhook(deps, tx, member.workspaceId),
  );
  if (!webhook) throw new AppError('NOT_FOUND', NO_WEBHOOK);
  return { secret: webhook.secret };
}

/**
 * A new secret at once: deliveries from now on are signed with it (a retry too, since each attempt
 * is signed when it is made), so the receiver must switch as soon as the admin rotates.
 */
export async function rotateWebhookSecret(deps: IntegrationsDeps, member: Member): Promise<TWebhookSecret> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const webhook = await loadWebhook(deps, tx, member.workspaceId);
    if (!webhook) throw new AppError('NOT_FOUND', NO_WEBHOOK);
    const secret = newWebhookSecret();
    await saveWorkspaceIntegration(tx, member.workspaceId, 'webhook', {
      settings: JSON.stringify(webhook.settings),
      sealedTokens: deps.sealer.seal(secret),
    });
    return { secret };
  });
}

export async function webhookDeliveryLog(deps: IntegrationsDeps, member: Member): Promise<TDeliveryLog> {
  const { rows, waiting } = await deps.database.inWorkspace(member.workspaceId, async (tx) => ({
    rows: await findRecentAttempts(tx, member.workspaceId, 'webhook', DELIVERY_LOG_SIZE),
    waiting: await countWaitingDeliveries(tx, member.workspaceId, 'webhook'),
  }));
  return {
    attempts: rows.map((row) => ({
      ...row,
      eventType: row.eventType as EventType,
      attemptedAt: row.attemptedAt.toISOString(),
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    })),
    waiting,
  };
}

/** 'Send test event': a `webhook.test` event to the endpoint alone, through the same outbox as any other. */
export async function sendTestWebhook(deps: IntegrationsDeps, member: Member): Promise<void> {
  const eventId = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    deps.events.record(
      tx,
      member.workspaceId,
      'webhook.test',
      { message: 'A test event sent from the webhook page.' },
      { only: 'webhook' },
    ),
  );
  if (!eventId) throw new AppError('NOT_FOUND', NO_WEBHOOK);
}

/** 'Retry' in the log: a delivery that gave up gets one more attempt now, with the same webhook-id. */
export async function retryDelivery(deps: IntegrationsDeps, member: Member, deliveryId: string): Promise<void> {
  const { workspaceId } = member;
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    const row = await findDelivery(tx, workspaceId, deliveryId, true);
    if (!row) throw new AppError('NOT_FOUND', 'No such delivery');
    if (row.delivery.status !== 'failed')
      throw new AppError('VALIDATION_FAILED', 'Only a failed delivery can be retried');
    await updateDelivery(tx, workspaceId, deliveryId, { status: 'pending', nextAttemptAt: new Date() });
    await deps.queue.enqueueDelivery(tx, { workspaceId, deliveryId, attempt: row.delivery.attempts });
  });
}
