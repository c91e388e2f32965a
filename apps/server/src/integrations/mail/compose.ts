import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

export type OutgoingEmail = { to: string[]; cc: string[]; subject: string; text: string; messageId: string };

/** A Message-ID of our own, kept with the outbox row, to recognise the message later. */
export function newMessageId(domain: string) {
  return `<${randomUUID()}@${domain}>`;
}

/** The RFC 5322 message, base64url-encoded as Gmail's `raw` field wants it. */
export async function composeRaw(from: string, email: OutgoingEmail): Promise<string> {
  const message = await new MailComposer({
    from,
    to: email.to,
    cc: email.cc.length > 0 ? email.cc : undefined,
    subject: email.subject,
    text: email.text,
    messageId: email.messageId,
  })
    .compile()
    .build();
  return message.toString('base64url');
}
