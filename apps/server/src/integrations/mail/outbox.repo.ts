import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { outbox, outboxDispatch } from '../../db/schema/index.ts';
import type { OutgoingEmail } from './compose.ts';

/** Queues an e-mail inside the caller's transaction: it leaves only if the business change commits. */
export async function insertOutboxEmail(
  tx: Tx,
  email: { workspaceId: string; senderUserId: string; purpose: string; message: OutgoingEmail },
) {
  const [row] = await tx.insert(outbox).values(email).returning({ id: outbox.id });
  if (!row) throw new Error('insert returned no row');
  await tx.insert(outboxDispatch).values({ outboxId: row.id, workspaceId: email.workspaceId });
  return row.id;
}

/**
 * Claims up to `limit` due messages for `leaseSeconds`: a dispatcher that dies mid-send leaves its
 * claim to expire, and another picks the message up.
 */
export async function claimDueMessages(db: Db, limit: number, leaseSeconds: number, workspaceId?: string) {
  const inWorkspace = workspaceId ? sql`and workspace_id = ${workspaceId}` : sql``;
  const claimed = await db.execute<{ outbox_id: string; workspace_id: string }>(sql`
    update ${outboxDispatch} set due_at = now() + make_interval(secs => ${leaseSeconds})
     where outbox_id in (select outbox_id from ${outboxDispatch} where due_at <= now() ${inWorkspace}
                          order by due_at limit ${limit} for update skip locked)
    returning outbox_id, workspace_id`);
  return claimed.rows.map((row) => ({ outboxId: row.outbox_id, workspaceId: row.workspace_id }));
}

export async function releaseMessage(db: Db, outboxId: string, retryAt: Date | null) {
  if (retryAt) await db.update(outboxDispatch).set({ dueAt: retryAt }).where(eq(outboxDispatch.outboxId, outboxId));
  else await db.delete(outboxDispatch).where(eq(outboxDispatch.outboxId, outboxId));
}

export async function findOutboxMessage(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .select()
    .from(outbox)
    .where(and(eq(outbox.workspaceId, workspaceId), eq(outbox.id, id)));
  return row ?? null;
}

export async function updateOutboxMessage(
  tx: Tx,
  workspaceId: string,
  id: string,
  change: Partial<
    Pick<typeof outbox.$inferInsert, 'status' | 'draftId' | 'gmailMessageId' | 'attempts' | 'lastError' | 'sentAt'>
  >,
) {
  await tx
    .update(outbox)
    .set(change)
    .where(and(eq(outbox.workspaceId, workspaceId), eq(outbox.id, id)));
}

/** A member's e-mails that failed at least once and have not been sent, newest first. */
export async function findUndeliveredEmails(tx: Tx, workspaceId: string, senderUserId: string) {
  return tx
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.workspaceId, workspaceId),
        eq(outbox.senderUserId, senderUserId),
        sql`${outbox.status} <> 'sent' and (${outbox.status} = 'failed' or ${outbox.attempts} > 0)`,
      ),
    )
    .orderBy(desc(outbox.createdAt))
    .limit(50);
}

/** Puts a failed e-mail back in the queue, with a fresh count of attempts. */
export async function requeueFailedEmail(tx: Tx, workspaceId: string, senderUserId: string, id: string) {
  const updated = await tx
    .update(outbox)
    .set({ status: 'pending', attempts: 0, lastError: null })
    .where(
      and(
        eq(outbox.workspaceId, workspaceId),
        eq(outbox.senderUserId, senderUserId),
        eq(outbox.id, id),
        eq(outbox.status, 'failed'),
      ),
    )
    .returning({ id: outbox.id });
  if (updated.length === 0) return false;
  await tx
    .insert(outboxDispatch)
    .values({ outboxId: id, workspaceId })
    .onConflictDoUpdate({
      target: outboxDispatch.outboxId,
      set: { dueAt: sql`now()` },
    });
  return true;
}
