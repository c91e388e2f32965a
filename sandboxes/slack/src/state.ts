/**
 * The Slack sandbox's memory: one workspace ('Warmpath Sandbox Team') with a few channels, the OAuth
 * codes and bot tokens of its installations, what was posted, and the failures tests ask for.
 *
 * Methods throw `SlackApiError` with Slack's own error codes; the HTTP layer turns it into Slack's
 * answer (HTTP 200 with `{ ok: false, error }`, or 429 with `Retry-After`).
 */
import crypto from 'node:crypto';

export class SlackApiError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

/** A rate-limited call: Slack answers HTTP 429 with `Retry-After` (seconds) and `{ ok: false, error: 'ratelimited' }`. */
export class SlackRateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('ratelimited');
  }
}

export type SlackClient = { clientId: string; clientSecret: string; redirectUris?: string[] };

/**
 * The product's sandbox defaults (apps/server/src/config.ts): the product never imports this package,
 * so the same two strings are written in both places.
 */
export const DEFAULT_CLIENT: SlackClient = {
  clientId: 'warmpath-sandbox-client',
  clientSecret: 'warmpath-sandbox-secret',
};

export const TEAM = { id: 'T0WARMPATH1', name: 'Warmpath Sandbox Team', domain: 'warmpath-sandbox' } as const;
export const APP_ID = 'A0WARMPATH1';
export const BOT = { userId: 'U0WARMBOT01', botId: 'B0WARMBOT01', name: 'warmpath' } as const;
/** The person who clicks Allow: the sandbox has a single signed-in member. */
export const INSTALLER = { id: 'U0SANDBOX01', name: 'sandbox.admin' } as const;

/** Authorization codes live 10 minutes, as Slack's do. */
export const CODE_SECONDS = 600;

export type Channel = {
  id: string;
  name: string;
  isPrivate: boolean;
  isGeneral: boolean;
  isArchived: boolean;
  created: number;
  purpose: string;
  numMembers: number;
};

export type MessageMetadata = { event_type: string; event_payload: Record<string, unknown> };

export type PostedMessage = {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[] | undefined;
  metadata: MessageMetadata | undefined;
  /** The token's installation, or 'incoming-webhook' for a webhook post. */
  via: string;
};

type Installation = {
  id: string;
  token: string;
  scopes: string[];
  webhookChannelId: string | null;
  webhookSecret: string | null;
  revoked: boolean;
};

type PendingCode = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  userScopes: string[];
  webhookChannelId: string | null;
  expiresAt: number;
  used: boolean;
};

const CREATED = 1_700_000_000;

function initialChannels(): Channel[] {
  return [
    {
      id: 'C0GENERAL01',
      name: 'general',
      isPrivate: false,
      isGeneral: true,
      isArchived: false,
      created: CREATED,
      purpose: 'Announcements and work-based matters for the whole team',
      numMembers: 42,
    },
    {
      id: 'C0SALES0001',
      name: 'sales',
      isPrivate: false,
      isGeneral: false,
      isArchived: false,
      created: CREATED + 60,
      purpose: 'Pipeline, deals and wins',
      numMembers: 17,
    },
    {
      id: 'C0INTROS001',
      name: 'intros',
      isPrivate: false,
      isGeneral: false,
      isArchived: false,
      created: CREATED + 120,
      purpose: 'Warm introductions requested and made',
      numMembers: 23,
    },
    {
      id: 'G0DEALDESK1',
      name: 'deal-desk',
      isPrivate: true,
      isGeneral: false,
      isArchived: false,
      created: CREATED + 180,
      purpose: 'Pricing approvals (private)',
      numMembers: 5,
    },
  ];
}

const random = (bytes: number) => crypto.randomBytes(bytes).toString('hex');
const randomDigits = (length: number) => Array.from(crypto.randomBytes(length), (byte) => String(byte % 10)).join('');

export type SlackSandboxOptions = {
  /** Where browsers and clients reach the sandbox, e.g. `http://localhost:3002`. */
  publicUrl?: string;
  /** The OAuth clients it accepts; by default the product's sandbox client, any redirect URI. */
  clients?: SlackClient[];
  /** Milliseconds since the epoch; tests move it to expire codes. */
  clock?: () => number;
};

export class SlackSandbox {
  publicUrl: string;
  readonly clock: () => number;
  private readonly clients: Map<string, SlackClient>;
  private channels: Channel[] = initialChannels();
  /** Channels the bot user is in: it joins the one picked for the incoming webhook at install. */
  private readonly botChannels = new Set<string>();
  private readonly codes = new Map<string, PendingCode>();
  private readonly installations = new Map<string, Installation>();
  private readonly webhooks = new Map<string, Installation>();
  private posted: PostedMessage[] = [];
  private readonly rateLimits = new Map<string, { remaining: number; retryAfterSeconds: number }>();
  private lastTs = 0;

  constructor(options: SlackSandboxOptions = {}) {
    this.publicUrl = (options.publicUrl ?? 'http://localhost:3002').replace(/\/+$/, '');
    this.clock = options.clock ?? Date.now;
    this.clients = new Map((options.clients ?? [DEFAULT_CLIENT]).map((client) => [client.clientId, client]));
  }

  setPublicUrl(url: string): void {
    this.publicUrl = url.replace(/\/+$/, '');
  }

  // ---- OAuth ----

  /** The reason an authorization request cannot go on (for the error page), or null. */
  checkAuthorizeRequest(clientId: string, redirectUri: string): string | null {
    const client = this.clients.get(clientId);
    if (!client) return 'Invalid client_id parameter';
    if (!redirectUri) return client.redirectUris?.length ? null : 'Missing redirect_uri parameter';
    let parsed: URL;
    try {
      parsed = new URL(redirectUri);
    } catch {
      return 'redirect_uri did not match any configured URIs';
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return 'redirect_uri did not match any configured URIs';
    }
    // Slack accepts a redirect URI that starts with one of the app's configured redirect URLs.
    if (client.redirectUris && !client.redirectUris.some((allowed) => redirectUri.startsWith(allowed))) {
      return 'redirect_uri did not match any configured URIs';
    }
    return null;
  }

  /** The redirect URI an authorization uses when the request names none: the app's first configured one. */
  effectiveRedirectUri(clientId: string, redirectUri: string): string {
    return redirectUri || this.clients.get(clientId)?.redirectUris?.[0] || '';
  }

  issueCode(options: {
    clientId: string;
    redirectUri: string;
    scopes: string[];
    userScopes: string[];
    webhookChannelId: string | null;
  }): string {
    const now = this.clock();
    for (const [code, pending] of this.codes) if (pending.expiresAt < now - 3_600_000) this.codes.delete(code);
    const code = `${randomDigits(13)}.${randomDigits(13)}.${random(32)}`;
    this.codes.set(code, { ...options, expiresAt: now + CODE_SECONDS * 1000, used: false });
    return code;
  }

  exchangeCode(params: { clientId?: string; clientSecret?: string; code?: string; redirectUri?: string }) {
    if (!params.clientId) throw new SlackApiError('invalid_arguments');
    const client = this.clients.get(params.clientId);
    if (!client) throw new SlackApiError('invalid_client_id');
    if (params.clientSecret !== client.clientSecret) throw new SlackApiError('bad_client_secret');
    if (!params.code) throw new SlackApiError('invalid_arguments');
    const pending = this.codes.get(params.code);
    if (!pending || pending.used || pending.expiresAt <= this.clock() || pending.clientId !== params.clientId) {
      throw new SlackApiError('invalid_code');
    }
    // Slack checks redirect_uri only when the exchange sends one; it must then match the authorization's.
    if (params.redirectUri && params.redirectUri !== pending.redirectUri) throw new SlackApiError('bad_redirect_uri');
    pending.used = true;

    const installation: Installation = {
      id: random(6),
      token: `xoxb-${randomDigits(13)}-${randomDigits(13)}-${crypto.randomBytes(18).toString('base64url')}`,
      scopes: pending.scopes,
      webhookChannelId: pending.webhookChannelId,
      webhookSecret: pending.webhookChannelId ? crypto.randomBytes(18).toString('base64url') : null,
      revoked: false,
    };
    this.installations.set(installation.token, installation);
    if (installation.webhookSecret) this.webhooks.set(installation.webhookSecret, installation);
    if (pending.webhookChannelId) this.botChannels.add(pending.webhookChannelId);

    const webhookChannel = pending.webhookChannelId ? this.channelById(pending.webhookChannelId) : undefined;
    return {
      ok: true,
      app_id: APP_ID,
      authed_user: {
        id: INSTALLER.id,
        ...(pending.userScopes.length > 0
          ? {
              scope: pending.userScopes.join(','),
              access_token: `xoxp-${randomDigits(13)}-${randomDigits(13)}-${random(16)}`,
              token_type: 'user',
            }
          : {}),
      },
      scope: pending.scopes.join(','),
      token_type: 'bot',
      access_token: installation.token,
      bot_user_id: BOT.userId,
      team: { id: TEAM.id, name: TEAM.name },
      enterprise: null,
      is_enterprise_install: false,
      ...(webhookChannel && installation.webhookSecret
        ? {
            incoming_webhook: {
              channel: `#${webhookChannel.name}`,
              channel_id: webhookChannel.id,
              configuration_url: `${this.publicUrl}/messages`,
              url: `${this.publicUrl}/services/${TEAM.id}/${BOT.botId}/${installation.webhookSecret}`,
            },
          }
        : {}),
    };
  }

  /** The installation behind a token, or Slack's error for a missing, unknown or revoked one. */
  authenticate(token: string | undefined): Installation {
    if (!token) throw new SlackApiError('not_authed');
    const installation = this.installations.get(token);
    if (!installation) throw new SlackApiError('invalid_auth');
    if (installation.revoked) throw new SlackApiError('token_revoked');
    return installation;
  }

  requireScope(installation: Installation, scopes: string[]): void {
    if (!scopes.some((scope) => installation.scopes.includes(scope))) {
      throw new SlackApiError('missing_scope', { needed: scopes.join(','), provided: installation.scopes.join(',') });
    }
  }

  /** Revokes a token (auth.revoke, or the user removing the app); false when the token is unknown. */
  revoke(token: string): boolean {
    const installation = this.installations.get(token);
    if (!installation) return false;
    installation.revoked = true;
    return true;
  }

  // ---- rate limits ----

  /** The next `count` calls of `method` answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimit(method: string, count: number, retryAfterSeconds: number): void {
    this.rateLimits.set(method, { remaining: count, retryAfterSeconds });
  }

  /** Throws `SlackRateLimited` when a rate limit was asked for this method. */
  checkRateLimit(method: string): void {
    const limit = this.rateLimits.get(method);
    if (!limit || limit.remaining <= 0) return;
    limit.remaining -= 1;
    if (limit.remaining === 0) this.rateLimits.delete(method);
    throw new SlackRateLimited(limit.retryAfterSeconds);
  }

  // ---- channels and messages ----

  listChannels(): readonly Channel[] {
    return this.channels;
  }

  channelById(id: string): Channel | undefined {
    return this.channels.find((channel) => channel.id === id);
  }

  isBotMember(channelId: string): boolean {
    return this.botChannels.has(channelId);
  }

  /**
   * A channel as a call names it: an id, or a name with or without '#'. Private channels the bot is
   * not in do not exist for it, as in Slack.
   */
  resolveChannel(reference: string | undefined): Channel {
    if (!reference) throw new SlackApiError('channel_not_found');
    const name = reference.replace(/^#/, '');
    const channel = this.channels.find((item) => item.id === reference || item.name === name);
    if (!channel || (channel.isPrivate && !this.botChannels.has(channel.id))) {
      throw new SlackApiError('channel_not_found');
    }
    return channel;
  }

  archive(reference: string): Channel {
    const name = reference.replace(/^#/, '');
    const channel = this.channels.find((item) => item.id === reference || item.name === name);
    if (!channel) throw new SlackApiError('channel_not_found');
    channel.isArchived = true;
    return channel;
  }

  /** Slack's message timestamps: seconds and a 6-digit sequence, unique and increasing per workspace. */
  private nextTs(): string {
    const micros = Math.max(this.clock() * 1000, this.lastTs + 1);
    this.lastTs = micros;
    return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }

  post(message: Omit<PostedMessage, 'ts'>): PostedMessage {
    const stored = { ...message, ts: this.nextTs() };
    this.posted.push(stored);
    return stored;
  }

  /** Messages of a channel, newest first. */
  history(channelId: string): PostedMessage[] {
    return this.posted.filter((message) => message.channel === channelId).reverse();
  }

  /** Everything posted, oldest first. */
  messages(): readonly PostedMessage[] {
    return this.posted;
  }

  /** The installation of an incoming webhook URL's secret, when it is still installed. */
  webhook(secret: string): Installation | undefined {
    const installation = this.webhooks.get(secret);
    return installation && !installation.revoked ? installation : undefined;
  }

  reset(): void {
    this.channels = initialChannels();
    this.botChannels.clear();
    this.codes.clear();
    this.installations.clear();
    this.webhooks.clear();
    this.posted = [];
    this.rateLimits.clear();
  }
}
