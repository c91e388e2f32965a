import { PassThrough } from 'node:stream';
import { EXPORT_FILE_PREFIX, networkApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { exportNetworkCsv, recordNetworkExport } from './export-csv.ts';
import {
  type ContactsDeps,
  explainProximity,
  getAccountCoverage,
  networkReportCards,
  queryContacts,
  queryFilters,
  searchFilterOptions,
} from './network.service.ts';

// The network table's calls (spec section 7, Contacts). Every one is scoped to the caller's workspace.
export const networkRoutes: FastifyPluginAsyncZod<ContactsDeps> = async (app, deps) => {
  route(app, networkApi.queryContacts, async (request) =>
    queryContacts(deps, memberOf(request), request.body.filters, request.query.page, request.query.pageSize),
  );

  route(app, networkApi.queryNetworkFilters, async (request) =>
    queryFilters(deps, memberOf(request), request.body.filters, request.query),
  );

  route(app, networkApi.searchNetworkFilterOptions, async (request) =>
    searchFilterOptions(
      deps,
      memberOf(request),
      request.body.filters,
      request.query.filterField,
      request.query.searchTerm,
    ),
  );

  route(app, networkApi.getNetworkReportCards, async (request) => networkReportCards(deps, memberOf(request)));

  route(app, networkApi.getAccountCoverage, async (request) =>
    getAccountCoverage(deps, memberOf(request), {
      sort: request.query.sort,
      noPath: request.query.noPath === 'true',
      page: request.query.page,
      pageSize: request.query.pageSize,
    }),
  );

  route(app, networkApi.explainProximity, async (request) =>
    explainProximity(deps, memberOf(request), request.query.prospectId),
  );

  route(app, networkApi.exportContactsCsv, async (request, reply) => {
    const member = memberOf(request);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const out = new PassThrough();
    // The export ends `out` when done, and destroys it on failure (the client sees a cut download).
    // A whole-network read: on the read replica when there is one (db/read-replica.ts).
    recordNetworkExport(deps.database, member, request.body.filters)
      .then(() => deps.database.forReads(member.workspaceId))
      .then((database) => exportNetworkCsv(database, member, request.body.filters, out))
      .catch((error: unknown) => {
        request.log.warn({ err: error }, 'network export stopped');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${EXPORT_FILE_PREFIX}-export-${stamp}.csv"`)
      .send(out);
  });
};
