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
});
