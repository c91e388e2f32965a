import { targetingApi, teamApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import {
  acceptInvitation,
  adminTargetingScheme,
  getInvitation,
  type InvitationsDeps,
  inviteTeammates,
} from './invitations.service.ts';

export const invitationsRoutes: FastifyPluginAsyncZod<InvitationsDeps> = async (app, deps) => {
  route(app, teamApi.inviteTeammates, async (request) => inviteTeammates(deps, memberOf(request), request.body));

  // The invitee is signed in but belongs to no workspace yet.
  route(app, teamApi.getInvitation, async (request) => getInvitation(deps, callerOf(request), request.params.id));

  route(app, teamApi.acceptInvitation, async (request) => acceptInvitation(deps, callerOf(request), request.body));

  route(app, targetingApi.getAdminTargetingScheme, async (request) =>
    adminTargetingScheme(deps, memberOf(request), request.query.inviteId),
  );
};
