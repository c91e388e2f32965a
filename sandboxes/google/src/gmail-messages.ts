/**
 * Gmail's message resources as the API returns them (formats, headers), and the filters of
 * messages.list and threads.list (labels, paging, the few search operators the sandbox understands).
 */
import { GoogleApiError, invalidArgument } from './errors.ts';
import { headersOf, type Mailbox, type StoredMessage } from './mailbox.ts';
import { type Authenticated, SCOPES } from './oauth.ts';
import { booleanParam, integerParam, listParam, type Query, stringParam } from './params.ts';

/** The restricted metadata scope: no `q`, no message bodies. */
export const metadataOnly = (auth: Authenticated) =>
  auth.scopes.includes(SCOPES.gmailMetadata) &&
  !auth.scopes.some(
    (scope) => scope === SCOPES.gmailReadonly || scope === SCOPES.gmailModify || scope === SCOPES.gmailFull,
  );

/** The paging and filter parameters messages.list and threads.list share; `q` needs more than metadata. */
export function mailListOptions(auth: Parameters<typeof metadataOnly>[0], query: Query) {
  const q = stringParam(query, 'q');
  if (q && metadataOnly(auth)) {
    throw new GoogleApiError(403, "Metadata scope does not support 'q' parameter", { reason: 'forbidden' });
  }
  return {
    labelIds: listParam(query, 'labelIds'),
    includeSpamTrash: booleanParam(query, 'includeSpamTrash', false),
    filter: q ? searchFilter(q) : undefined,
    maxResults: integerParam(query, 'maxResults', { fallback: 100, min: 1, max: 500 }),
    pageToken: stringParam(query, 'pageToken'),
  };
}

export type Format = 'minimal' | 'metadata' | 'full' | 'raw';

export function readFormat(query: Query, auth: Authenticated, fallback: Format = 'full'): Format {
  const format = (stringParam(query, 'format') ?? fallback).toLowerCase();
  if (format !== 'minimal' && format !== 'metadata' && format !== 'full' && format !== 'raw') {
    throw invalidArgument(
      `Invalid value at 'format' (type.googleapis.com/gmail.GetMessageRequest.Format), "${format}"`,
    );
  }
  if ((format === 'full' || format === 'raw') && metadataOnly(auth)) {
    throw new GoogleApiError(403, `Metadata scope doesn't allow format ${format.toUpperCase()}`, {
      reason: 'forbidden',
    });
  }
  return format;
}

/**

 * A Gmail message resource. Never a body: `full` gives the headers and part sizes, `raw` the headers
 * only (generated mail has no body).
 */
export function serializeMessage(message: StoredMessage, mailbox: Mailbox, format: Format, metadataHeaders: string[]) {
  const out: Record<string, unknown> = {
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labelIds.slice(),
    snippet: '',
    sizeEstimate: message.sizeEstimate,
    historyId: String(message.historyId),
    internalDate: String(message.internalDate),
  };
  if (format === 'minimal') return out;
  const all = headersOf(message, mailbox);
  if (format === 'raw') {
    const head = all.map((header) => `${header.name}: ${header.value}`).join('\r\n');
    out.raw = Buffer.from(`${head}\r\n\r\n`, 'utf8').toString('base64url');
    return out;
  }
  const wanted = metadataHeaders.map((name) => name.toLowerCase());
  const headers =
    format === 'metadata' && wanted.length > 0
      ? all.filter((header) => wanted.includes(header.name.toLowerCase()))
      : all;
  const payload: Record<string, unknown> = { partId: '', mimeType: 'multipart/alternative', filename: '', headers };
  if (format === 'full') {
    payload.body = { size: 0 };
    payload.parts = [
      {
        partId: '0',
        mimeType: 'text/plain',
        filename: '',
        headers: [{ name: 'Content-Type', value: 'text/plain; charset="UTF-8"' }],
        body: { size: Math.floor(message.sizeEstimate / 3) },
      },
      {
        partId: '1',
        mimeType: 'text/html',
        filename: '',
        headers: [{ name: 'Content-Type', value: 'text/html; charset="UTF-8"' }],
        body: { size: Math.floor((message.sizeEstimate * 2) / 3) },
      },
    ];
  }
  out.payload = payload;
  return out;
}

/** The few Gmail search operators the sandbox understands; other terms are ignored. */
export function searchFilter(q: string): (message: StoredMessage) => boolean {
  const tests: ((message: StoredMessage) => boolean)[] = [];
  const dateOf = (value: string) => {
    if (/^\d+$/.test(value)) return Number(value) * 1000;
    const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
    return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  };
  for (const term of q.trim().split(/\s+/)) {
    const [operator, ...rest] = term.split(':');
    const value = rest.join(':').toLowerCase();
    switch (operator?.toLowerCase()) {
      case 'in':
      case 'label': {
        const label = value === 'sent' ? 'SENT' : value === 'inbox' ? 'INBOX' : value.toUpperCase();
        if (value !== 'anywhere') tests.push((message) => message.labelIds.includes(label));
        break;
      }
      case 'is':
        if (value === 'unread') tests.push((message) => message.labelIds.includes('UNREAD'));
        if (value === 'starred') tests.push((message) => message.labelIds.includes('STARRED'));
        break;
      case 'after':
      case 'newer': {
        const time = dateOf(value);
        if (!Number.isNaN(time)) tests.push((message) => message.internalDate >= time);
        break;
      }
      case 'before':
      case 'older': {
        const time = dateOf(value);
        if (!Number.isNaN(time)) tests.push((message) => message.internalDate < time);
        break;
      }
      case 'from':
        tests.push((message) => message.from.email.toLowerCase().includes(value));
        break;
      case 'to':
        tests.push((message) =>
          [...message.to, ...message.cc, ...message.bcc].some((a) => a.email.toLowerCase().includes(value)),
        );
        break;
      default:
        break;
    }
  }
  return (message) => tests.every((test) => test(message));
}
