import {
  ZAdvanceOnboarding,
  ZChangeRole,
  ZCheckDomainRequest,
  ZCheckDomainResponse,
  ZError,
  ZIdParams,
  ZMe,
  ZRegistration,
  ZSearchQuery,
  ZTeammate,
  ZUpdateMe,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { callerOf, memberOf } from '../../plugins/auth.ts';
import { advanceOnboarding, changeRole, listTeammates, removeTeammate } from '../team/team.service.ts';
import { checkDomain, createWorkspaceAdmin, getMe, type UsersDeps, updateMe } from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<UsersDeps> = async (app, deps) => {
  app.get(
    '/users/query/me',
    {
      config: { access: 'identity' },
      schema: { tags: ['users'], response: { 200: ZMe, 403: ZError } },
    },
    async (request) => {
      // A signed-in person who has not registered yet gets NOT_REGISTERED: the web app then starts sign-up.
      if (!request.member) throw new AppError('NOT_REGISTERED', 'This account has not registered yet');
      return getMe(deps, request.member);
    },
  );

  app.put(
    '/users/command/update-me',
    {
      config: { access: 'self' },
      schema: { tags: ['users'], body: ZUpdateMe, response: { 200: ZMe } },
    },
    async (request) => updateMe(deps, memberOf(request), request.body),
  );

  app.get(
    '/users/query',
    {
      config: { access: 'read' },
      schema: { tags: ['users'], querystring: ZSearchQuery, response: { 200: z.array(ZTeammate) } },
    },
    async (request) => listTeammates(deps, memberOf(request), request.query.searchTerm),
  );

  app.put(
    '/users/command/change-role/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], params: ZIdParams, body: ZChangeRole, response: { 200: ZTeammate } },
    },
    async (request) => changeRole(deps, memberOf(request), request.params.id, request.body.role),
  );

  app.delete(
    '/users/command/delete/:id',
    { config: { access: 'admin' }, schema: { tags: ['users'], params: ZIdParams } },
    async (request, reply) => {
      await removeTeammate(deps, memberOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/users/command/advance-onboarding',
    {
      config: { access: 'self' },
      schema: { tags: ['users'], body: ZAdvanceOnboarding, response: { 200: ZMe } },
    },
    async (request) => advanceOnboarding(deps, memberOf(request), request.body),
  );

  app.post(
    '/users/command/check-domain',
    {
      config: { access: 'identity' },
      schema: { tags: ['users'], body: ZCheckDomainRequest, response: { 200: ZCheckDomainResponse } },
    },
    async (request) => checkDomain(deps, { caller: callerOf(request), email: request.body.email }),
  );

  app.post(
    '/users/command/create-workspace-admin',
    {
      config: { access: 'identity' },
      schema: { tags: ['users'], body: ZRegistration, response: { 201: ZMe } },
    },
    async (request, reply) => {
      const me = await createWorkspaceAdmin(deps, { caller: callerOf(request), registration: request.body });
      return reply.code(201).send(me);
    },
  );
};
