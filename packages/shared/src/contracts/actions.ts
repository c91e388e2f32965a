import {
  ZActionCommandResult,
  ZActionCounts,
  ZActionFilters,
  ZActionFiltersBody,
  ZActionIdBody,
  ZPastActionsPage,
  ZRecommendedActionsFiltersQuery,
  ZRecommendedActionsPage,
} from '../schemas/actions.ts';
import { ZPageQuery } from '../schemas/network.ts';
import { defineRoutes } from './define-route.ts';

// Reads are `identity` rather than `read` so that the restricted third role, which `read` turns
// away, gets the empty lists the spec gives it: the service still requires a member of a workspace
// and scopes everything to it. Commands are `write`: a viewer never acts.
const readErrors = { 403: 'The caller is not a member of a workspace' } as const;
const commandErrors = { 404: 'No action with this id', 409: 'The action was already completed or skipped' } as const;

/** The daily recommended actions, and the past, pending and skipped ones. */
export const actionsApi = defineRoutes('actions', {
  listPastActions: {
    method: 'POST',
    path: '/actions/query',
    summary: 'A page of the past (completed) actions under the filters',
    access: 'identity',
    query: ZPageQuery,
    body: ZActionFiltersBody,
    responses: { 200: ZPastActionsPage },
    errors: readErrors,
  },
  listPendingActions: {
    method: 'POST',
    path: '/actions/query/pending-actions',
    summary: 'A page of the pending actions (sent, awaiting completion) under the filters',
    access: 'identity',
    query: ZPageQuery,
    body: ZActionFiltersBody,
    responses: { 200: ZPastActionsPage },
    errors: readErrors,
  },
  listSkippedActions: {
    method: 'POST',
    path: '/actions/query/skipped-actions',
    summary: 'A page of the skipped actions under the filters',
    access: 'identity',
    query: ZPageQuery,
    body: ZActionFiltersBody,
    responses: { 200: ZPastActionsPage },
    errors: readErrors,
  },
  listPastActionFilters: {
    method: 'GET',
    path: '/actions/query/filters',
    summary: 'The filters of the past, pending and skipped actions, with their options',
    access: 'identity',
    responses: { 200: ZActionFilters },
    errors: readErrors,
  },
  getActionCounts: {
    method: 'GET',
    path: '/actions/query/counts',
    summary: 'How many actions each tab holds',
    access: 'identity',
    responses: { 200: ZActionCounts },
    errors: readErrors,
  },
  listRecommendedActions: {
    method: 'POST',
    path: '/actions/query/recommended-actions',
    summary: "A page of today's recommended actions under the filters",
    access: 'identity',
    query: ZPageQuery,
    body: ZActionFiltersBody,
    responses: { 200: ZRecommendedActionsPage },
    errors: readErrors,
  },
  listRecommendedActionFilters: {
    method: 'GET',
    path: '/actions/query/recommended-actions-filters',
    summary: "The recommended actions' filters, or one filter's options matching a search",
    access: 'identity',
    query: ZRecommendedActionsFiltersQuery,
    responses: { 200: ZActionFilters },
    errors: readErrors,
  },
  skipAction: {
    method: 'POST',
    path: '/actions/command/skip-action',
    summary: 'Skips a recommended action',
    access: 'write',
    body: ZActionIdBody,
    responses: { 200: ZActionCommandResult },
    errors: commandErrors,
  },
  completeAction: {
    method: 'POST',
    path: '/actions/command/set-action-complete',
    summary: 'Marks an action completed',
    access: 'write',
    body: ZActionIdBody,
    responses: { 200: ZActionCommandResult },
    errors: commandErrors,
  },
});
