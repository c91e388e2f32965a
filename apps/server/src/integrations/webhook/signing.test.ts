import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signedHeaders } from './signing.ts';

// The vector of the specification's own libraries (standard-webhooks, libraries/javascript/src/
// webhook.test.ts, 'sign function works'; the same values in its PHP, Go and Rust tests).
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('signedHeaders', () => {
  it("reproduces the specification's test vector", () => {
    const headers = signedHeaders({
      secret: vector.secret,
      id: vector.id,
      timestamp: new Date(vector.timestamp * 1000),
      body: vector.body,
    });
    expect(headers).toEqual({
      'content-type': 'application/json',
      'webhook-id': vector.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': vector.signature,
    });
  });

  it('is HMAC-SHA256 over id.timestamp.body keyed with the base64-decoded secret', () => {
    const key = Buffer.from(vector.secret.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`${vector.id}.${vector.timestamp}.${vector.body}`).digest('base64');
    expect(`v1,${mac}`).toBe(vector.signature);
  });

  it('signs the timestamp in whole seconds, milliseconds dropped', () => {
    const headers = signedHeaders({
      secret: vector.secret,
      id: vector.id,
      timestamp: new Date(vector.timestamp * 1000 + 999),
      body: vector.body,
    });
    expect(headers['webhook-timestamp']).toBe('1614265330');
    expect(headers['webhook-signature']).toBe(vector.signature);
  });

  it("is accepted by the package's Webhook.verify, for a fresh secret and a non-ASCII body", () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'intro.requested', data: { name: 'Zoë Müller', note: '😀' } });
    const headers = signedHeaders({ secret, id: 'evt_01J9Z', timestamp: new Date(), body });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // Receivers that normalise header names to title case verify just the same.
    const titled = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(new Webhook(secret).verify(body, titled)).toEqual(JSON.parse(body));
  });

  it('fails verification when the body, the id or the secret differs', () => {
    const secret = newWebhookSecret();
    const body = '{"a":1}';
    const headers = signedHeaders({ secret, id: 'msg_1', timestamp: new Date(), body });
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it.each(['', 'msg.1', 'a b', 'msg_1\r\nx-evil: 1', 'x'.repeat(129)])('refuses the id %j', (id) => {
    expect(() => signedHeaders({ secret: vector.secret, id, timestamp: new Date(), body: '{}' })).toThrow(/webhook id/);
  });
});

describe('newWebhookSecret', () => {
  it('is whsec_ and base64 of 24 random bytes, different every time', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(a).not.toBe(b);
  });
});
