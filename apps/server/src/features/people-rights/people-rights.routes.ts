import { workspaceApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { erasePerson, exportPerson, type PeopleRightsDeps, personExportCsv } from './people-rights.service.ts';

/** People's rights (GDPR articles 15 and 17): an admin exports or erases what the workspace holds about a person. */
export const peopleRightsRoutes: FastifyPluginAsyncZod<PeopleRightsDeps> = async (app, deps) => {
  route(app, workspaceApi.exportPerson, async (request) => exportPerson(deps, memberOf(request), request.params.id));

  route(app, workspaceApi.exportPersonCsv, async (request, reply) => {
    const data = await exportPerson(deps, memberOf(request), request.params.id, 'csv');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="person-${request.params.id}.csv"`)
      .send(personExportCsv(data));
  });

  route(app, workspaceApi.erasePerson, async (request, reply) => {
    await erasePerson(deps, memberOf(request), request.params.id);
    return reply.code(204).send();
  });
};
