/**
 * The Slack sandbox for the server's tests. The product never imports a sandbox (it reaches them by
 * URL only); tests do, through this one file outside src/.
 */
export { listenSlackSandbox, type RunningSlackSandbox } from '@warmpath/sandbox-slack';
export { submitConsent } from '@warmpath/sandbox-slack/testing';
