/**
 * The built-in Google sandbox (local mode and tests). See plugin.ts for how to mount it and which
 * URLs to give the official clients.
 */
export type { GoogleApiError, OAuthError } from './errors.ts';
export { SCOPES } from './oauth.ts';
export {
  type GoogleSandboxPluginOptions,
  googleSandbox,
  googleSandboxApis,
  googleSandboxEndpoints,
  listenGoogleSandbox,
  type RunningGoogleSandbox,
} from './plugin.ts';
export {
  createGoogleSandbox,
  GoogleSandbox,
  type GoogleSandboxOptions,
  type NewMailInput,
  type NewMeetingInput,
  type SentMailJson,
} from './sandbox.ts';
export { DEFAULT_SIZE, EMPTY_SIZE, LARGE_SIZE, sizeForEmail, type WorldSize } from './world.ts';
