import { targetingApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SPECIFIC_INDUSTRIES } from '../../datasets/industries.ts';
import { pageOfOptions } from '../../datasets/options.ts';
import { TECHNOLOGIES } from '../../datasets/technologies.ts';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import {
  createPersona,
  getTargetingScheme,
  listPersonas,
  removePersona,
  setTargetingScheme,
  type TargetingDeps,
} from './targeting.service.ts';

// Targeting preferences and personas belong to the user (the spec files them under /users).
export const targetingRoutes: FastifyPluginAsyncZod<TargetingDeps> = async (app, deps) => {
  route(app, targetingApi.setTargetingScheme, async (request) =>
    setTargetingScheme(deps, memberOf(request), request.body),
  );

  route(app, targetingApi.getTargetingScheme, async (request) => getTargetingScheme(deps, memberOf(request)));

  route(app, targetingApi.listTechnologies, async (request) =>
    pageOfOptions(TECHNOLOGIES, request.query.page, request.query.searchTerm),
  );

  route(app, targetingApi.listSpecificIndustries, async (request) =>
    pageOfOptions(SPECIFIC_INDUSTRIES, request.query.page, request.query.searchTerm),
  );

  route(app, targetingApi.createPersona, async (request, reply) =>
    reply.code(201).send(await createPersona(deps, memberOf(request), request.body)),
  );

  route(app, targetingApi.listPersonas, async (request) => listPersonas(deps, memberOf(request)));

  route(app, targetingApi.deletePersona, async (request, reply) => {
    await removePersona(deps, memberOf(request), request.params.id);
    return reply.code(204).send();
  });
};
