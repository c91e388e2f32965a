import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * A new signing secret in the specification's serialisation: `whsec_` and base64 of 24 random
 * bytes (the specification's minimum for HMAC-SHA256 secrets, and the size its own libraries make).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export type WebhookSignedHeaders = {
  'content-type': 'application/json';
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

// The id is part of the signed content `id.timestamp.body`: a '.' in it would let one message's
// signature pass for another's with the boundary moved, so ids are restricted to a safe alphabet.
const WEBHOOK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The Standard Webhooks headers of one attempt. `id` stays the same across retries (the receiver's
 * idempotency key); `timestamp` is the attempt's, so each retry is signed afresh.
 */
export function signedHeaders(options: {
  secret: string;
  id: string;
  timestamp: Date;
  body: string;
}): WebhookSignedHeaders {
  const { secret, id, timestamp, body } = options;
  if (!WEBHOOK_ID.test(id)) throw new Error('A webhook id is 1 to 128 letters, digits, "_" or "-".');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, timestamp, body),
  };
}
