import { integrationsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import {
  deleteHubspotToken,
  getHubspotConnection,
  type HubspotDeps,
  hubspotCompanies,
  hubspotListOptions,
  integrateHubspot,
  setHubspotNotes,
  startHubspotConnection,
  syncHubspotNow,
} from './hubspot.service.ts';

export const hubspotRoutes: FastifyPluginAsyncZod<HubspotDeps> = async (app, deps) => {
  route(app, integrationsApi.connectHubspot, async (request, reply) => {
    const { url, cookie } = startHubspotConnection(deps, memberOf(request), request.query.redirectUrl);
    reply.header('set-cookie', cookie);
    return { url };
  });
  route(app, integrationsApi.integrateHubspot, async (request, reply) => {
    reply.header('set-cookie', deps.flow.clearCookie);
    return integrateHubspot(deps, memberOf(request), request.body, request.headers.cookie);
  });
  route(app, integrationsApi.getHubspot, async (request) => getHubspotConnection(deps, memberOf(request)));
  route(app, integrationsApi.deleteHubspotToken, async (request, reply) => {
    await deleteHubspotToken(deps, memberOf(request));
    return reply.code(204).send();
  });
  route(app, integrationsApi.hubspotListsOptions, async (request) =>
    hubspotListOptions(deps, memberOf(request), request.query.searchTerm),
  );
  route(app, integrationsApi.hubspotCompanies, async (request) =>
    hubspotCompanies(deps, memberOf(request), request.query),
  );
  route(app, integrationsApi.syncHubspot, async (request) => syncHubspotNow(deps, memberOf(request)));
  route(app, integrationsApi.setHubspotNotes, async (request) =>
    setHubspotNotes(deps, memberOf(request), request.body.notesEnabled),
  );
};
