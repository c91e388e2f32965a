import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';

export type OutgoingEmail = { to: string[]; cc: string[]; subject: string; text: string; messageId: string };

/** A Message-ID of our own, kept with the outbox row, to recognise the message later. */
export function newMessageId(domain: string) {
  return `<${randomUUID()}@${domain}>`;
}

// Nodemailer composes the message and Gmail sends it (as a draft, then that draft): a stream
// transport hands back the RFC 5322 bytes instead of delivering them, through the public API.
const composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/** The RFC 5322 message, base64url-encoded as Gmail's `raw` field wants it. */
export async function composeRaw(from: string, email: OutgoingEmail): Promise<string> {
  const { message } = await composer.sendMail({
    from,
    to: email.to,
    cc: email.cc.length > 0 ? email.cc : undefined,
    subject: email.subject,
    text: email.text,
    messageId: email.messageId,
  });
  return message.toString('base64url');
}
