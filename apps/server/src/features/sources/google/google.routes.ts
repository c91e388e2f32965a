import { sourcesApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findUndeliveredEmails, reopenFailedEmail } from '../../../integrations/mail/outbox.repo.ts';
import { AppError } from '../../../lib/app-error.ts';
import { memberOf } from '../../../plugins/auth.ts';
import { route } from '../../../plugins/contract-route.ts';
import { findSuggestedTeammates } from './google.repo.ts';
import { finishGoogleConnection, type GoogleDeps, startGoogleConnection } from './google.service.ts';
import { latestGoogleSync, requestGoogleSync, type SyncRunDeps } from './google-sync-runs.ts';

export const googleRoutes: FastifyPluginAsyncZod<GoogleDeps & SyncRunDeps> = async (app, deps) => {
  route(app, sourcesApi.startGoogleConnection, async (request, reply) => {
    const { url, cookie } = startGoogleConnection(deps, memberOf(request), request.query.redirectUrl);
    reply.header('set-cookie', cookie);
    return { url };
  });

  // Google sends the browser here, without our bearer token: the signed state says who it is, and the
  // nonce cookie that this is the browser that asked.
  route(app, sourcesApi.finishGoogleConnection, async (request, reply) => {
    reply.header('set-cookie', deps.flow.clearCookie);
    const outcome = await finishGoogleConnection(deps, request.query, request.headers.cookie);
    // A new connection starts its first sync at once.
    if ('userId' in outcome) await requestGoogleSync(deps, outcome);
    return reply.redirect(`${deps.publicUrl}${outcome.redirectTo}`);
  });

  route(app, sourcesApi.requestGoogleSync, async (request) => {
    const member = memberOf(request);
    return requestGoogleSync(deps, { workspaceId: member.workspaceId, userId: member.userId });
  });

  route(app, sourcesApi.getGoogleSyncStatus, async (request) => latestGoogleSync(deps, memberOf(request)));

  route(app, sourcesApi.listUndeliveredEmails, async (request) => {
    const member = memberOf(request);
    const rows = await deps.database.inWorkspace(member.workspaceId, (tx) =>
      findUndeliveredEmails(tx, member.workspaceId, member.userId),
    );
    return rows.map(({ email, delivery }) => ({
      id: email.id,
      purpose: email.purpose,
      to: email.message.to,
      subject: email.message.subject,
      status:
        delivery.status === 'failed'
          ? ('failed' as const)
          : email.status === 'drafted'
            ? ('drafted' as const)
            : ('pending' as const),
      attempts: delivery.attempts,
      lastError: delivery.lastError,
      createdAt: email.createdAt.toISOString(),
    }));
  });

  route(app, sourcesApi.retryEmail, async (request, reply) => {
    const member = memberOf(request);
    const requeued = await deps.database.inWorkspace(member.workspaceId, async (tx) => {
      const deliveryId = await reopenFailedEmail(tx, member.workspaceId, member.userId, request.params.id);
      if (deliveryId) await deps.jobs.enqueueDelivery(tx, { workspaceId: member.workspaceId, deliveryId, attempt: 0 });
      return deliveryId !== null;
    });
    if (!requeued) throw new AppError('NOT_FOUND', 'No failed e-mail with this id');
    return reply.code(204).send();
  });

  route(app, sourcesApi.listSuggestedTeammates, async (request) => {
    const member = memberOf(request);
    return deps.database.inWorkspace(member.workspaceId, (tx) =>
      findSuggestedTeammates(tx, member.workspaceId, member.userId),
    );
  });
};
