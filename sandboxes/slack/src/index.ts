export { blocksText } from './pages.ts';
export { buildSlackSandboxServer, listenSlackSandbox, type RunningSlackSandbox } from './server.ts';
export {
  APP_ID,
  BOT,
  CODE_SECONDS,
  DEFAULT_CLIENT,
  type PostedMessage,
  type SlackClient,
  SlackSandbox,
  type SlackSandboxOptions,
  TEAM,
} from './state.ts';
