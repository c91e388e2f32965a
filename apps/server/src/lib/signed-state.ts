import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

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
