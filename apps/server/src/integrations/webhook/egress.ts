import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressRange, parseWebhookUrl } from './address-filter.ts';

/** Response bodies are kept for the delivery log up to this size; the rest is never read. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** Every address a host name resolves to (the system resolver, as `dns.lookup` with `all`). */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type EgressErrorCode =
  | 'invalid_url'
  | 'refused_target'
  | 'dns'
  | 'connect_timeout'
  | 'timeout'
  | 'redirect'
  | 'network';

class EgressError extends Error {
  constructor(
    readonly code: EgressErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EgressError';
  }
}

// The reason names neither the resolved address nor its range: the delivery log is read by a
// workspace's admins, and it must not become a way to map the operator's internal DNS.
function refusedName(hostname: string) {
  return new EgressError('refused_target', `${hostname} resolves to an address that is not public`);
}

function refusedLiteral(address: string, range: string) {
  return new EgressError('refused_target', `${address} is not a public address (${range})`);
}

function wantedFamily(family: unknown): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * A `lookup` for http.request / net.connect that resolves the name, refuses it when ANY of its
 * addresses is not public (a name answering one public and one private address would otherwise
 * reach the private one on a retry or a family fallback), and hands the socket exactly the
 * addresses it checked, so no second resolution can slip another address in (DNS rebinding).
 */
export function createFilteringLookup(options: {
  allowPrivateTargets: boolean;
  resolve?: ResolveHost;
}): LookupFunction {
  const { allowPrivateTargets, resolve = systemResolve } = options;
  return (hostname, lookupOptions, callback) => {
    Promise.resolve()
      .then(() => resolve(hostname))
      .then(
        (resolved) => {
          if (!allowPrivateTargets && resolved.some(({ address }) => addressRange(address) !== 'unicast')) {
            callback(refusedName(hostname), '');
            return;
          }
          const family = wantedFamily(lookupOptions.family);
          const usable = resolved.filter((a) => family === 0 || a.family === family);
          const first = usable[0];
          if (first === undefined) {
            callback(new EgressError('dns', `${hostname} has no address`), '');
            return;
          }
          // Node asks for every address when it may race IPv4 and IPv6 (autoSelectFamily), else one.
          if (lookupOptions.all)
            callback(
              null,
              usable.map(({ address, family }) => ({ address, family })),
            );
          else callback(null, first.address, first.family);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
      );
  };
}

export type WebhookDeliveryResult = {
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  durationMs: number;
  /** At most MAX_RESPONSE_BYTES of the body, decoded as UTF-8. */
  responseBody: string;
  /** Set for anything but a complete non-3xx response: network, DNS, refused target, time-out, redirect. */
  error?: string;
  errorCode?: EgressErrorCode;
};

export type DeliverWebhookOptions = {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The operator switch WEBHOOK_ALLOW_PRIVATE_TARGETS: on-premise installs and tests only. */
  allowPrivateTargets?: boolean;
  /** From the socket's creation (DNS included) to the TCP connection. */
  connectTimeoutMs?: number;
  /** The whole attempt, response body included. */
  totalTimeoutMs?: number;
  /** Tests inject a resolver; the system's otherwise. */
  resolve?: ResolveHost;
};

const DNS_ERROR_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'EAI_FAIL']);

function describeError(error: Error): { error: string; errorCode: EgressErrorCode } {
  if (error instanceof EgressError) return { error: error.message, errorCode: error.code };
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && DNS_ERROR_CODES.has(code)) return { error: error.message, errorCode: 'dns' };
  return { error: error.message, errorCode: 'network' };
}

/**
 * One POST of a webhook. Never throws for HTTP or network failures: the result says what happened,
 * for the caller to record and schedule. No redirect is followed (a 3xx comes back with its status
 * and an error); non-2xx statuses come back without `error`, the caller judges them.
 */
export function deliverWebhook(options: DeliverWebhookOptions): Promise<WebhookDeliveryResult> {
  const { body, allowPrivateTargets = false, connectTimeoutMs = 10_000, totalTimeoutMs = 30_000, resolve } = options;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  const parsed = parseWebhookUrl(options.url);
  if (!parsed.ok) {
    return Promise.resolve({
      status: null,
      durationMs: elapsed(),
      responseBody: '',
      error: parsed.reason,
      errorCode: 'invalid_url',
    });
  }
  // Node never calls `lookup` for an IP literal: the filtering lookup cannot see it, so check it here.
  if (parsed.ipVersion !== 0 && !allowPrivateTargets) {
    const range = addressRange(parsed.host);
    if (range !== 'unicast') {
      const { error, errorCode } = describeError(refusedLiteral(parsed.host, range));
      return Promise.resolve({ status: null, durationMs: elapsed(), responseBody: '', error, errorCode });
    }
  }

  const { url } = parsed;
  return new Promise<WebhookDeliveryResult>((settle) => {
    let status: number | null = null;
    let location: string | undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;

    const totalTimer = setTimeout(
      () => finish(new EgressError('timeout', `timed out after ${totalTimeoutMs} ms`)),
      totalTimeoutMs,
    );

    const request = (url.protocol === 'https:' ? https : http).request({
      method: 'POST',
      hostname: parsed.host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: {
        'user-agent': 'Warmpath-Webhooks/1.0',
        'content-type': 'application/json',
        ...options.headers,
        'content-length': String(Buffer.byteLength(body)),
      },
      // A fresh connection per attempt: a pooled socket would skip the lookup and its check.
      agent: false,
      lookup: createFilteringLookup({ allowPrivateTargets, resolve }),
    });

    const finish = (failure?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(totalTimer);
      clearTimeout(connectTimer);
      // Also what stops the read at MAX_RESPONSE_BYTES: the rest of the body is never downloaded.
      request.destroy();
      const result: WebhookDeliveryResult = {
        status,
        durationMs: elapsed(),
        responseBody: Buffer.concat(chunks).toString('utf8'),
      };
      if (failure !== undefined) Object.assign(result, describeError(failure));
      else if (status !== null && status >= 300 && status <= 399) {
        const to = location === undefined ? '' : ` to ${location.slice(0, 200)}`;
        Object.assign(result, { error: `redirect not followed (${status}${to})`, errorCode: 'redirect' });
      }
      settle(result);
    };

    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () => finish(new EgressError('connect_timeout', `no connection within ${connectTimeoutMs} ms`)),
        connectTimeoutMs,
      );
      socket.once('connect', () => clearTimeout(connectTimer));
    });

    request.on('response', (response) => {
      status = response.statusCode ?? null;
      location = response.headers.location;
      response.on('data', (chunk: Buffer) => {
        const room = MAX_RESPONSE_BYTES - received;
        if (room > 0) {
          const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
          chunks.push(kept);
          received += kept.length;
        }
        if (received >= MAX_RESPONSE_BYTES) finish();
      });
      response.on('end', () => finish());
      response.on('error', (error) => finish(error));
      response.on('close', () => finish(response.complete ? undefined : new Error('the response was cut short')));
    });

    request.on('error', (error) => finish(error));
    request.end(body);
  });
}

/**
 * The save-time check of an endpoint URL: parse it, resolve it, refuse anything that is not public.
 * The answer's reason is meant for the admin who typed the URL. Deliveries check again at every
 * connection (DNS can change after the save).
 */
export async function checkWebhookTarget(
  url: string,
  options: { allowPrivateTargets?: boolean; resolve?: ResolveHost } = {},
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const { allowPrivateTargets = false, resolve = systemResolve } = options;
  const parsed = parseWebhookUrl(url);
  if (!parsed.ok) return parsed;
  if (parsed.ipVersion !== 0) {
    const range = addressRange(parsed.host);
    if (allowPrivateTargets || range === 'unicast') return { ok: true };
    return { ok: false, reason: `${parsed.host} is not a public address: webhooks only reach public Internet hosts.` };
  }
  let resolved: readonly LookupAddress[];
  try {
    resolved = await resolve(parsed.host);
  } catch {
    return { ok: false, reason: `${parsed.host} could not be resolved.` };
  }
  if (resolved.length === 0) return { ok: false, reason: `${parsed.host} could not be resolved.` };
  if (!allowPrivateTargets && resolved.some(({ address }) => addressRange(address) !== 'unicast')) {
    return {
      ok: false,
      reason: `${parsed.host} resolves to an address that is not public: webhooks only reach public Internet hosts.`,
    };
  }
  return { ok: true };
}
