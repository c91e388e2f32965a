import { ZIdParams, ZOptionPage, ZOptionPageQuery, ZPersona, ZPersonaInput, ZTargetingScheme } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SPECIFIC_INDUSTRIES } from '../../datasets/industries.ts';
import { pageOfOptions } from '../../datasets/options.ts';
import { TECHNOLOGIES } from '../../datasets/technologies.ts';
import { memberOf } from '../../plugins/auth.ts';
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
  app.post(
    '/users/command/set-targeted-accounts-preferences',
    {
      config: { access: 'self' },
      schema: { tags: ['targeting'], body: ZTargetingScheme, response: { 200: ZTargetingScheme } },
    },
    async (request) => setTargetingScheme(deps, memberOf(request), request.body),
  );

  app.get(
    '/users/query/get-targeting-schemes',
    { config: { access: 'read' }, schema: { tags: ['targeting'], response: { 200: ZTargetingScheme.nullable() } } },
    async (request) => getTargetingScheme(deps, memberOf(request)),
  );

  app.get(
    '/users/query/technologies-list',
    {
      config: { access: 'read' },
      schema: { tags: ['targeting'], querystring: ZOptionPageQuery, response: { 200: ZOptionPage } },
    },
    async (request) => pageOfOptions(TECHNOLOGIES, request.query.page, request.query.searchTerm),
  );

  app.get(
    '/users/query/specific-industries-options',
    {
      config: { access: 'read' },
      schema: { tags: ['targeting'], querystring: ZOptionPageQuery, response: { 200: ZOptionPage } },
    },
    async (request) => pageOfOptions(SPECIFIC_INDUSTRIES, request.query.page, request.query.searchTerm),
  );

  app.post(
    '/users/command/create-persona',
    { config: { access: 'self' }, schema: { tags: ['targeting'], body: ZPersonaInput, response: { 201: ZPersona } } },
    async (request, reply) => reply.code(201).send(await createPersona(deps, memberOf(request), request.body)),
  );

  app.get(
    '/users/query/get-personas',
    { config: { access: 'read' }, schema: { tags: ['targeting'], response: { 200: z.array(ZPersona) } } },
    async (request) => listPersonas(deps, memberOf(request)),
  );

  app.delete(
    '/users/command/delete-persona/:id',
    { config: { access: 'self' }, schema: { tags: ['targeting'], params: ZIdParams } },
    async (request, reply) => {
      await removePersona(deps, memberOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
};
