import { addressParser } from 'postal-mime';

// Delivery failure reports (bounces), read from headers only: the gmail.metadata scope gives no body,
// so the report's own delivery-status part is out of reach. Mail servers that name the failed
// addresses in a header (Gmail, Exim, some Postfix set-ups) say it in X-Failed-Recipients; Microsoft's
// 'Undeliverable:' reports do not, and then nothing is read from them.

/** The header the failed addresses are read from (besides From, which the sync asks for anyway). */
export const BOUNCE_HEADERS = ['X-Failed-Recipients'];

/**
 * The local parts delivery reports are sent from, whatever the domain: the two RFC 5321 names, and
 * Exchange's system mailbox ('MicrosoftExchange' and 32 hex digits).
 */
const isReportSender = (local: string) =>
  local === 'mailer-daemon' || local === 'postmaster' || /^microsoftexchange[0-9a-f]{32}$/.test(local);

type Header = { name?: string | null; value?: string | null };

export type DeliveryFailure = {
  /** The report's sender (mailer-daemon@googlemail.com, postmaster@outlook.com, ...). */
  sender: string;
  /** The addresses it could not deliver to, lower-cased; empty when the report does not say. */
  failed: string[];
};

const values = (headers: readonly Header[], name: string) =>
  headers.flatMap((header) =>
    header.name?.toLowerCase() === name.toLowerCase() && header.value ? [header.value] : [],
  );

const address = (value: string) =>
  addressParser(value, { flatten: true })
    .map((entry) => entry.address?.trim().toLowerCase() ?? '')
    .filter((email) => /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/.test(email));

/**
 * Whether a message is a delivery failure report, and which addresses it names: null for any other
 * message. A report is no relationship: its sender is a mail server, never a person.
 */
export function readDeliveryFailure(headers: readonly Header[]): DeliveryFailure | null {
  const sender = values(headers, 'From').flatMap(address)[0];
  if (!sender || !isReportSender(sender.slice(0, sender.lastIndexOf('@')))) return null;
  const failed = new Set(values(headers, 'X-Failed-Recipients').flatMap(address));
  return { sender, failed: [...failed] };
}
