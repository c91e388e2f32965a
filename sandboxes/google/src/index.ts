/**
 * The Google sandbox (local mode and tests): its own server, started by `main.ts` or, in tests, by
 * `listenGoogleSandbox`. The product never imports it: it reaches it through a base URL.
 */

// The HubSpot sandbox fills its CRM portals with companies and people of the same making, and with the
// companies of each signed-in user's world, so CRM exclusions visibly change what that user sees.
export { generateCompanies } from './companies.ts';
export type { NewMailInput, NewMeetingInput } from './controls.ts';
export type { GoogleApiError, OAuthError } from './errors.ts';
export { drawName, localPart } from './names.ts';
export { SCOPES } from './oauth.ts';
export { createRandom, type Random } from './random.ts';
export { createGoogleSandbox, GoogleSandbox, type GoogleSandboxOptions, type SentMailJson } from './sandbox.ts';
export {
  buildGoogleSandboxServer,
  googleSandboxEndpoints,
  listenGoogleSandbox,
  type RunningGoogleSandbox,
} from './server.ts';
export { CULTURES } from './words.ts';
export {
  type Company as WorldCompany,
  DEFAULT_SIZE,
  EMPTY_SIZE,
  generateWorld,
  LARGE_SIZE,
  sizeForEmail,
  type World,
  type WorldSize,
} from './world.ts';
