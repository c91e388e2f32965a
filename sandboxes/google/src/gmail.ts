/**
 * Gmail's API on the sandbox's state: profile, messages, threads, history and drafts. Headers only,
 * never bodies; the metadata scope refuses `q` and the full and raw formats, as Gmail does.
 */
import { GoogleApiError, invalidArgument, notFound } from './errors.ts';
import { mailListOptions, readFormat, serializeMessage } from './gmail-messages.ts';
import { composeMessage, requireRaw, requireRecipients, send } from './gmail-send.ts';
import { type Authenticated, SCOPES } from './oauth.ts';
import { integerParam, listParam, type Query, stringParam } from './params.ts';
import { parseMessage } from './rfc5322.ts';
import type { GoogleSandbox } from './sandbox.ts';

const READ_MAIL = [SCOPES.gmailMetadata, SCOPES.gmailReadonly, SCOPES.gmailModify, SCOPES.gmailFull];
const PROFILE_MAIL = [...READ_MAIL, SCOPES.gmailCompose];
const COMPOSE = [SCOPES.gmailCompose, SCOPES.gmailModify, SCOPES.gmailFull];
const READ_DRAFTS = [...COMPOSE, SCOPES.gmailReadonly];
const SEND = [SCOPES.gmailSend, ...COMPOSE];

function mailboxOf(sandbox: GoogleSandbox, auth: Authenticated, userId: string) {
  const id = userId.toLowerCase();
  if (id !== 'me' && id !== auth.email) {
    throw new GoogleApiError(403, `Delegation denied for ${auth.email}`, { reason: 'forbidden' });
  }
  return sandbox.user(auth.email).mailbox;
}

export function gmailProfile(sandbox: GoogleSandbox, authorization: string | undefined, query: Query, userId: string) {
  const { auth } = sandbox.authenticate(authorization, query, PROFILE_MAIL);
  const mailbox = mailboxOf(sandbox, auth, userId);
  return {
    emailAddress: auth.email,
    messagesTotal: mailbox.size,
    threadsTotal: mailbox.threadCount,
    historyId: String(mailbox.historyId),
  };
}

export function gmailListMessages(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
) {
  const { auth } = sandbox.authenticate(authorization, query, READ_MAIL);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const result = mailbox.list(mailListOptions(auth, query));
  const body: Record<string, unknown> = {};
  if (result.messages.length > 0) {
    body.messages = result.messages.map((message) => ({ id: message.id, threadId: message.threadId }));
  }
  if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
  body.resultSizeEstimate = result.resultSizeEstimate;
  return body;
}

export function gmailGetMessage(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
  id: string,
) {
  const { auth } = sandbox.authenticate(authorization, query, READ_MAIL);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const format = readFormat(query, auth);
  const message = mailbox.get(id);
  if (!message) throw notFound();
  return serializeMessage(message, mailbox, format, listParam(query, 'metadataHeaders'));
}

export function gmailListThreads(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
) {
  const { auth } = sandbox.authenticate(authorization, query, READ_MAIL);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const result = mailbox.listThreads(mailListOptions(auth, query));
  const body: Record<string, unknown> = {};
  if (result.threads.length > 0) {
    body.threads = result.threads.map((threadId) => {
      const messages = mailbox.thread(threadId) ?? [];
      const historyId = Math.max(0, ...messages.map((message) => message.historyId));
      return { id: threadId, snippet: '', historyId: String(historyId) };
    });
  }
  if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
  body.resultSizeEstimate = result.resultSizeEstimate;
  return body;
}

export function gmailGetThread(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
  id: string,
) {
  const { auth } = sandbox.authenticate(authorization, query, READ_MAIL);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const format = readFormat(query, auth);
  const messages = mailbox.thread(id);
  if (!messages || messages.length === 0) throw notFound();
  const headers = listParam(query, 'metadataHeaders');
  const sorted = messages.slice().sort((a, b) => a.internalDate - b.internalDate);
  return {
    id,
    historyId: String(Math.max(...sorted.map((message) => message.historyId))),
    messages: sorted.map((message) => serializeMessage(message, mailbox, format, headers)),
  };
}

export function gmailHistory(sandbox: GoogleSandbox, authorization: string | undefined, query: Query, userId: string) {
  const { auth } = sandbox.authenticate(authorization, query, READ_MAIL);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const start = stringParam(query, 'startHistoryId');
  if (!start) throw invalidArgument('Missing startHistoryId');
  if (!/^\d+$/.test(start)) throw invalidArgument(`Invalid value at 'start_history_id' (TYPE_UINT64), "${start}"`);
  const historyTypes = listParam(query, 'historyTypes');
  for (const type of historyTypes) {
    if (!['messageAdded', 'messageDeleted', 'labelAdded', 'labelRemoved'].includes(type)) {
      throw invalidArgument(
        `Invalid value at 'history_types' (type.googleapis.com/gmail.ListHistoryRequest.HistoryType), "${type}"`,
      );
    }
  }
  const result = mailbox.listHistory({
    startHistoryId: Number(start),
    historyTypes,
    labelId: stringParam(query, 'labelId'),
    maxResults: integerParam(query, 'maxResults', { fallback: 100, min: 1, max: 500 }),
    pageToken: stringParam(query, 'pageToken'),
  });
  const body: Record<string, unknown> = {};
  if (result.records.length > 0) {
    body.history = result.records.map((record) => {
      const touched = [...(record.added ?? []), ...(record.deleted ?? [])];
      const entry: Record<string, unknown> = {
        id: String(record.id),
        messages: touched.map((message) => ({ id: message.id, threadId: message.threadId })),
      };
      if (record.added?.length) {
        entry.messagesAdded = record.added.map((message) => ({
          message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds.slice() },
        }));
      }
      if (record.deleted?.length) {
        entry.messagesDeleted = record.deleted.map((message) => ({
          message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds },
        }));
      }
      return entry;
    });
  }
  if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
  body.historyId = String(result.historyId);
  return body;
}

export function gmailCreateDraft(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
  input: { raw?: Buffer; threadId?: string },
) {
  const { auth, state } = sandbox.authenticate(authorization, query, COMPOSE);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const raw = requireRaw(input.raw);
  const parsed = parseMessage(raw);
  const now = sandbox.now();
  const message = composeMessage(state, parsed, now, input.threadId, ['DRAFT']);
  mailbox.insert(message, true);
  const draft = { id: mailbox.newDraftId(), message, raw };
  mailbox.addDraft(draft);
  return {
    id: draft.id,
    message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds.slice() },
  };
}

export function gmailGetDraft(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
  id: string,
) {
  const { auth } = sandbox.authenticate(authorization, query, READ_DRAFTS);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const draft = mailbox.draft(id);
  if (!draft) throw notFound();
  const format = readFormat(query, auth, 'full');
  return { id: draft.id, message: serializeMessage(draft.message, mailbox, format, []) };
}

export function gmailListDrafts(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
) {
  const { auth } = sandbox.authenticate(authorization, query, READ_DRAFTS);
  const mailbox = mailboxOf(sandbox, auth, userId);
  const drafts = mailbox.listDrafts();
  const body: Record<string, unknown> = {};
  if (drafts.length > 0) {
    body.drafts = drafts.map((draft) => ({
      id: draft.id,
      message: { id: draft.message.id, threadId: draft.message.threadId },
    }));
  }
  body.resultSizeEstimate = drafts.length;
  return body;
}

export function gmailDeleteDraft(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
  id: string,
): void {
  const { auth } = sandbox.authenticate(authorization, query, COMPOSE);
  const mailbox = mailboxOf(sandbox, auth, userId);
  if (!mailbox.deleteDraft(id)) throw notFound();
}

/** drafts.send: the draft (as stored, or as updated in the request) is sent and the draft is gone. */
export function gmailSendDraft(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
  input: { id?: string; raw?: Buffer },
) {
  const { auth, state } = sandbox.authenticate(authorization, query, COMPOSE);
  const mailbox = mailboxOf(sandbox, auth, userId);
  if (!input.id) throw invalidArgument('Invalid draft');
  const draft = mailbox.draft(input.id);
  if (!draft) throw notFound();
  const raw = input.raw && input.raw.length > 0 ? input.raw : draft.raw;
  const parsed = parseMessage(raw);
  requireRecipients(parsed);
  mailbox.deleteDraft(draft.id);
  const sent = send(sandbox, state, parsed, draft.message.threadId, 'drafts.send');
  return { id: sent.id, threadId: sent.threadId, labelIds: sent.labelIds.slice() };
}

export function gmailSendMessage(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  userId: string,
  input: { raw?: Buffer; threadId?: string },
) {
  const { auth, state } = sandbox.authenticate(authorization, query, SEND);
  mailboxOf(sandbox, auth, userId);
  const parsed = parseMessage(requireRaw(input.raw));
  requireRecipients(parsed);
  const sent = send(sandbox, state, parsed, input.threadId, 'messages.send');
  return { id: sent.id, threadId: sent.threadId, labelIds: sent.labelIds.slice() };
}
