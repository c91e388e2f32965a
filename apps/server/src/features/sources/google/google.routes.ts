import {
  ZGoogleAuthenticateQuery,
  ZGoogleAuthenticateResponse,
  ZIdParams,
  ZSuggestion,
  ZSyncRun,
  ZUndeliveredEmail,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findUndeliveredEmails, requeueFailedEmail } from '../../../integrations/mail/outbox.repo.ts';
import { AppError } from '../../../lib/app-error.ts';
import { memberOf } from '../../../plugins/auth.ts';
import { findSuggestedTeammates } from './google.repo.ts';
import { finishGoogleConnection, type GoogleDeps, startGoogleConnection } from './google.service.ts';
import { latestGoogleSync, requestGoogleSync, type SyncRunDeps } from './google-sync-runs.ts';

export const googleRoutes: FastifyPluginAsyncZod<GoogleDeps & SyncRunDeps> = async (app, deps) => {
  app.post(
    '/google/authenticate',
    {
      config: { access: 'self' },
      schema: {
        tags: ['google'],
        querystring: ZGoogleAuthenticateQuery,
        response: { 200: ZGoogleAuthenticateResponse },
      },
    },
    async (request) => startGoogleConnection(deps, memberOf(request), request.query.redirectUrl),
  );

  // Google sends the browser here, without our bearer token: the signed state says who it is.
  app.get(
    '/public/google/callback',
    {
      config: { access: 'public' },
      schema: {
        tags: ['google'],
        querystring: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
        }),
      },
    },
    async (request, reply) => {
      const outcome = await finishGoogleConnection(deps, request.query);
      // A new connection starts its first sync at once.
      if ('userId' in outcome) await requestGoogleSync(deps, outcome);
      return reply.redirect(`${deps.publicUrl}${outcome.redirectTo}`);
    },
  );

  app.post(
    '/google/command/sync',
    { config: { access: 'self' }, schema: { tags: ['google'], response: { 200: ZSyncRun } } },
    async (request) => {
      const member = memberOf(request);
      return requestGoogleSync(deps, { workspaceId: member.workspaceId, userId: member.userId });
    },
  );

  app.get(
    '/google/query/sync-status',
    { config: { access: 'read' }, schema: { tags: ['google'], response: { 200: ZSyncRun.nullable() } } },
    async (request) => latestGoogleSync(deps, memberOf(request)),
  );

  app.get(
    '/google/query/undelivered-emails',
    { config: { access: 'read' }, schema: { tags: ['google'], response: { 200: z.array(ZUndeliveredEmail) } } },
    async (request) => {
      const member = memberOf(request);
      const rows = await deps.database.inWorkspace(member.workspaceId, (tx) =>
        findUndeliveredEmails(tx, member.workspaceId, member.userId),
      );
      return rows.flatMap((row) =>
        row.status === 'sent'
          ? []
          : [
              {
                id: row.id,
                purpose: row.purpose,
                to: row.message.to,
                subject: row.message.subject,
                status: row.status,
                attempts: row.attempts,
                lastError: row.lastError,
                createdAt: row.createdAt.toISOString(),
              },
            ],
      );
    },
  );

  app.post(
    '/google/command/retry-email/:id',
    { config: { access: 'self' }, schema: { tags: ['google'], params: ZIdParams } },
    async (request, reply) => {
      const member = memberOf(request);
      const requeued = await deps.database.inWorkspace(member.workspaceId, (tx) =>
        requeueFailedEmail(tx, member.workspaceId, member.userId, request.params.id),
      );
      if (!requeued) throw new AppError('NOT_FOUND', 'No failed e-mail with this id');
      return reply.code(204).send();
    },
  );

  app.get(
    '/google/query/suggested-teammates',
    { config: { access: 'read' }, schema: { tags: ['google'], response: { 200: z.array(ZSuggestion) } } },
    async (request) => {
      const member = memberOf(request);
      return deps.database.inWorkspace(member.workspaceId, (tx) =>
        findSuggestedTeammates(tx, member.workspaceId, member.userId),
      );
    },
  );
};
