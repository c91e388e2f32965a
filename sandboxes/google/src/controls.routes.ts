/** The test controls over HTTP: `POST /_control/*` with a JSON body (see the README's table). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GoogleApiError } from './errors.ts';
import type { GoogleSandbox } from './sandbox.ts';

const ZAddress = z.union([z.string().min(3), z.object({ name: z.string(), email: z.string().min(3) })]);
const ZEmail = z.object({ email: z.string().min(3) });
const ZTime = z.union([z.string(), z.number()]);

const CONTROLS = {
  mail: z.object({
    email: z.string().min(3),
    count: z.number().int().min(1).max(1000).optional(),
    from: ZAddress.optional(),
    to: z.array(ZAddress).optional(),
    cc: z.array(ZAddress).optional(),
    subject: z.string().optional(),
    at: ZTime.optional(),
    labelIds: z.array(z.string()).optional(),
    failedRecipients: z.array(z.string().min(3)).optional(),
  }),
  meetings: z.object({
    email: z.string().min(3),
    count: z.number().int().min(1).max(500).optional(),
    summary: z.string().optional(),
    start: ZTime.optional(),
    durationMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional(),
    attendees: z.array(ZAddress).optional(),
    organizer: z.string().optional(),
  }),
  cancel: z.object({ email: z.string().min(3), eventId: z.string().min(1) }),
  optionalEmail: z.object({ email: z.string().min(3).optional() }),
  rateLimit: z.object({
    count: z.number().int().min(0).max(10_000),
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    email: z.string().min(3).optional(),
  }),
  sentMail: z.object({ to: z.string().optional() }),
};

function parseControl<T extends z.ZodType>(schema: T, request: FastifyRequest): z.infer<T> {
  const type = String(request.headers['content-type'] ?? '');
  if (request.body !== undefined && request.body !== null && !type.startsWith('application/json')) {
    throw new GoogleApiError(415, 'Controls take JSON only (Content-Type: application/json).', {
      reason: 'badContent',
    });
  }
  const parsed = schema.safeParse(request.body ?? {});
  if (!parsed.success) throw new GoogleApiError(400, z.prettifyError(parsed.error), { reason: 'invalid' });
  return parsed.data;
}

export function registerControlRoutes(app: FastifyInstance, sandbox: GoogleSandbox) {
  const messageJson = (message: {
    id: string;
    threadId: string;
    historyId: number;
    internalDate: number;
    labelIds: string[];
    subject: string;
    from: { name: string; email: string };
  }) => ({
    id: message.id,
    threadId: message.threadId,
    historyId: String(message.historyId),
    internalDate: String(message.internalDate),
    labelIds: message.labelIds,
    from: message.from,
    subject: message.subject,
  });

  app.post('/_control/mail', async (request) => {
    const { email, ...input } = parseControl(CONTROLS.mail, request);
    const messages = sandbox.addMail(email, input);
    return { messages: messages.map(messageJson), historyId: String(sandbox.user(email).mailbox.historyId) };
  });
  app.post('/_control/meetings', async (request) => {
    const { email, ...input } = parseControl(CONTROLS.meetings, request);
    const { calendar } = sandbox.user(email);
    return { events: sandbox.addMeetings(email, input).map((event) => calendar.serialize(event)) };
  });
  app.post('/_control/meetings/cancel', async (request) => {
    const { email, eventId } = parseControl(CONTROLS.cancel, request);
    const event = sandbox.cancelMeeting(email, eventId);
    return { event: sandbox.user(email).calendar.serialize(event) };
  });
  app.post('/_control/history/drop', async (request) => sandbox.dropHistory(parseControl(ZEmail, request).email));
  app.post('/_control/calendar/invalidate-sync-tokens', async (request) =>
    sandbox.invalidateCalendarSyncTokens(parseControl(ZEmail, request).email),
  );
  app.post('/_control/people/invalidate-sync-tokens', async (request) =>
    sandbox.invalidatePeopleSyncTokens(parseControl(ZEmail, request).email),
  );
  app.post('/_control/tokens/expire', async (request) =>
    sandbox.expireAccessTokens(parseControl(CONTROLS.optionalEmail, request).email),
  );
  app.post('/_control/grants/revoke', async (request) => sandbox.revokeGrants(parseControl(ZEmail, request).email));
  app.post('/_control/rate-limit', async (request) => {
    const { count, ...options } = parseControl(CONTROLS.rateLimit, request);
    sandbox.rateLimitNextCalls(count, options);
    return { count };
  });
  app.post('/_control/sent-mail', async (request) => ({
    messages: sandbox.sentMail(parseControl(CONTROLS.sentMail, request)),
  }));
  app.post('/_control/stats', async (request) => sandbox.stats(parseControl(ZEmail, request).email));
  app.post('/_control/reset', async (request) => {
    parseControl(z.object({}), request);
    sandbox.reset();
    return { reset: true };
  });
}
