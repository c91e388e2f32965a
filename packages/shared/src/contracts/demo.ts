import { z } from 'zod';
import { defineRoutes, noContent } from './define-route.ts';

/**
 * A member's demo workspace: made-up data to explore the product with, apart from their real workspace.
 * 'ready' once it exists; the app then sends `DEMO_WORKSPACE_HEADER` to act in it.
 */
export const ZDemo = z.object({ status: z.enum(['none', 'ready']) });
export type TDemo = z.infer<typeof ZDemo>;

/** Sent with a request, it acts in the caller's demo workspace, as its admin, instead of their own. */
export const DEMO_WORKSPACE_HEADER = 'x-warmpath-workspace';
export const DEMO_WORKSPACE_VALUE = 'demo';

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
