import { ZDemo } from '../schemas/demo.ts';
import { defineRoutes, noContent } from './define-route.ts';

export const demoApi = defineRoutes('demo', {
  getDemo: {
    method: 'GET',
    path: '/demo/query',
    summary: 'Whether the caller has a demo workspace',
    access: 'read',
    responses: { 200: ZDemo },
    errors: { 403: 'The caller is not a member of a workspace' },
  },
  openDemo: {
    method: 'POST',
    path: '/demo/command/open',
    summary: "Creates the caller's demo workspace (a few seconds) unless it exists",
    access: 'read',
    responses: { 200: ZDemo },
    errors: { 403: 'The caller is not a member of a workspace' },
  },
  removeDemo: {
    method: 'DELETE',
    path: '/demo/command/remove',
    summary: "Deletes the caller's demo workspace and everything in it",
    access: 'read',
    responses: { 204: noContent },
    errors: { 403: 'The caller is not a member of a workspace', 404: 'No demo workspace' },
  },
});
