/**
 * The Google sandbox (local mode and tests): its own server, started by `main.ts` or, in tests, by
 * `listenGoogleSandbox`. The product never imports it: it reaches it through a base URL.
 */
export type { NewMailInput, NewMeetingInput } from './controls.ts';
export type { GoogleApiError, OAuthError } from './errors.ts';
export { SCOPES } from './oauth.ts';
export { createGoogleSandbox, GoogleSandbox, type GoogleSandboxOptions, type SentMailJson } from './sandbox.ts';
export {
  buildGoogleSandboxServer,
  googleSandboxEndpoints,
  listenGoogleSandbox,
  type RunningGoogleSandbox,
} from './server.ts';
export { DEFAULT_SIZE, EMPTY_SIZE, LARGE_SIZE, sizeForEmail, type WorldSize } from './world.ts';
