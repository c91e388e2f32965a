import { z } from 'zod';
import { ZAuditPage, ZAuditQuery, ZPersonExport } from '../schemas/audit.ts';
import { ZIdParams } from '../schemas/common.ts';
import { ZTrackedEvent, ZTrackingSettings, ZTrackingSettingsUpdate } from '../schemas/tracking.ts';
import { ZWorkspace, ZWorkspaceUpdate } from '../schemas/workspace.ts';
import { defineRoutes, fileAnswer, noContent } from './define-route.ts';

/** The workspace's settings. */
export const workspaceApi = defineRoutes('workspace', {
  getWorkspace: {
    method: 'GET',
    path: '/workspace/query',
    summary: "The caller's workspace",
    access: 'read',
    responses: { 200: ZWorkspace },
  },
  updateWorkspace: {
    method: 'PUT',
    path: '/workspace/command/update',
    summary: "Changes the workspace's name, domains, join flag and time zone",
    description: 'The web app sends the whole workspace; only these fields change.',
    access: 'admin',
    body: ZWorkspaceUpdate,
    responses: { 200: ZWorkspace },
    errors: { 409: 'A domain belongs to another workspace' },
  },
  getTracking: {
    method: 'GET',
    path: '/workspace/query/tracking',
    summary: "The workspace's website tracking: its public key, snippet, sites and signal rules",
    access: 'admin',
    responses: { 200: ZTrackingSettings },
  },
  setTracking: {
    method: 'PUT',
    path: '/workspace/command/set-tracking',
    summary: 'Saves the allowed sites, the pricing-page paths and the many-pages rule',
    access: 'admin',
    body: ZTrackingSettingsUpdate,
    responses: { 200: ZTrackingSettings },
  },
  listTrackedEvents: {
    method: 'GET',
    path: '/workspace/query/tracked-events',
    summary: 'The last 20 page views received, newest first, for the live view',
    access: 'admin',
    responses: { 200: z.array(ZTrackedEvent) },
  },
  listAuditLog: {
    method: 'GET',
    path: '/workspace/query/audit-log',
    summary: 'A page of the audit log, newest first (kept one year)',
    access: 'admin',
    query: ZAuditQuery,
    responses: { 200: ZAuditPage },
  },
  exportPerson: {
    method: 'POST',
    path: '/people/command/export/:id',
    summary: 'Everything the workspace holds about a person, as JSON (recorded in the audit log)',
    access: 'admin',
    params: ZIdParams,
    responses: { 200: ZPersonExport },
    errors: { 404: 'No such person' },
  },
  exportPersonCsv: {
    method: 'POST',
    path: '/people/command/export-csv/:id',
    summary: 'Everything the workspace holds about a person, as CSV (recorded in the audit log)',
    access: 'admin',
    params: ZIdParams,
    responses: { 200: fileAnswer('text/csv', 'One line per fact: section, field, value') },
    errors: { 404: 'No such person' },
  },
  erasePerson: {
    method: 'POST',
    path: '/people/command/erase/:id',
    summary:
      'Erases a person: their evidence, edges, signals and actions; a tombstone keeps syncs from re-creating them',
    access: 'admin',
    params: ZIdParams,
    responses: { 204: noContent },
    errors: { 404: 'No such person' },
  },
});
