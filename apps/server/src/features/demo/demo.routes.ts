import { demoApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { type DemoDeps, demoStatus, openDemo, removeDemo } from './demo.service.ts';

// The demo workspace a member opens from the app. The caller's identity decides whose demo it is,
// whether they call from their own workspace or from the demo itself.
export const demoRoutes: FastifyPluginAsyncZod<DemoDeps> = async (app, deps) => {
  route(app, demoApi.getDemo, async (request) => demoStatus(deps, memberOf(request)));
  route(app, demoApi.openDemo, async (request) => openDemo(deps, memberOf(request)));
  route(app, demoApi.removeDemo, async (request, reply) => {
    await removeDemo(deps, memberOf(request));
    return reply.code(204).send();
  });
};
