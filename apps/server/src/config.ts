import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { type BucketLimit, parseBucketLimit } from './lib/rate-limit.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * The rate limits' defaults, as `<requests>/<seconds>`: a burst of that many, refilled evenly over the
 * window. Generous enough that a test suite or the e2e run (one address, many users) never meets them;
 * each is overridden by its RATE_LIMIT_* variable.
 */
export const RATE_LIMIT_DEFAULTS = {
  /** Sign-in form posts of the built-in provider, per client address. */
  signInPerAddress: '60/60',
  /** Sign-in form posts of the built-in provider, per e-mail entered. */
  signInPerUser: '10/60',
  /** Calls to the built-in provider's token endpoint (code and refresh-token exchanges), per address. */
  tokenPerAddress: '300/60',
  /** Requests to the public routes (/api/public, health), per address; tracking has its own limits. */
  publicPerAddress: '600/60',
  /** Answers 401 (missing, bad or expired tokens), per address: past it the address waits. */
  badTokenPerAddress: '60/60',
  /** File uploads, per address. */
  uploadPerAddress: '300/300',
  /** File uploads, per user. */
  uploadPerUser: '60/600',
} as const;
export type RateLimits = Record<keyof typeof RATE_LIMIT_DEFAULTS, BucketLimit>;

const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const limit = parseBucketLimit(text);
      if (!limit) {
        ctx.addIssue({ code: 'custom', message: 'Expected <requests>/<seconds>, e.g. 60/60' });
        return z.NEVER;
      }
      return limit;
    });

/**
 * Which reverse proxies' X-Forwarded-* headers are believed: none (`false`, the default: the socket's
 * address is the client's), any (`true`), or the proxies' addresses and CIDR ranges, comma-separated
 * (`loopback`, `10.0.0.0/8`...). Hop counts are not offered: they cannot tell a proxy from a client.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((text): boolean | string => {
    const value = text.trim();
    if (value === 'false' || value === '') return false;
    if (value === 'true') return true;
    return value;
  });

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Where the product is reached from a browser; the issuer and redirect URIs derive from it. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, '.data')),
  DATABASE_URL: z.string().optional(),
  /**
   * A streaming replica of the database: the heavy reads go there (network pages and filters, exports,
   * list pages), except a workspace's reads right after it wrote (db/read-replica.ts).
   */
  DATABASE_READ_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Short lines a person reads, or one JSON object a line for a log collector; see `logFormat`. */
  LOG_FORMAT: z.enum(['text', 'json']).optional(),
  NODE_ENV: z.string().optional(),
  /** External OpenID Connect provider; when absent the built-in provider under /idp is used. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().default('warmpath-web'),
  OIDC_AUDIENCE: z.string().default('backend'),
  /** The access-token claim that carries the user's e-mail (Auth0 needs a namespaced custom claim). */
  OIDC_EMAIL_CLAIM: z.string().default('email'),
  /** Domains that may register a workspace besides the registering user's own e-mail domain. */
  WORKSPACE_DOMAIN_ALLOWLIST: commaList,
  /** Google OAuth client; without it the built-in Google sandbox stands in. */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** A Google sandbox already running (tests start their own); without it local mode starts one. */
  GOOGLE_SANDBOX_URL: z.url().optional(),
  /** The port of the Google sandbox local mode starts, on loopback; PORT + 1 by default. */
  GOOGLE_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Slack app credentials; without both the Slack sandbox (sandboxes/slack) stands in. */
  SLACK_CLIENT_ID: z.string().optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  /** Base URL of the Slack sandbox, its own server; defaults to this server's port + 2 on localhost. */
  SLACK_SANDBOX_URL: z.url().optional(),
  /** The port of the Slack sandbox local mode starts, on loopback; PORT + 2 by default. */
  SLACK_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** HubSpot app credentials; without both the HubSpot sandbox (sandboxes/hubspot) stands in. */
  HUBSPOT_CLIENT_ID: z.string().optional(),
  HUBSPOT_CLIENT_SECRET: z.string().optional(),
  /** Base URL of the HubSpot sandbox, its own server; defaults to this server's port + 3 on localhost. */
  HUBSPOT_SANDBOX_URL: z.url().optional(),
  /** The port of the HubSpot sandbox local mode starts, on loopback; PORT + 3 by default. */
  HUBSPOT_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Calls per second to HubSpot per process: 9 stays under the 110 per 10 s HubSpot allows an app per portal. */
  HUBSPOT_CALLS_PER_SECOND: z.coerce.number().positive().max(1000).default(9),
  /** Base64 of 32 random bytes; in local mode a key is generated into DATA_DIR. */
  ENCRYPTION_KEY: z.string().optional(),
  DEMO_CALENDAR_URL: z.url().default('https://calendar.app.google/warmpath-demo'),
  POSTHOG_KEY: z.string().optional(),
  /** On-premise installs only: lets webhooks reach private, loopback and other non-public addresses. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
  /**
   * Local mode: the built-in identity provider and the Google, Slack and HubSpot sandboxes, on loopback
   * only. On by default unless an external identity provider (OIDC_ISSUER) is configured.
   */
  LOCAL_MODE: z.enum(['true', 'false']).optional(),
  /** Whether X-Forwarded-* headers from a reverse proxy are believed: see `trustProxy`. */
  TRUST_PROXY: trustProxy,
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: rateLimit(RATE_LIMIT_DEFAULTS.signInPerAddress),
  RATE_LIMIT_SIGN_IN_PER_USER: rateLimit(RATE_LIMIT_DEFAULTS.signInPerUser),
  RATE_LIMIT_TOKEN_PER_ADDRESS: rateLimit(RATE_LIMIT_DEFAULTS.tokenPerAddress),
  RATE_LIMIT_PUBLIC_PER_ADDRESS: rateLimit(RATE_LIMIT_DEFAULTS.publicPerAddress),
  RATE_LIMIT_BAD_TOKEN_PER_ADDRESS: rateLimit(RATE_LIMIT_DEFAULTS.badTokenPerAddress),
  RATE_LIMIT_UPLOAD_PER_ADDRESS: rateLimit(RATE_LIMIT_DEFAULTS.uploadPerAddress),
  RATE_LIMIT_UPLOAD_PER_USER: rateLimit(RATE_LIMIT_DEFAULTS.uploadPerUser),
  /** Connections of the API requests' pool (the jobs have a pool of their own). */
  DB_REQUEST_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  /** The longest one statement of an API request may run before PostgreSQL cancels it. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  /** Requests that may wait for a connection at once; past it they are answered 503 with Retry-After. */
  DB_QUEUE_MAX: z.coerce.number().int().min(0).default(500),
  /** The longest a request waits for a connection before it is answered 503 with Retry-After. */
  DB_QUEUE_WAIT_MS: z.coerce.number().int().min(100).default(5000),
  /** Memory each API process may give its in-memory network copies (features/network/network-index). */
  NETWORK_CACHE_MB: z.coerce.number().int().min(0).default(1024),
  /** Below this many prospects a workspace gets no copy: PostgreSQL answers within the targets alone. */
  NETWORK_INDEX_MIN_ROWS: z.coerce.number().int().min(0).default(50_000),
  /**
   * The CPU priority (Linux niceness, 0 for none) of background work on a machine it shares with
   * requests: a worker process's threads, and the embedded PostgreSQL's backends of the jobs' pool
   * (jobs/background-priority.ts).
   */
  BACKGROUND_NICENESS: z.coerce.number().int().min(0).max(19).default(10),
});

export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  /** The product is served over https (PUBLIC_URL says so): HSTS, Secure cookies. */
  https: boolean;
  /**
   * Local mode (LOCAL_MODE; on unless OIDC_ISSUER is set): the built-in provider and the sandboxes may
   * run, on loopback only (local-mode.ts refuses the rest). Outside it, every service is real or off.
   */
  localMode: boolean;
  /** Fastify's `trustProxy`; the built-in provider trusts forwarded headers only when it is not false. */
  trustProxy: boolean | string;
  rateLimits: RateLimits;
  /** The API requests' pool and its limits (db/client.ts RequestLimits). */
  backgroundNiceness: number;
  requestDatabase: { poolMax: number; statementTimeoutMs: number; maxWaiting: number; acquireTimeoutMs: number };
  /** The network copies' memory budget (least recently used evicted) and the size that earns a copy. */
  networkCache: { budgetBytes: number; minRows: number };
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_READ_URL: a streaming replica for the heavy reads (db/read-replica.ts). */
  databaseReadUrl: string | undefined;
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  /**
   * Text in local mode (no request lines below `debug`); JSON in production, where an external
   * database or NODE_ENV=production says a log collector reads them. LOG_FORMAT overrides.
   */
  logFormat: 'text' | 'json';
  oidc: {
    /** True when the built-in identity provider runs in this process. */
    builtIn: boolean;
    issuer: string;
    clientId: string;
    audience: string;
    emailClaim: string;
  };
  workspaceDomainAllowlist: string[];
  google: {
    /** False when the built-in sandbox stands in for Google. */
    real: boolean;
    clientId: string;
    clientSecret: string;
    /** Where the sandbox is reached (its OAuth endpoints; the APIs at its origin's root). */
    sandboxUrl: string;
    /** The port to start the sandbox on (main.ts); null when Google is real, a sandbox is given, or outside local mode. */
    sandboxPort: number | null;
  };
  slack: {
    /** False when the Slack sandbox stands in for Slack. */
    real: boolean;
    /** False outside local mode without Slack credentials: connecting Slack is refused. */
    available: boolean;
    clientId: string;
    clientSecret: string;
    /** Base of the Web API methods, with its trailing slash: `WebClient`'s `slackApiUrl`. */
    apiUrl: string;
    /** Slack's `/oauth/v2/authorize`, where the Connect button sends an admin. */
    authorizeUrl: string;
    /** The port to start the sandbox on (main.ts); null when Slack is real, a sandbox is given, or outside local mode. */
    sandboxPort: number | null;
  };
  hubspot: {
    /** False when the HubSpot sandbox stands in for HubSpot. */
    real: boolean;
    /** False outside local mode without HubSpot credentials: connecting HubSpot is refused. */
    available: boolean;
    clientId: string;
    clientSecret: string;
    /** The API's origin (`@hubspot/api-client`'s `basePath`). */
    apiUrl: string;
    /** HubSpot's consent screen, where the CRM card sends an admin. */
    authorizeUrl: string;
    /** The port to start the sandbox on (main.ts); null when HubSpot is real, a sandbox is given, or outside local mode. */
    sandboxPort: number | null;
    callsPerSecond: number;
  };
  encryptionKey: string | undefined;
  demoCalendarUrl: string;
  posthogKey: string | null;
  webhookAllowPrivateTargets: boolean;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const localMode = e.LOCAL_MODE ? e.LOCAL_MODE === 'true' : !e.OIDC_ISSUER;
  // Local mode starts a sandbox for each service without credentials (unless one is given by URL);
  // outside it none is ever started.
  const sandboxPortOf = (real: boolean, url: string | undefined, port: number | undefined, offset: number) =>
    real || url || !localMode ? null : (port ?? (e.PORT === 0 ? 0 : e.PORT + offset));
  const real = Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET);
  const sandboxPort = sandboxPortOf(real, e.GOOGLE_SANDBOX_URL, e.GOOGLE_SANDBOX_PORT, 1);
  const slackReal = Boolean(e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET);
  const slackSandboxPort = sandboxPortOf(slackReal, e.SLACK_SANDBOX_URL, e.SLACK_SANDBOX_PORT, 2);
  const slackBase = slackReal
    ? 'https://slack.com'
    : (e.SLACK_SANDBOX_URL ?? sandboxUrlAt(publicUrl, slackSandboxPort ?? 0)).replace(/\/+$/, '');
  const hubspotReal = Boolean(e.HUBSPOT_CLIENT_ID && e.HUBSPOT_CLIENT_SECRET);
  const hubspotSandboxPort = sandboxPortOf(hubspotReal, e.HUBSPOT_SANDBOX_URL, e.HUBSPOT_SANDBOX_PORT, 3);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    https: publicUrl.startsWith('https:'),
    localMode,
    trustProxy: e.TRUST_PROXY,
    backgroundNiceness: e.BACKGROUND_NICENESS,
    requestDatabase: {
      poolMax: e.DB_REQUEST_POOL_MAX,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      maxWaiting: e.DB_QUEUE_MAX,
      acquireTimeoutMs: e.DB_QUEUE_WAIT_MS,
    },
    networkCache: { budgetBytes: e.NETWORK_CACHE_MB * 1024 * 1024, minRows: e.NETWORK_INDEX_MIN_ROWS },
    rateLimits: {
      signInPerAddress: e.RATE_LIMIT_SIGN_IN_PER_ADDRESS,
      signInPerUser: e.RATE_LIMIT_SIGN_IN_PER_USER,
      tokenPerAddress: e.RATE_LIMIT_TOKEN_PER_ADDRESS,
      publicPerAddress: e.RATE_LIMIT_PUBLIC_PER_ADDRESS,
      badTokenPerAddress: e.RATE_LIMIT_BAD_TOKEN_PER_ADDRESS,
      uploadPerAddress: e.RATE_LIMIT_UPLOAD_PER_ADDRESS,
      uploadPerUser: e.RATE_LIMIT_UPLOAD_PER_USER,
    },
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.DATABASE_URL || e.NODE_ENV === 'production' ? 'json' : 'text'),
    oidc: {
      builtIn: !e.OIDC_ISSUER,
      issuer: (e.OIDC_ISSUER ?? `${publicUrl}/idp`).replace(/\/$/, ''),
      clientId: e.OIDC_CLIENT_ID,
      audience: e.OIDC_AUDIENCE,
      emailClaim: e.OIDC_EMAIL_CLAIM,
    },
    workspaceDomainAllowlist: e.WORKSPACE_DOMAIN_ALLOWLIST,
    google: {
      real,
      clientId: e.GOOGLE_CLIENT_ID ?? 'warmpath-sandbox-client',
      clientSecret: e.GOOGLE_CLIENT_SECRET ?? 'warmpath-sandbox-secret',
      sandboxUrl: (e.GOOGLE_SANDBOX_URL ?? sandboxUrlAt(publicUrl, sandboxPort ?? 0)).replace(/\/$/, ''),
      sandboxPort,
    },
    slack: {
      real: slackReal,
      available: slackReal || localMode,
      // The sandbox's own default client (sandboxes/slack/src/state.ts): the product never imports it.
      clientId: slackReal ? (e.SLACK_CLIENT_ID ?? '') : 'warmpath-sandbox-client',
      clientSecret: slackReal ? (e.SLACK_CLIENT_SECRET ?? '') : 'warmpath-sandbox-secret',
      ...slackUrls(slackBase),
      sandboxPort: slackSandboxPort,
    },
    hubspot: {
      real: hubspotReal,
      available: hubspotReal || localMode,
      // The sandbox's own default client (sandboxes/hubspot): the product never imports it.
      clientId: hubspotReal ? (e.HUBSPOT_CLIENT_ID ?? '') : 'warmpath-sandbox-client',
      clientSecret: hubspotReal ? (e.HUBSPOT_CLIENT_SECRET ?? '') : 'warmpath-sandbox-secret',
      ...(hubspotReal
        ? { apiUrl: 'https://api.hubapi.com', authorizeUrl: 'https://app.hubspot.com/oauth/authorize' }
        : hubspotUrls(e.HUBSPOT_SANDBOX_URL ?? sandboxUrlAt(publicUrl, hubspotSandboxPort ?? 0))),
      sandboxPort: hubspotSandboxPort,
      callsPerSecond: e.HUBSPOT_CALLS_PER_SECOND,
    },
    encryptionKey: e.ENCRYPTION_KEY,
    demoCalendarUrl: e.DEMO_CALENDAR_URL,
    posthogKey: e.POSTHOG_KEY ?? null,
    webhookAllowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
  };
}

/** The product's public address with the sandbox's port: the same host, as browsers reach both. */
export function sandboxUrlAt(publicUrl: string, port: number): string {
  const url = new URL(publicUrl);
  url.port = String(port);
  return url.origin;
}

/** Slack's two bases under one origin: its Web API methods and its install screen. */
export function slackUrls(base: string) {
  return { apiUrl: `${base}/api/`, authorizeUrl: `${base}/oauth/v2/authorize` };
}

/** The HubSpot sandbox serves its API and its consent screen under one origin. */
export function hubspotUrls(base: string) {
  const origin = base.replace(/\/+$/, '');
  return { apiUrl: origin, authorizeUrl: `${origin}/oauth/authorize` };
}

/** The process's part (`npm start -- --role api|worker|all`, or WARMPATH_ROLE); `all` when not said. */
export function processRole(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): 'api' | 'worker' | 'all' {
  const at = argv.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  const given = at < 0 ? env.WARMPATH_ROLE : argv[at]?.includes('=') ? argv[at]?.split('=')[1] : argv[at + 1];
  if (given === undefined || given === '') return 'all';
  if (given === 'api' || given === 'worker' || given === 'all') return given;
  throw new Error(
    `--role ${given}: a process is an API process (api), a worker (worker, every job), or both (all, the default).`,
  );
}
