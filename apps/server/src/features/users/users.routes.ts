import { ZCheckDomainRequest, ZCheckDomainResponse, ZError, ZMe, ZRegistration, ZUpdateMe } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { callerOf, memberOf } from '../../plugins/auth.ts';
import { checkDomain, createWorkspaceAdmin, getMe, type UsersDeps, updateMe } from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<UsersDeps> = async (app, deps) => {
  app.get(
    '/users/query/me',
    {
      config: { access: 'identity' },
      schema: { tags: ['users'], response: { 200: ZMe, 404: ZError } },
    },
    async (request) => {
      // A signed-in person who has not registered yet gets 404: the web app then starts sign-up.
      if (!request.member) throw new AppError('NOT_FOUND', 'This account has not registered yet');
      return getMe(deps, request.member);
    },
  );

  app.put(
    '/users/command/update-me',
    {
      config: { access: 'write' },
      schema: { tags: ['users'], body: ZUpdateMe, response: { 200: ZMe } },
    },
    async (request) => updateMe(deps, memberOf(request), request.body),
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
