/**
 * Just enough of RFC 5322, RFC 2045-2047 to read what a client sends (headers, addresses, the text of a
 * multipart message) and to write headers the way mailers do.
 */

export type Header = { name: string; value: string };
export type Address = { name: string; email: string };

/** An address the sandbox accepts as a recipient or a signed-in user. */
export const EMAIL_PATTERN = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

export type ParsedMessage = {
  headers: Header[];
  header(name: string): string | undefined;
  from: Address[];
  to: Address[];
  cc: Address[];
  bcc: Address[];
  subject: string;
  messageId: string | undefined;
  inReplyTo: string | undefined;
  references: string[];
  date: number | undefined;
  /** The text/plain body (or the text of the HTML part when there is no plain one). */
  text: string;
  html: string | undefined;
  sizeEstimate: number;
};

const SPECIALS = /[()<>[\]:;@\\,."]/;

/** `=?UTF-8?B?...?=`: how mailers write a non-ASCII display name or subject. */
export function encodeWord(text: string): string {
  return `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** A mailbox as a header writes it: `Jane Doe <jane@x.com>`, `"Doe, Jane" <jane@x.com>`, encoded-words. */
export function formatAddress(address: Address, options: { encode?: boolean } = {}): string {
  const name = address.name.trim();
  if (!name) return address.email;
  if (options.encode && /[^\x20-\x7e]/.test(name)) return `${encodeWord(name)} <${address.email}>`;
  if (SPECIALS.test(name)) return `"${name.replace(/["\\]/g, (char) => `\\${char}`)}" <${address.email}>`;
  return `${name} <${address.email}>`;
}

function decodeBytes(bytes: Buffer, charset: string): string {
  const label = charset.trim().toLowerCase() || 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

function decodeQuotedPrintable(text: string, inHeader: boolean): Buffer {
  const source = inHeader ? text.replace(/_/g, ' ') : text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const char = source.charCodeAt(i);
    if (source[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(source.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(char & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** Decodes RFC 2047 encoded-words (B and Q); adjacent encoded-words join without their whitespace. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?[^?]+\?[BbQq]\?[^?]*\?=)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, charset: string, encoding: string, text: string) => {
      const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text, true);
      return decodeBytes(bytes, charset.split('*')[0] ?? 'utf-8');
    });
}

/** Splits on a separator outside quotes, comments and angle brackets. */
function splitTopLevel(value: string, separators: string): { part: string; separator: string }[] {
  const parts: { part: string; separator: string }[] = [];
  let current = '';
  let quoted = false;
  let depth = 0;
  let angle = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i] ?? '';
    if (quoted) {
      current += char;
      if (char === '\\' && i + 1 < value.length) current += value[++i] ?? '';
      else if (char === '"') quoted = false;
      continue;
    }
    if (char === '"' && depth === 0) quoted = true;
    else if (char === '(') depth++;
    else if (char === ')' && depth > 0) depth--;
    else if (char === '<' && depth === 0) angle = true;
    else if (char === '>' && depth === 0) angle = false;
    else if (depth === 0 && !angle && separators.includes(char)) {
      parts.push({ part: current, separator: char });
      current = '';
      continue;
    }
    current += char;
  }
  parts.push({ part: current, separator: '' });
  return parts;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2) {
    return trimmed.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return trimmed;
}

function parseMailbox(text: string): Address | null {
  const comments: string[] = [];
  const withoutComments = text.replace(/\(([^()]*)\)/g, (_match, comment: string) => {
    comments.push(comment);
    return ' ';
  });
  const angle = /<([^<>]*)>/.exec(withoutComments);
  if (angle) {
    const email = (angle[1] ?? '').trim();
    if (!email.includes('@')) return null;
    const name = decodeWords(unquote(withoutComments.slice(0, angle.index)).replace(/\s+/g, ' '));
    return { name: name.trim(), email };
  }
  const email = withoutComments.trim();
  if (!email.includes('@') || /\s/.test(email)) return null;
  return { name: decodeWords(comments.join(' ').trim()), email };
}

/** `a@x.com, "Doe, Jane" <jane@x.com>, Team: b@y.com, c@y.com;` -> mailboxes. */
export function parseAddressList(value: string | undefined): Address[] {
  if (!value) return [];
  const addresses: Address[] = [];
  // Groups: "Name: member, member;" - the display name of the group is dropped, members kept.
  const flattened = splitTopLevel(value, ':;')
    .map(({ part, separator }) => {
      if (separator !== ':') return part;
      const segments = splitTopLevel(part, ',');
      return segments
        .slice(0, -1)
        .map((segment) => segment.part)
        .join(',');
    })
    .join(',');
  for (const { part } of splitTopLevel(flattened, ',')) {
    if (!part.trim()) continue;
    const mailbox = parseMailbox(part);
    if (mailbox) addresses.push(mailbox);
  }
  return addresses;
}

type Part = { headers: Header[]; body: string };

function splitHeaderBlock(source: string): Part {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : '';
  const headers: Header[] = [];
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && headers.length > 0) {
      const last = headers[headers.length - 1];
      if (last) last.value += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
  }
  return { headers, body };
}

const headerOf = (headers: Header[], name: string) =>
  headers.find((header) => header.name.toLowerCase() === name.toLowerCase())?.value;

function contentType(headers: Header[]): { type: string; params: Record<string, string> } {
  const raw = headerOf(headers, 'content-type') ?? 'text/plain; charset=us-ascii';
  const [type = 'text/plain', ...rest] = splitTopLevel(raw, ';').map(({ part }) => part.trim());
  const params: Record<string, string> = {};
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals < 0) continue;
    params[param.slice(0, equals).trim().toLowerCase()] = unquote(param.slice(equals + 1));
  }
  return { type: type.toLowerCase(), params };
}

function decodeBody(part: Part): string {
  const encoding = (headerOf(part.headers, 'content-transfer-encoding') ?? '7bit').trim().toLowerCase();
  const { params } = contentType(part.headers);
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(part.body, false);
  else bytes = Buffer.from(part.body, 'latin1');
  return decodeBytes(bytes, params.charset ?? 'utf-8');
}

function collectTexts(part: Part, found: { text?: string; html?: string }, depth: number) {
  if (depth > 10) return;
  const { type, params } = contentType(part.headers);
  const disposition = (headerOf(part.headers, 'content-disposition') ?? '').toLowerCase();
  if (type.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const sections = part.body.split(new RegExp(`\\r?\\n?${escapeRegExp(delimiter)}(?:--)?[ \\t]*\\r?\\n?`));
    for (const section of sections.slice(1)) {
      if (!section.trim()) continue;
      collectTexts(splitHeaderBlock(section), found, depth + 1);
    }
    return;
  }
  if (disposition.startsWith('attachment')) return;
  if (type === 'text/plain' && found.text === undefined) found.text = decodeBody(part);
  else if (type === 'text/html' && found.html === undefined) found.html = decodeBody(part);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The readable text of an HTML body. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(style|script|head)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h[1-6])>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (match, entity: string) => {
      if (entity.startsWith('#x') || entity.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
      if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
      return ENTITIES[entity.toLowerCase()] ?? match;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Header values may carry raw UTF-8 (RFC 6532) as well as encoded-words. */
const headerText = (value: string) => decodeWords(Buffer.from(value, 'latin1').toString('utf8'));

export function parseMessage(raw: Buffer): ParsedMessage {
  const source = raw.toString('latin1');
  const top = splitHeaderBlock(source);
  const headers = top.headers.map((header) => ({ name: header.name, value: headerText(header.value) }));
  const get = (name: string) => headerOf(headers, name);
  const found: { text?: string; html?: string } = {};
  collectTexts(top, found, 0);
  const dateHeader = get('date');
  const parsedDate = dateHeader ? Date.parse(dateHeader.replace(/\s*\([^)]*\)\s*$/, '')) : Number.NaN;
  const text = found.text ?? (found.html !== undefined ? htmlToText(found.html) : '');
  return {
    headers,
    header: get,
    from: parseAddressList(get('from')),
    to: parseAddressList(get('to')),
    cc: parseAddressList(get('cc')),
    bcc: parseAddressList(get('bcc')),
    subject: get('subject') ?? '',
    messageId: get('message-id')?.trim(),
    inReplyTo: get('in-reply-to')?.trim(),
    references: (get('references') ?? '').split(/\s+/).filter(Boolean),
    date: Number.isNaN(parsedDate) ? undefined : parsedDate,
    text: text.replace(/\r\n/g, '\n').trimEnd(),
    html: found.html,
    sizeEstimate: raw.length,
  };
}
