/**
 * The product's thin Slack client: Slack's official `WebClient` with only its base URL taken from
 * configuration, so the same code talks to Slack and to the Slack sandbox (sandboxes/slack).
 *
 * Every failure is thrown as a `SlackCallError` whose `failure` tells the caller what to do:
 * - `rate_limited`: try again after `retryAfterSeconds` (the client never waits itself, so a worker
 *   never sleeps on a 429: it reschedules);
 * - `revoked`: the token is dead or lacks a permission; the integration must be connected again;
 * - `channel`: the chosen channel cannot take the message; the admin must pick another;
 * - `other`: anything else (network, 5xx, bad code...), worth a later retry.
 */
import {
  type Block,
  type KnownBlock,
  LogLevel,
  type MessageMetadata,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebClient,
} from '@slack/web-api';
import type { Config } from '../../config.ts';

/**
 * What Warmpath asks a workspace for. `channels:history` and `groups:history` are there for
 * `findMessageByMetadata`: Slack answers `conversations.history` with `missing_scope` without them.
 */
export const SLACK_SCOPES = [
  'chat:write',
  'channels:read',
  'groups:read',
  'channels:history',
  'groups:history',
  'incoming-webhook',
] as const;

/** Slack's error codes that mean the token no longer works for us: reconnect. */
const REVOKED_ERRORS = new Set([
  'token_revoked',
  'invalid_auth',
  'account_inactive',
  'not_authed',
  'token_expired',
  // The app lacks a permission it needs: only a new install (a reconnect) grants it.
  'missing_scope',
]);
const CHANNEL_ERRORS = new Set(['channel_not_found', 'not_in_channel', 'is_archived']);

/** Slack's advice when a `ratelimited` answer comes without a 429 and its header. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

export type SlackFailure =
  | { kind: 'rate_limited'; code: 'ratelimited'; retryAfterSeconds: number }
  | { kind: 'revoked'; code: string }
  | { kind: 'channel'; code: string }
  | { kind: 'other'; code: string };

export class SlackCallError extends Error {
  constructor(
    readonly method: string,
    readonly failure: SlackFailure,
    options?: ErrorOptions,
  ) {
    super(`Slack ${method} failed: ${failure.code}`, options);
    this.name = 'SlackCallError';
  }
}

/** Sorts what `WebClient` throws into the four kinds the product acts on. */
export function classifySlackError(error: unknown): SlackFailure {
  if (error instanceof WebAPIRateLimitedError) {
    return { kind: 'rate_limited', code: 'ratelimited', retryAfterSeconds: error.retryAfter };
  }
  if (error instanceof WebAPIPlatformError) {
    const code = error.data.error;
    if (code === 'ratelimited') {
      return { kind: 'rate_limited', code, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS };
    }
    if (REVOKED_ERRORS.has(code)) return { kind: 'revoked', code };
    if (CHANNEL_ERRORS.has(code)) return { kind: 'channel', code };
    return { kind: 'other', code };
  }
  // WebAPIRequestError (network, time-out), WebAPIHTTPError (a status other than 200 and 429), or a bug.
  const code =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : 'unknown_error';
  return { kind: 'other', code };
}

export type SlackInstallation = {
  /** The bot token (`xoxb-`): seal it before storing. */
  accessToken: string;
  scopes: string[];
  botUserId: string;
  appId: string;
  team: { id: string; name: string };
  authedUserId: string;
  /** The channel the admin picked on Slack's install screen; null when Slack sent none. */
  incomingWebhook: { channel: string; channelId: string; configurationUrl: string; url: string } | null;
};

export type SlackMessage = {
  channel: string;
  /** Shown in notifications and by screen readers, and where blocks cannot be rendered. */
  text: string;
  blocks?: (KnownBlock | Block)[];
  /** Slack message metadata; the outbox puts its delivery id here for `findMessageByMetadata`. */
  metadata?: MessageMetadata;
};

export type SlackChannel = { id: string; name: string; isPrivate: boolean; isMember: boolean };

export type SlackClient = {
  /** Slack's install screen for this app, with our scopes; `state` comes back on the callback. */
  authorizeUrl(options: { state: string; redirectUri: string }): string;
  /** Trades the callback's `code` for the bot token (`oauth.v2.access`). */
  exchangeCode(code: string, redirectUri: string): Promise<SlackInstallation>;
  /** Posts a message (`chat.postMessage`); answers the channel id and the message's `ts`. */
  postMessage(token: string, message: SlackMessage): Promise<{ channel: string; ts: string }>;
  /**
   * The newest message of `channel` (an id, as Slack's history takes no names) whose metadata has `eventType` and `event_payload[key] === value`,
   * or null: after a crash between the post and its record, this tells whether the post happened.
   */
  findMessageByMetadata(
    token: string,
    channel: string,
    eventType: string,
    key: string,
    value: string,
    options?: { oldest?: Date; maxMessages?: number },
  ): Promise<{ ts: string } | null>;
  /** The channels the app can see (public ones, and private ones it was added to), archived ones left out. */
  listChannels(token: string): Promise<SlackChannel[]>;
  /** Revokes the token (`auth.revoke`); a token Slack already refuses counts as revoked. */
  revoke(token: string): Promise<void>;
};

export type SlackClientOptions = {
  /** Per-request time-out in milliseconds. */
  timeoutMs?: number;
};

const PAGE_SIZE = 200;

export function createSlackClient(config: Config['slack'], options: SlackClientOptions = {}): SlackClient {
  const webClient = (token?: string) =>
    new WebClient(token, {
      slackApiUrl: config.apiUrl,
      // A 429 becomes an error at once: the outbox reschedules at Retry-After instead of a worker sleeping.
      rejectRateLimitedCalls: true,
      // The outbox owns retries and their schedule; a hidden retry inside a call would stretch its attempt.
      retryConfig: { retries: 0 },
      timeout: options.timeoutMs ?? 10_000,
      // Method names only, never a URL handed in from elsewhere.
      allowAbsoluteUrls: false,
      logLevel: LogLevel.WARN,
    });

  async function call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new SlackCallError(method, classifySlackError(error), { cause: error });
    }
  }

  return {
    authorizeUrl({ state, redirectUri }) {
      const url = new URL(config.authorizeUrl);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('scope', SLACK_SCOPES.join(','));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode(code, redirectUri) {
      const answer = await call('oauth.v2.access', () =>
        webClient().oauth.v2.access({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          code,
          redirect_uri: redirectUri,
        }),
      );
      if (!answer.access_token || answer.token_type !== 'bot') {
        throw new SlackCallError('oauth.v2.access', { kind: 'other', code: 'no_bot_token' });
      }
      const webhook = answer.incoming_webhook;
      return {
        accessToken: answer.access_token,
        scopes: (answer.scope ?? '').split(',').filter(Boolean),
        botUserId: answer.bot_user_id ?? '',
        appId: answer.app_id ?? '',
        team: { id: answer.team?.id ?? '', name: answer.team?.name ?? '' },
        authedUserId: answer.authed_user?.id ?? '',
        incomingWebhook:
          webhook?.channel_id && webhook.url
            ? {
                channel: webhook.channel ?? '',
                channelId: webhook.channel_id,
                configurationUrl: webhook.configuration_url ?? '',
                url: webhook.url,
              }
            : null,
      };
    },

    async postMessage(token, message) {
      const answer = await call('chat.postMessage', () =>
        webClient(token).chat.postMessage({
          channel: message.channel,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
          ...(message.metadata ? { metadata: message.metadata } : {}),
          // Links in our messages point back to the product: no previews of its pages.
          unfurl_links: false,
          unfurl_media: false,
        }),
      );
      return { channel: answer.channel ?? message.channel, ts: answer.ts ?? '' };
    },

    async findMessageByMetadata(token, channel, eventType, key, value, findOptions = {}) {
      const maxMessages = findOptions.maxMessages ?? 1000;
      const oldest = findOptions.oldest ? (findOptions.oldest.getTime() / 1000).toFixed(6) : undefined;
      let cursor: string | undefined;
      let seen = 0;
      // History comes newest first: the message we look for was posted moments before the crash.
      while (seen < maxMessages) {
        const page = await call('conversations.history', () =>
          webClient(token).conversations.history({
            channel,
            limit: Math.min(PAGE_SIZE, maxMessages - seen),
            include_all_metadata: true,
            ...(oldest ? { oldest } : {}),
            ...(cursor ? { cursor } : {}),
          }),
        );
        for (const message of page.messages ?? []) {
          const metadata = message.metadata;
          if (metadata?.event_type !== eventType) continue;
          const held = (metadata.event_payload as Record<string, unknown> | undefined)?.[key];
          if (held !== undefined && String(held) === value && message.ts) return { ts: message.ts };
        }
        seen += page.messages?.length ?? 0;
        cursor = page.response_metadata?.next_cursor;
        if (!page.has_more || !cursor || (page.messages?.length ?? 0) === 0) break;
      }
      return null;
    },

    async listChannels(token) {
      const channels: SlackChannel[] = [];
      let cursor: string | undefined;
      do {
        const page = await call('conversations.list', () =>
          webClient(token).conversations.list({
            types: 'public_channel,private_channel',
            exclude_archived: true,
            limit: PAGE_SIZE,
            ...(cursor ? { cursor } : {}),
          }),
        );
        for (const channel of page.channels ?? []) {
          if (!channel.id || !channel.name) continue;
          channels.push({
            id: channel.id,
            name: channel.name,
            isPrivate: channel.is_private === true,
            isMember: channel.is_member === true,
          });
        }
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
      return channels;
    },

    async revoke(token) {
      try {
        await call('auth.revoke', () => webClient(token).auth.revoke());
      } catch (error) {
        // Disconnecting must succeed when the user already removed the app from Slack.
        if (error instanceof SlackCallError && error.failure.kind === 'revoked') return;
        throw error;
      }
    },
  };
}
