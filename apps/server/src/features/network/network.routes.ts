import { PassThrough } from 'node:stream';
import {
  EXPORT_FILE_PREFIX,
  ZContactsPage,
  ZFilterPagesQuery,
  ZFilterSearchQuery,
  ZFilterSearchResult,
  ZFiltersBody,
  ZNetworkFilters,
  ZPageQuery,
  ZProspectIdQuery,
  ZProximityExplanation,
  ZReportCards,
  ZWarmIntroItems,
  ZWarmIntroModalData,
  ZWarmIntroModalQuery,
  ZWarmIntroSent,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { sendWarmIntros, warmIntroModalData } from '../intros/intros.service.ts';
import { exportNetworkCsv } from './export-csv.ts';
import {
  type ContactsDeps,
  explainProximity,
  networkReportCards,
  queryContacts,
  queryFilters,
  searchFilterOptions,
} from './network.service.ts';

// The network table's calls (spec section 7, Contacts). Every one is scoped to the caller's workspace.
export const networkRoutes: FastifyPluginAsyncZod<ContactsDeps> = async (app, deps) => {
  app.post(
    '/contacts/query',
    {
      config: { access: 'read' },
      schema: { tags: ['contacts'], querystring: ZPageQuery, body: ZFiltersBody, response: { 200: ZContactsPage } },
    },
    async (request) =>
      queryContacts(deps, memberOf(request), request.body.filters, request.query.page, request.query.pageSize),
  );

  app.post(
    '/contacts/query/filters',
    {
      config: { access: 'read' },
      schema: {
        tags: ['contacts'],
        querystring: ZFilterPagesQuery,
        body: ZFiltersBody,
        response: { 200: ZNetworkFilters },
      },
    },
    async (request) => queryFilters(deps, memberOf(request), request.body.filters, request.query),
  );

  app.post(
    '/contacts/query/filters/search',
    {
      config: { access: 'read' },
      schema: {
        tags: ['contacts'],
        querystring: ZFilterSearchQuery,
        body: ZFiltersBody,
        response: { 200: ZFilterSearchResult },
      },
    },
    async (request) =>
      searchFilterOptions(
        deps,
        memberOf(request),
        request.body.filters,
        request.query.filterField,
        request.query.searchTerm,
      ),
  );

  app.get(
    '/contacts/query/network-report-cards',
    { config: { access: 'read' }, schema: { tags: ['contacts'], response: { 200: ZReportCards } } },
    async (request) => networkReportCards(deps, memberOf(request)),
  );

  app.get(
    '/contacts/query/proximity-explanation',
    {
      config: { access: 'read' },
      schema: { tags: ['contacts'], querystring: ZProspectIdQuery, response: { 200: ZProximityExplanation } },
    },
    async (request) => explainProximity(deps, memberOf(request), request.query.prospectId),
  );

  app.post(
    '/contacts/query/export-csv',
    { config: { access: 'read' }, schema: { tags: ['contacts'], body: ZFiltersBody } },
    async (request, reply) => {
      const member = memberOf(request);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const out = new PassThrough();
      // The export ends `out` when done, and destroys it on failure (the client sees a cut download).
      exportNetworkCsv(deps.database, member, request.body.filters, out).catch((error: unknown) => {
        request.log.warn({ err: error }, 'network export stopped');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${EXPORT_FILE_PREFIX}-export-${stamp}.csv"`)
        .send(out);
    },
  );

  app.get(
    '/contacts/query/warm-intro-modal-data',
    {
      config: { access: 'read' },
      schema: { tags: ['contacts'], querystring: ZWarmIntroModalQuery, response: { 200: ZWarmIntroModalData } },
    },
    async (request) => warmIntroModalData(deps, memberOf(request), request.query),
  );

  app.post(
    '/contacts/command/send-warm-intro-email',
    {
      config: { access: 'write' },
      schema: { tags: ['contacts'], body: ZWarmIntroItems, response: { 200: ZWarmIntroSent } },
    },
    async (request) => sendWarmIntros(deps, memberOf(request), request.body),
  );
};
