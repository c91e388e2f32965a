/**
 * The HubSpot sandbox (local mode and tests): its own server, started by `main.ts` or, in tests, by
 * `listenHubSpotSandbox`. The product never imports it: it reaches it through a base URL.
 */
export { noteText } from './pages.ts';
export {
  CLOSED_WON_LIST_NAME,
  DO_NOT_CONTACT_LIST_NAME,
  hubIdFor,
  IMPORT_LIST_NAME,
  IMPORT_LIST_SIZE,
  portalKeyFor,
} from './portal.ts';
export { buildHubSpotSandboxServer, listenHubSpotSandbox, type RunningHubSpotSandbox } from './server.ts';
export {
  ACCESS_TOKEN_SECONDS,
  APP_ID,
  CODE_SECONDS,
  DEFAULT_CLIENT,
  type HubSpotApp,
  HubSpotSandbox,
  type HubSpotSandboxOptions,
  KNOWN_SCOPES,
  type NoteView,
  type TokenResponse,
} from './state.ts';
