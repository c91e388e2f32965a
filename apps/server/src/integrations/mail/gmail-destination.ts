import {
  type GoogleAccountDeps,
  GoogleReconnectRequired,
  googleAccount,
  httpStatus,
} from '../../features/sources/google/google-account.ts';
import type { DeliveryAttempt, StepHook } from '../attempt.ts';
import { composeRaw } from './compose.ts';
import { findOutboxMessage, findSenderName, updateOutboxMessage } from './outbox.repo.ts';

/** After a failed attempt: 30 s, 1 min, 2 min, 4 min, 8 min; six attempts in all. */
const EMAIL_RETRY_SCHEDULE_MS: readonly number[] = [0, 30_000, 60_000, 120_000, 240_000, 480_000];

/** The delay before an e-mail's next attempt, by attempts made; null once it has failed for good. */
export function nextEmailAttemptDelayMs(attemptsMade: number): number | null {
  return EMAIL_RETRY_SCHEDULE_MS[attemptsMade] ?? null;
}

/** How many of the sender's latest sent messages are searched for ours after a crash (see `findSent`). */
const SENT_LOOKBACK = 50;

/**
 * Sends one e-mail through its sender's Gmail, once: create a draft and record its id, then send that
 * draft and record the sent message. A retry after a crash resumes from what was recorded. Sending a
 * recorded draft that Gmail no longer has means either that it was sent before the crash was
 * recorded, or that the sender deleted it from their Drafts: the sender's Sent mail tells which (our
 * Message-ID), and only a message that is not there is composed again.
 */
export async function sendGmail(
  deps: GoogleAccountDeps,
  input: { workspaceId: string; emailId: string; at?: StepHook },
): Promise<DeliveryAttempt> {
  const { workspaceId, emailId } = input;
  const at = input.at ?? (async () => {});
  const started = performance.now();
  const result = (outcome: DeliveryAttempt['outcome'], error: string | null, statusCode: number | null) => ({
    outcome,
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const update = (change: Parameters<typeof updateOutboxMessage>[3]) =>
    deps.database.inWorkspace(workspaceId, (tx) => updateOutboxMessage(tx, workspaceId, emailId, change));

  const email = await deps.database.inWorkspace(workspaceId, (tx) => findOutboxMessage(tx, workspaceId, emailId));
  if (!email) return result('gone', 'The e-mail no longer exists', null);
  if (email.status === 'sent') return result('delivered', null, 200);
  try {
    const account = await gmailAccount(deps, workspaceId, email.senderUserId);
    const { gmail } = account;
    let draftId = email.draftId;
    for (let composed = 0; ; composed++) {
      if (!draftId) {
        const sender = await deps.database.inWorkspace(workspaceId, (tx) =>
          findSenderName(tx, workspaceId, email.senderUserId),
        );
        const address = account.email ?? sender?.email ?? '';
        const from = sender ? `"${sender.name}" <${address}>` : address;
        const raw = await composeRaw(from, email.message);
        const draft = await account.call(() =>
          gmail.users.drafts.create({ userId: 'me', requestBody: { message: { raw } } }),
        );
        draftId = draft.data.id ?? null;
        if (!draftId) return result('retry', 'Gmail returned a draft without an id', null);
        await update({ draftId, status: 'drafted' });
        await at('after-draft');
      }
      const sent = await sendDraft(account, draftId);
      if (sent === 'missing') {
        const found = await findSent(account, email.message.messageId);
        if (found) {
          await update({ status: 'sent', gmailMessageId: found, sentAt: new Date() });
          return result('delivered', null, 200);
        }
        // Deleted from Drafts before it left: compose it again (once per attempt).
        if (composed > 0) return result('retry', 'Gmail lost the draft twice', 404);
        await update({ draftId: null, status: 'pending' });
        draftId = null;
        continue;
      }
      await at('after-send');
      await update({ status: 'sent', gmailMessageId: sent, sentAt: new Date() });
      return result('delivered', null, 200);
    }
  } catch (error) {
    if (error instanceof GoogleReconnectRequired) return { ...result('gone', error.message, null), reconnect: true };
    if (error instanceof GmailCallFailed) return result('retry', error.message, error.status);
    // Anything else is ours (a bug, the database): the job fails and pg-boss tries it again.
    throw error;
  }
}

/** A Gmail call that failed: a failed attempt, retried on the e-mail's schedule. */
class GmailCallFailed extends Error {
  constructor(
    readonly status: number | null,
    cause: unknown,
  ) {
    super(`Gmail: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The sender's Gmail, whose calls fail as GmailCallFailed (or GoogleReconnectRequired). */
async function gmailAccount(deps: GoogleAccountDeps, workspaceId: string, userId: string) {
  const account = await googleAccount(deps, workspaceId, userId);
  return {
    email: account.email,
    gmail: deps.google.gmail(account.auth),
    async call<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await account.call(work);
      } catch (error) {
        if (error instanceof GoogleReconnectRequired) throw error;
        throw new GmailCallFailed(httpStatus(error) ?? null, error);
      }
    },
  };
}

type Account = Awaited<ReturnType<typeof gmailAccount>>;

/** Sends a recorded draft; 'missing' when Gmail has no such draft any more. */
async function sendDraft(account: Account, draftId: string) {
  try {
    const sent = await account.call(() =>
      account.gmail.users.drafts.send({ userId: 'me', requestBody: { id: draftId } }),
    );
    return sent.data.id ?? null;
  } catch (error) {
    if (error instanceof GmailCallFailed && error.status === 404) return 'missing' as const;
    throw error;
  }
}

/**
 * The Gmail id of our message among the sender's latest sent mail, found by its Message-ID. Gmail's
 * search (`rfc822msgid:`) is closed to the metadata scope, so the latest few are read instead: a
 * retry follows its crash within a minute, and the message is then among the newest.
 */
async function findSent(account: Account, messageId: string): Promise<string | null> {
  const { gmail } = account;
  const list = await account.call(() =>
    gmail.users.messages.list({ userId: 'me', labelIds: ['SENT'], maxResults: SENT_LOOKBACK }),
  );
  for (const { id } of list.data.messages ?? []) {
    if (!id) continue;
    const message = await account.call(() =>
      gmail.users.messages.get({ userId: 'me', id, format: 'metadata', metadataHeaders: ['Message-ID'] }),
    );
    const header = message.data.payload?.headers?.find((h) => h.name?.toLowerCase() === 'message-id');
    if (header?.value === messageId) return id;
  }
  return null;
}
