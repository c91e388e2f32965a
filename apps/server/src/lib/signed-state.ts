import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Tamper-proof, expiring values that travel through a third party and back (the OAuth `state`).
 * The HMAC key is derived from the encryption key, so no other secret needs configuring.
 */
export function createStateSigner(encryptionKey: Buffer, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), `warmpath:${purpose}`, 32));
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    sign(value: object, ttlSeconds: number) {
      const payload = Buffer.from(JSON.stringify({ ...value, exp: Date.now() + ttlSeconds * 1000 })).toString(
        'base64url',
      );
      return `${payload}.${mac(payload)}`;
    },
    /** The signed value, or null when it was altered or has expired. */
    verify(state: string): Record<string, unknown> | null {
      const [payload, signature] = state.split('.');
      if (!payload || !signature) return null;
      const expected = Buffer.from(mac(payload));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      const value = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      return typeof value.exp === 'number' && value.exp > Date.now() ? value : null;
    },
  };
}

/** How long a consent may take between the Connect button and the provider's return. */
const OAUTH_FLOW_TTL_SECONDS = 15 * 60;

export type OAuthFlowOutcome =
  | { status: 'ok'; value: Record<string, unknown> }
  /** Ours and unexpired, but this browser did not start it: nothing may be connected. */
  | { status: 'other-browser'; value: Record<string, unknown> }
  /** Altered, expired, or not ours at all. */
  | { status: 'invalid' };

/**
 * An OAuth flow bound to the browser that started it (Google, Slack, HubSpot: every flow uses this).
 * The state carries a hash of a random nonce; the nonce itself stays in the starting browser, in an
 * HttpOnly, SameSite=Lax cookie limited to the callback's path. Approved in another browser (someone
 * else's, following a forwarded consent link), the callback finds no matching cookie and refuses,
 * so one person's account never lands in another person's workspace.
 */
export function createOAuthFlow(
  encryptionKey: Buffer,
  options: {
    /** Separates the flows' signing keys and names their cookies. */
    purpose: string;
    /** The path the browser comes back to with the state: the only one the cookie is sent to. */
    callbackPath: string;
    /** Served over https: the cookie is Secure. */
    secure: boolean;
  },
) {
  const signer = createStateSigner(encryptionKey, options.purpose);
  const cookieName = `warmpath_${options.purpose.replace(/[^A-Za-z0-9]/g, '_')}`;
  const attributes = `Path=${options.callbackPath}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`;
  const digest = (nonce: string) => createHash('sha256').update(nonce).digest('base64url');

  return {
    cookieName,
    /** The state to send to the provider, and the Set-Cookie header that keeps its nonce here. */
    start(value: object): { state: string; cookie: string } {
      const nonce = randomBytes(32).toString('base64url');
      const state = signer.sign({ ...value, nonce: digest(nonce) }, OAUTH_FLOW_TTL_SECONDS);
      return { state, cookie: `${cookieName}=${nonce}; Max-Age=${OAUTH_FLOW_TTL_SECONDS}; ${attributes}` };
    },
    /** Checks the state the provider returned against the nonce of the browser that brought it. */
    finish(state: string | undefined, cookieHeader: string | undefined): OAuthFlowOutcome {
      const value = state ? signer.verify(state) : null;
      if (!value || typeof value.nonce !== 'string') return { status: 'invalid' };
      const nonce = readCookie(cookieHeader, cookieName);
      const given = Buffer.from(nonce ? digest(nonce) : '');
      const wanted = Buffer.from(value.nonce);
      const same = given.length === wanted.length && timingSafeEqual(given, wanted);
      return { status: same ? 'ok' : 'other-browser', value };
    },
    /** The Set-Cookie header that forgets the nonce once the flow is over, whatever its outcome. */
    clearCookie: `${cookieName}=; Max-Age=0; ${attributes}`,
  };
}
export type OAuthFlow = ReturnType<typeof createOAuthFlow>;

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const pair of (header ?? '').split(';')) {
    const index = pair.indexOf('=');
    if (index > 0 && pair.slice(0, index).trim() === name) return pair.slice(index + 1).trim();
  }
  return null;
}
