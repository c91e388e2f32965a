import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import {
  type GoogleAccountDeps,
  GoogleReconnectRequired,
  googleAccount,
  httpStatus,
} from '../../features/sources/google/google-account.ts';
import { composeRaw } from './compose.ts';
import { claimDueMessages, findOutboxMessage, releaseMessage, updateOutboxMessage } from './outbox.repo.ts';

export const OUTBOX_MAX_ATTEMPTS = 6;
const BACKOFF_BASE_SECONDS = 30;

export type DispatcherOptions = {
  /** How long a claim holds before another dispatcher may take the message over. */
  leaseSeconds?: number;
  batchSize?: number;
  /** Only this workspace's messages: for tests, whose files share one database and each its own sandbox. */
  workspaceId?: string;
  log?: (message: string, detail?: Record<string, unknown>) => void;
};

/** 30 s, 1 min, 2 min, 4 min, ... after each failed attempt. */
export function retryDelaySeconds(attempts: number) {
  return BACKOFF_BASE_SECONDS * 2 ** (attempts - 1);
}

/**
 * Sends one outbox message through its sender's Gmail: create a draft and record its id, then send
 * that draft. If an earlier attempt died after sending but before recording it, the draft is gone
 * (Gmail answers 404) and the message counts as sent: whatever happens, it leaves once.
 */
async function deliver(deps: GoogleAccountDeps, workspaceId: string, outboxId: string) {
  const load = () => deps.database.inWorkspace(workspaceId, (tx) => findOutboxMessage(tx, workspaceId, outboxId));
  const update = (change: Parameters<typeof updateOutboxMessage>[3]) =>
    deps.database.inWorkspace(workspaceId, (tx) => updateOutboxMessage(tx, workspaceId, outboxId, change));

  let row = await load();
  if (!row || row.status === 'sent' || row.status === 'failed') return;
  const account = await googleAccount(deps, workspaceId, row.senderUserId);
  const gmail = deps.google.gmail(account.auth);

  if (!row.draftId) {
    const [sender] = await deps.database.inWorkspace(workspaceId, (tx) =>
      tx
        .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(and(eq(users.workspaceId, workspaceId), eq(users.id, row?.senderUserId ?? ''))),
    );
    const address = account.email ?? sender?.email ?? '';
    const from = sender ? `"${`${sender.firstName} ${sender.lastName}`.trim()}" <${address}>` : address;
    const raw = await composeRaw(from, row.message);
    const draft = await account.call(() =>
      gmail.users.drafts.create({ userId: 'me', requestBody: { message: { raw } } }),
    );
    await update({ draftId: draft.data.id ?? null, status: 'drafted' });
    row = await load();
    if (!row?.draftId) throw new Error('Gmail returned a draft without an id');
  }

  const draftId = row.draftId;
  try {
    const sent = await account.call(() => gmail.users.drafts.send({ userId: 'me', requestBody: { id: draftId } }));
    await update({ status: 'sent', gmailMessageId: sent.data.id ?? null, sentAt: new Date(), lastError: null });
  } catch (error) {
    if (httpStatus(error) !== 404) throw error;
    await update({ status: 'sent', sentAt: new Date(), lastError: null });
  }
}

/** One pass over the due messages; returns how many it handled. */
export async function dispatchDueMessages(deps: GoogleAccountDeps, options: DispatcherOptions = {}) {
  const claimed = await claimDueMessages(
    deps.database.db,
    options.batchSize ?? 10,
    options.leaseSeconds ?? 300,
    options.workspaceId,
  );
  for (const { outboxId, workspaceId } of claimed) {
    try {
      await deliver(deps, workspaceId, outboxId);
      await releaseMessage(deps.database.db, outboxId, null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const row = await deps.database.inWorkspace(workspaceId, (tx) => findOutboxMessage(tx, workspaceId, outboxId));
      const attempts = (row?.attempts ?? 0) + 1;
      const giveUp = error instanceof GoogleReconnectRequired || attempts >= OUTBOX_MAX_ATTEMPTS;
      await deps.database.inWorkspace(workspaceId, (tx) =>
        updateOutboxMessage(tx, workspaceId, outboxId, {
          attempts,
          lastError: message,
          ...(giveUp ? { status: 'failed' as const } : {}),
        }),
      );
      await releaseMessage(
        deps.database.db,
        outboxId,
        giveUp ? null : new Date(Date.now() + retryDelaySeconds(attempts) * 1000),
      );
      options.log?.('outbox delivery failed', { outboxId, attempts, giveUp, error: message });
    }
  }
  return claimed.length;
}

/** Polls the outbox every `intervalMs` until stopped; stopping waits for the pass in progress. */
export function startOutboxDispatcher(
  deps: GoogleAccountDeps,
  options: DispatcherOptions & { intervalMs?: number } = {},
) {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const loop = async () => {
    while (!stopped) {
      current = dispatchDueMessages(deps, options).catch((error: unknown) =>
        options.log?.('outbox pass failed', { error: String(error) }),
      );
      await current;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
    }
  };
  void loop();
  return {
    stop: async () => {
      stopped = true;
      await current;
    },
  };
}
