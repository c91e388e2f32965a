/** Gmail's routes, at Google's paths, and the uploads of send and draft calls. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GoogleApiError } from './errors.ts';
import { bodyOf, paramsOf } from './http.ts';
import { asQuery } from './params.ts';
import type { GoogleSandbox } from './sandbox.ts';

/** The raw RFC 5322 message of a send or draft call: JSON `raw`, or an upload (media or multipart). */
function rawOf(request: FastifyRequest, path: 'message' | 'root'): { raw?: Buffer; threadId?: string; id?: string } {
  if (Buffer.isBuffer(request.body)) {
    const type = String(request.headers['content-type'] ?? '');
    if (type.startsWith('multipart/related')) return multipartRaw(request.body, type, path);
    return { raw: request.body };
  }
  const body = bodyOf(request);
  const message = path === 'message' ? body.message : body;
  const record = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
  const raw = typeof record.raw === 'string' ? Buffer.from(record.raw, 'base64') : undefined;
  return {
    raw,
    threadId: typeof record.threadId === 'string' ? record.threadId : undefined,
    id: typeof body.id === 'string' ? body.id : undefined,
  };
}

function multipartRaw(body: Buffer, type: string, path: 'message' | 'root') {
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary)
    throw new GoogleApiError(400, 'Missing boundary in multipart/related upload', { reason: 'badContent' });
  const text = body.toString('latin1');
  const parts = text.split(`--${boundary}`).slice(1, -1);
  let metadata: Record<string, unknown> = {};
  let raw: Buffer | undefined;
  for (const part of parts) {
    const split = /\r?\n\r?\n/.exec(part);
    if (!split) continue;
    const head = part.slice(0, split.index).toLowerCase();
    const content = part.slice(split.index + split[0].length).replace(/\r?\n$/, '');
    if (head.includes('application/json')) {
      try {
        const parsed: unknown = JSON.parse(Buffer.from(content, 'latin1').toString('utf8'));
        if (typeof parsed === 'object' && parsed !== null) metadata = parsed as Record<string, unknown>;
      } catch {
        throw new GoogleApiError(400, 'Invalid JSON payload received.', { reason: 'parseError' });
      }
    } else {
      raw = Buffer.from(content, 'latin1');
    }
  }
  const holder = path === 'message' ? metadata.message : metadata;
  const record = typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>) : {};
  return {
    raw,
    threadId: typeof record.threadId === 'string' ? record.threadId : undefined,
    id: typeof metadata.id === 'string' ? metadata.id : undefined,
  };
}

export function registerGmailRoutes(app: FastifyInstance, sandbox: GoogleSandbox) {
  const auth = (request: FastifyRequest) => request.headers.authorization;
  const query = (request: FastifyRequest) => asQuery(request.query);
  const sendLimit = { bodyLimit: 36 * 1024 * 1024 };

  app.get('/gmail/v1/users/:userId/profile', async (request) =>
    sandbox.gmailProfile(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/messages', async (request) =>
    sandbox.gmailListMessages(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/messages/:id', async (request) => {
    const params = paramsOf(request);
    return sandbox.gmailGetMessage(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
  });
  const sendMessage = async (request: FastifyRequest) => {
    const { raw, threadId } = rawOf(request, 'root');
    return sandbox.gmailSendMessage(auth(request), query(request), paramsOf(request).userId ?? 'me', { raw, threadId });
  };
  app.post('/gmail/v1/users/:userId/messages/send', sendLimit, sendMessage);
  app.post('/upload/gmail/v1/users/:userId/messages/send', sendLimit, sendMessage);
  app.get('/gmail/v1/users/:userId/threads', async (request) =>
    sandbox.gmailListThreads(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/threads/:id', async (request) => {
    const params = paramsOf(request);
    return sandbox.gmailGetThread(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
  });
  app.get('/gmail/v1/users/:userId/history', async (request) =>
    sandbox.gmailHistory(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  const createDraft = async (request: FastifyRequest) => {
    const { raw, threadId } = rawOf(request, 'message');
    return sandbox.gmailCreateDraft(auth(request), query(request), paramsOf(request).userId ?? 'me', { raw, threadId });
  };
  app.post('/gmail/v1/users/:userId/drafts', sendLimit, createDraft);
  app.post('/upload/gmail/v1/users/:userId/drafts', sendLimit, createDraft);
  app.get('/gmail/v1/users/:userId/drafts', async (request) =>
    sandbox.gmailListDrafts(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/drafts/:id', async (request) => {
    const params = paramsOf(request);
    return sandbox.gmailGetDraft(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
  });
  app.delete('/gmail/v1/users/:userId/drafts/:id', async (request, reply) => {
    const params = paramsOf(request);
    sandbox.gmailDeleteDraft(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
    return reply.code(204).send();
  });
  const sendDraft = async (request: FastifyRequest) => {
    const { raw, id } = rawOf(request, 'message');
    return sandbox.gmailSendDraft(auth(request), query(request), paramsOf(request).userId ?? 'me', { raw, id });
  };
  app.post('/gmail/v1/users/:userId/drafts/send', sendLimit, sendDraft);
  app.post('/upload/gmail/v1/users/:userId/drafts/send', sendLimit, sendDraft);
}
