import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { deliveries, outbox, users } from '../../db/schema/index.ts';
import type { OutgoingEmail } from './compose.ts';

/** Writes an e-mail inside the caller's transaction; its delivery is queued beside it (send-email.ts). */
export async function insertOutboxEmail(
  tx: Tx,
  email: { workspaceId: string; senderUserId: string; purpose: string; message: OutgoingEmail },
) {
  const [row] = await tx.insert(outbox).values(email).returning({ id: outbox.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
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
  change: Partial<Pick<typeof outbox.$inferInsert, 'status' | 'draftId' | 'gmailMessageId' | 'sentAt'>>,
) {
  await tx
    .update(outbox)
    .set(change)
    .where(and(eq(outbox.workspaceId, workspaceId), eq(outbox.id, id)));
}

/** The sender as their e-mails name them. */
export async function findSenderName(tx: Tx, workspaceId: string, userId: string) {
  const [row] = await tx
    .select({ email: users.email, name: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})` })
    .from(users)
    .where(and(eq(users.workspaceId, workspaceId), eq(users.id, userId)));
  return row ?? null;
}

/** A member's e-mails that failed at least once and have not been sent, newest first, with their delivery. */
export async function findUndeliveredEmails(tx: Tx, workspaceId: string, senderUserId: string) {
  return tx
    .select({ email: outbox, delivery: deliveries })
    .from(outbox)
    .innerJoin(deliveries, and(eq(deliveries.workspaceId, outbox.workspaceId), eq(deliveries.emailId, outbox.id)))
    .where(
      and(
        eq(outbox.workspaceId, workspaceId),
        eq(outbox.senderUserId, senderUserId),
        sql`${outbox.status} <> 'sent' and (${deliveries.status} = 'failed' or ${deliveries.attempts} > 0)`,
      ),
    )
    .orderBy(desc(outbox.createdAt))
    .limit(50);
}

/**
 * Puts a member's failed e-mail back on its delivery's schedule, with a fresh count of attempts;
 * returns the delivery to queue, or null when the member has no such failed e-mail.
 */
export async function reopenFailedEmail(tx: Tx, workspaceId: string, senderUserId: string, emailId: string) {
  const [reopened] = await tx
    .update(deliveries)
    .set({ status: 'pending', attempts: 0, lastError: null, nextAttemptAt: sql`now()` })
    .where(
      and(
        eq(deliveries.workspaceId, workspaceId),
        eq(deliveries.emailId, emailId),
        eq(deliveries.status, 'failed'),
        sql`exists (select 1 from ${outbox} o where o.workspace_id = ${workspaceId} and o.id = ${emailId}
                     and o.sender_user_id = ${senderUserId})`,
      ),
    )
    .returning({ id: deliveries.id });
  return reopened?.id ?? null;
}
