import type { SendMailOptions } from 'nodemailer';
import nodemailer from 'nodemailer';

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/** A whole RFC 5322 message as a mail client writes it (nodemailer's public API), for the tests. */
export async function composeMessage(mail: SendMailOptions): Promise<Buffer> {
  const { message } = await composer.sendMail(mail);
  // `buffer: true` answers a Buffer; the type also allows the stream of the other setting.
  if (!Buffer.isBuffer(message)) throw new Error('nodemailer answered a stream');
  return message;
}
