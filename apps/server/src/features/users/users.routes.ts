import { teamApi, usersApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { callerOf, memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { blockContact, getPrivacy, unblockContact, updatePrivacy } from '../privacy/privacy.service.ts';
import { advanceOnboarding, changeRole, listTeammates, removeTeammate } from '../team/team.service.ts';
import { checkDomain, createWorkspaceAdmin, getMe, type UsersDeps, updateMe } from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<UsersDeps> = async (app, deps) => {
  route(app, usersApi.getMe, async (request) => {
    // A signed-in person who has not registered yet gets NOT_REGISTERED: the web app then starts sign-up.
    if (!request.member) throw new AppError('NOT_REGISTERED', 'This account has not registered yet');
    return getMe(deps, request.member);
  });

  route(app, usersApi.updateMe, async (request) => updateMe(deps, memberOf(request), request.body));

  route(app, usersApi.getPrivacy, async (request) => getPrivacy(deps, memberOf(request)));
  route(app, usersApi.updatePrivacy, async (request) => updatePrivacy(deps, memberOf(request), request.body));
  route(app, usersApi.blockContact, async (request) => blockContact(deps, memberOf(request), request.body.entry));
  route(app, usersApi.unblockContact, async (request) => unblockContact(deps, memberOf(request), request.body.entry));

  route(app, teamApi.listTeammates, async (request) =>
    listTeammates(deps, memberOf(request), request.query.searchTerm),
  );

  route(app, teamApi.changeRole, async (request) =>
    changeRole(deps, memberOf(request), request.params.id, request.body.role),
  );

  route(app, teamApi.removeTeammate, async (request, reply) => {
    await removeTeammate(deps, memberOf(request), request.params.id);
    return reply.code(204).send();
  });

  route(app, usersApi.advanceOnboarding, async (request) => advanceOnboarding(deps, memberOf(request), request.body));

  route(app, usersApi.checkDomain, async (request) =>
    checkDomain(deps, { caller: callerOf(request), email: request.body.email }),
  );

  route(app, usersApi.createWorkspaceAdmin, async (request, reply) => {
    const me = await createWorkspaceAdmin(deps, { caller: callerOf(request), registration: request.body });
    return reply.code(201).send(me);
  });
};
