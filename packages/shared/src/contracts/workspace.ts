import { z } from 'zod';
import { ZTrackedEvent, ZTrackingSettings, ZTrackingSettingsUpdate } from '../schemas/tracking.ts';
import { ZWorkspace, ZWorkspaceUpdate } from '../schemas/workspace.ts';
import { defineRoutes } from './define-route.ts';

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
});
