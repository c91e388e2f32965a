import { workspaceApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { getTracking, recentTrackedEvents, setTracking, type TrackingDeps } from './tracking.service.ts';

/** The admin's 'Website tracking' section of Admin › Workspace. */
export const trackingSettingsRoutes: FastifyPluginAsyncZod<TrackingDeps> = async (app, deps) => {
  route(app, workspaceApi.getTracking, async (request) => getTracking(deps, memberOf(request)));
  route(app, workspaceApi.setTracking, async (request) => setTracking(deps, memberOf(request), request.body));
  route(app, workspaceApi.listTrackedEvents, async (request) => recentTrackedEvents(deps, memberOf(request)));
};
