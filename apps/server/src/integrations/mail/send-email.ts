import { MESSAGES } from '@warmpath/shared';
import type { Tx } from '../../db/client.ts';
import { insertDelivery } from '../../events/events.repo.ts';
import { findGoogleConnection } from '../../features/sources/google/google.repo.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import { emailDomain } from '../../lib/free-email-domains.ts';
import { newMessageId } from './compose.ts';
import { insertOutboxEmail } from './outbox.repo.ts';

export type EmailToSend = { purpose: string; to: string[]; cc?: string[]; subject: string; text: string };

/**
 * Queues an e-mail from a member's own Google account, in the caller's transaction: written with its
 * delivery and that delivery's first job, so it is sent only if the business change commits, and
 * exactly once. Without a usable Google connection it is refused with the spec's message.
 */
export async function queueEmail(
  tx: Tx,
  queue: Pick<JobQueue, 'enqueueDelivery'>,
  sender: { workspaceId: string; userId: string },
  email: EmailToSend,
) {
  const connection = await findGoogleConnection(tx, sender.workspaceId, sender.userId);
  if (!connection || connection.settings.reconnectRequired)
    throw new AppError('NOT_CONNECTED', MESSAGES.mustConnectGoogle);
  const domain = connection.settings.email ? emailDomain(connection.settings.email) : 'warmpath.local';
  const emailId = await insertOutboxEmail(tx, {
    workspaceId: sender.workspaceId,
    senderUserId: sender.userId,
    purpose: email.purpose,
    message: {
      to: email.to,
      cc: email.cc ?? [],
      subject: email.subject,
      text: email.text,
      messageId: newMessageId(domain),
    },
  });
  const deliveryId = await insertDelivery(tx, sender.workspaceId, { emailId }, 'email');
  await queue.enqueueDelivery(tx, { workspaceId: sender.workspaceId, deliveryId, attempt: 0 });
  return emailId;
}
