import { actionsApi } from './actions.ts';
import type { RouteContract } from './define-route.ts';
import { demoApi } from './demo.ts';
import { integrationsApi } from './integrations.ts';
import { introsApi } from './intros.ts';
import { listsApi } from './lists.ts';
import { networkApi } from './network.ts';
import { publicApi } from './public.ts';
import { sourcesApi } from './sources.ts';
import { targetingApi } from './targeting.ts';
import { teamApi } from './team.ts';
import { usersApi } from './users.ts';
import { workflowsApi } from './workflows.ts';
import { workspaceApi } from './workspace.ts';

export * from './define-route.ts';
export {
  actionsApi,
  demoApi,
  integrationsApi,
  introsApi,
  listsApi,
  networkApi,
  publicApi,
  sourcesApi,
  targetingApi,
  teamApi,
  usersApi,
  workflowsApi,
  workspaceApi,
};

/** Every route of the product's API, in the README's order of domains. */
export const API_CONTRACTS: readonly RouteContract[] = [
  networkApi,
  introsApi,
  actionsApi,
  listsApi,
  teamApi,
  usersApi,
  targetingApi,
  workspaceApi,
  sourcesApi,
  integrationsApi,
  workflowsApi,
  demoApi,
  publicApi,
].flatMap((domain): RouteContract[] => Object.values(domain));
