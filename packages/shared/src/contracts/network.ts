import {
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
} from '../schemas/network.ts';
import { defineRoutes, fileAnswer } from './define-route.ts';

/** The network table: its pages, filters, report cards, proximity's why and the CSV export. */
export const networkApi = defineRoutes('network', {
  queryContacts: {
    method: 'POST',
    path: '/contacts/query',
    summary: 'A page of the network table under the filters',
    access: 'read',
    query: ZPageQuery,
    body: ZFiltersBody,
    responses: { 200: ZContactsPage },
  },
  queryNetworkFilters: {
    method: 'POST',
    path: '/contacts/query/filters',
    summary: "Every filter's options, counted under the current filters",
    access: 'read',
    query: ZFilterPagesQuery,
    body: ZFiltersBody,
    responses: { 200: ZNetworkFilters },
  },
  searchNetworkFilterOptions: {
    method: 'POST',
    path: '/contacts/query/filters/search',
    summary: "A filter's options matching a search, counted under the current filters",
    access: 'read',
    query: ZFilterSearchQuery,
    body: ZFiltersBody,
    responses: { 200: ZFilterSearchResult },
  },
  getNetworkReportCards: {
    method: 'GET',
    path: '/contacts/query/network-report-cards',
    summary: "The network's report cards",
    access: 'read',
    responses: { 200: ZReportCards },
  },
  explainProximity: {
    method: 'GET',
    path: '/contacts/query/proximity-explanation',
    summary: "Why a prospect's proximity is what it is: its best path and channels",
    access: 'read',
    query: ZProspectIdQuery,
    responses: { 200: ZProximityExplanation },
    errors: { 404: 'No prospect with this id' },
  },
  exportContactsCsv: {
    method: 'POST',
    path: '/contacts/query/export-csv',
    summary: 'The network table under the filters, as a CSV file',
    access: 'read',
    body: ZFiltersBody,
    responses: { 200: fileAnswer('text/csv', 'Every row under the filters; a cut download means the export failed') },
  },
});
