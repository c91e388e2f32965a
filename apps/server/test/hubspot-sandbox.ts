/**
 * The HubSpot sandbox for the server's tests. The product never imports a sandbox (it reaches them by
 * URL only); tests do, through this one file outside src/.
 */
export { listenHubSpotSandbox, type RunningHubSpotSandbox } from '@warmpath/sandbox-hubspot';
export { submitConsent as submitHubspotConsent } from '@warmpath/sandbox-hubspot/testing';
