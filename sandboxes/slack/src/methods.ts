/**
 * Slack Web API methods, as `https://slack.com/api/<method>` answers them. Arguments arrive as
 * strings (form-encoded, how `@slack/web-api` sends them, with objects such as `blocks` and
 * `metadata` JSON-encoded inside a field) or as JSON values; both are read here.
 */
import {
  APP_ID,
  BOT,
  type Channel,
  type MessageMetadata,
  type PostedMessage,
  SlackApiError,
  type SlackSandbox,
  TEAM,
} from './state.ts';

export type Args = Record<string, unknown>;
export type MethodContext = { sandbox: SlackSandbox; args: Args; token: string | undefined; basicAuth?: BasicAuth };
export type BasicAuth = { clientId: string; clientSecret: string };
type Method = (context: MethodContext) => Record<string, unknown>;

const str = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;

const bool = (value: unknown): boolean => value === true || value === 'true' || value === '1' || value === 1;

/** A JSON-typed argument: given as a value in a JSON body, or JSON-encoded in a form field. */
function jsonArg(value: unknown, error: string): unknown {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new SlackApiError(error);
  }
}

function limitArg(value: unknown, fallback: number, max: number): number {
  const raw = str(value);
  if (raw === undefined || raw === '' || raw === '0') return fallback;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 0) throw new SlackApiError('invalid_limit');
  return Math.min(limit, max);
}

/** Opaque cursors in Slack's style: base64 of `kind:position`. */
const encodeCursor = (kind: string, position: number) => Buffer.from(`${kind}:${position}`).toString('base64');

function decodeCursor(value: unknown, kind: string): number {
  const raw = str(value);
  if (!raw) return 0;
  const match = new RegExp(`^${kind}:(\\d+)$`).exec(Buffer.from(raw, 'base64').toString('utf8'));
  if (!match?.[1]) throw new SlackApiError('invalid_cursor');
  return Number(match[1]);
}

function channelJson(sandbox: SlackSandbox, channel: Channel) {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: !channel.isPrivate,
    is_group: channel.isPrivate,
    is_im: false,
    is_mpim: false,
    is_private: channel.isPrivate,
    created: channel.created,
    is_archived: channel.isArchived,
    is_general: channel.isGeneral,
    unlinked: 0,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: TEAM.id,
    updated: channel.created * 1000,
    parent_conversation: null,
    creator: 'U0SANDBOX01',
    is_ext_shared: false,
    shared_team_ids: [TEAM.id],
    pending_connected_team_ids: [],
    is_member: sandbox.isBotMember(channel.id),
    topic: { value: '', creator: '', last_set: 0 },
    purpose: { value: channel.purpose, creator: 'U0SANDBOX01', last_set: channel.created },
    previous_names: [],
    num_members: channel.numMembers,
  };
}

/** A message as `chat.postMessage` and `conversations.history` return it. */
export function messageJson(message: PostedMessage, withMetadata: boolean) {
  const fromWebhook = message.via === 'incoming-webhook';
  return {
    ...(fromWebhook ? { subtype: 'bot_message' } : { user: BOT.userId }),
    type: 'message',
    ts: message.ts,
    bot_id: BOT.botId,
    app_id: APP_ID,
    text: message.text,
    team: TEAM.id,
    bot_profile: {
      id: BOT.botId,
      app_id: APP_ID,
      name: BOT.name,
      deleted: false,
      team_id: TEAM.id,
    },
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(withMetadata && message.metadata ? { metadata: message.metadata } : {}),
  };
}

function parseMetadata(value: unknown): MessageMetadata | undefined {
  const parsed = jsonArg(value, 'invalid_metadata_format');
  if (parsed === undefined) return undefined;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof (parsed as { event_type?: unknown }).event_type !== 'string' ||
    typeof (parsed as { event_payload?: unknown }).event_payload !== 'object' ||
    (parsed as { event_payload?: unknown }).event_payload === null
  ) {
    throw new SlackApiError('invalid_metadata_format');
  }
  const { event_type, event_payload } = parsed as { event_type: string; event_payload: Record<string, unknown> };
  return { event_type, event_payload };
}

function parseBlocks(value: unknown): unknown[] | undefined {
  const parsed = jsonArg(value, 'invalid_blocks_format');
  if (parsed === undefined) return undefined;
  if (!Array.isArray(parsed)) throw new SlackApiError('invalid_blocks_format');
  for (const block of parsed) {
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') {
      throw new SlackApiError('invalid_blocks', { errors: ['each block must be an object with a type'] });
    }
  }
  if (parsed.length > 50) throw new SlackApiError('invalid_blocks', { errors: ['no more than 50 items allowed'] });
  return parsed;
}

export const METHODS: Record<string, Method> = {
  'api.test': ({ args }) => ({ ok: true, args }),

  'oauth.v2.access': ({ sandbox, args, basicAuth }) =>
    sandbox.exchangeCode({
      clientId: str(args.client_id) ?? basicAuth?.clientId,
      clientSecret: str(args.client_secret) ?? basicAuth?.clientSecret,
      code: str(args.code),
      redirectUri: str(args.redirect_uri),
    }),

  'auth.test': ({ sandbox, token }) => {
    sandbox.authenticate(token);
    return {
      ok: true,
      url: `${sandbox.publicUrl}/`,
      team: TEAM.name,
      user: BOT.name,
      team_id: TEAM.id,
      user_id: BOT.userId,
      bot_id: BOT.botId,
      is_enterprise_install: false,
    };
  },

  'auth.revoke': ({ sandbox, args, token }) => {
    sandbox.authenticate(token);
    // `test=true` checks the token without revoking it.
    if (bool(args.test)) return { ok: true, revoked: false };
    sandbox.revoke(token ?? '');
    return { ok: true, revoked: true };
  },

  'chat.postMessage': ({ sandbox, args, token }) => {
    const installation = sandbox.authenticate(token);
    sandbox.requireScope(installation, ['chat:write']);
    const blocks = parseBlocks(args.blocks);
    const metadata = parseMetadata(args.metadata);
    const text = str(args.text) ?? '';
    const channel = sandbox.resolveChannel(str(args.channel));
    if (channel.isArchived) throw new SlackApiError('is_archived');
    if (!sandbox.isBotMember(channel.id)) throw new SlackApiError('not_in_channel');
    if (!text && !blocks?.length) throw new SlackApiError('no_text');
    if (text.length > 40_000) throw new SlackApiError('msg_too_long');
    const posted = sandbox.post({ channel: channel.id, text, blocks, metadata, via: installation.id });
    return { ok: true, channel: channel.id, ts: posted.ts, message: messageJson(posted, true) };
  },

  'conversations.list': ({ sandbox, args, token }) => {
    const installation = sandbox.authenticate(token);
    const types = (str(args.types) || 'public_channel').split(',').map((type) => type.trim());
    for (const type of types) {
      if (!['public_channel', 'private_channel', 'mpim', 'im'].includes(type)) throw new SlackApiError('invalid_types');
    }
    if (types.includes('public_channel')) sandbox.requireScope(installation, ['channels:read']);
    if (types.includes('private_channel')) sandbox.requireScope(installation, ['groups:read']);
    const excludeArchived = bool(args.exclude_archived);
    const visible = sandbox
      .listChannels()
      .filter((channel) =>
        channel.isPrivate
          ? types.includes('private_channel') && sandbox.isBotMember(channel.id)
          : types.includes('public_channel'),
      )
      .filter((channel) => !(excludeArchived && channel.isArchived));
    const limit = limitArg(args.limit, 100, 1000);
    const start = decodeCursor(args.cursor, 'channel');
    const page = visible.slice(start, start + limit);
    const next = start + limit < visible.length ? encodeCursor('channel', start + limit) : '';
    return {
      ok: true,
      channels: page.map((channel) => channelJson(sandbox, channel)),
      response_metadata: { next_cursor: next },
    };
  },

  'conversations.history': ({ sandbox, args, token }) => {
    const installation = sandbox.authenticate(token);
    // Unlike chat.postMessage, conversations.history takes a channel id only, never a name.
    const reference = str(args.channel);
    if (!reference || !sandbox.channelById(reference)) throw new SlackApiError('channel_not_found');
    const channel = sandbox.resolveChannel(reference);
    sandbox.requireScope(installation, [channel.isPrivate ? 'groups:history' : 'channels:history']);
    if (!sandbox.isBotMember(channel.id)) throw new SlackApiError('not_in_channel');
    const latest = str(args.latest);
    const oldest = str(args.oldest);
    const inclusive = bool(args.inclusive);
    const inRange = (ts: string) =>
      (latest === undefined || (inclusive ? Number(ts) <= Number(latest) : Number(ts) < Number(latest))) &&
      (oldest === undefined || (inclusive ? Number(ts) >= Number(oldest) : Number(ts) > Number(oldest)));
    const messages = sandbox.history(channel.id).filter((message) => inRange(message.ts));
    const limit = limitArg(args.limit, 100, 999);
    const start = decodeCursor(args.cursor, 'next_ts');
    const page = messages.slice(start, start + limit);
    const hasMore = start + limit < messages.length;
    // Metadata comes back only when asked for: the exactly-once check of the product asks.
    const withMetadata = bool(args.include_all_metadata);
    return {
      ok: true,
      messages: page.map((message) => messageJson(message, withMetadata)),
      has_more: hasMore,
      pin_count: 0,
      channel_actions_ts: null,
      channel_actions_count: 0,
      ...(hasMore ? { response_metadata: { next_cursor: encodeCursor('next_ts', start + limit) } } : {}),
    };
  },
};
