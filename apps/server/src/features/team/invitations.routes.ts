import {
  ZAcceptInvitation,
  ZAdminTargetingSchemesQuery,
  ZIdParams,
  ZInviteInfo,
  ZInviteTeammatesRequest,
  ZInviteTeammatesResponse,
  ZMe,
  ZTargetingScheme,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, memberOf } from '../../plugins/auth.ts';
import {
  acceptInvitation,
  adminTargetingScheme,
  getInvitation,
  type InvitationsDeps,
  inviteTeammates,
} from './invitations.service.ts';

export const invitationsRoutes: FastifyPluginAsyncZod<InvitationsDeps> = async (app, deps) => {
  app.post(
    '/teammates/invite',
    {
      config: { access: 'admin' },
      schema: { tags: ['teammates'], body: ZInviteTeammatesRequest, response: { 200: ZInviteTeammatesResponse } },
    },
    async (request) => inviteTeammates(deps, memberOf(request), request.body),
  );

  // The invitee is signed in but belongs to no workspace yet.
  app.get(
    '/teammates/query/invited-user-teammates/:id',
    {
      config: { access: 'identity' },
      schema: { tags: ['teammates'], params: ZIdParams, response: { 200: ZInviteInfo } },
    },
    async (request) => getInvitation(deps, request.params.id),
  );

  app.post(
    '/teammates/accept-invitation',
    {
      config: { access: 'identity' },
      schema: { tags: ['teammates'], body: ZAcceptInvitation, response: { 200: ZMe } },
    },
    async (request) => acceptInvitation(deps, callerOf(request), request.body),
  );

  app.get(
    '/users/query/admin-targeting-schemes',
    {
      config: { access: 'read' },
      schema: {
        tags: ['teammates'],
        querystring: ZAdminTargetingSchemesQuery,
        response: { 200: ZTargetingScheme.nullable() },
      },
    },
    async (request) => adminTargetingScheme(deps, memberOf(request), request.query.inviteId),
  );
};
