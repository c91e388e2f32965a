import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type ReceivedWebhook = { id: string; type: string; verified: boolean; body: string };

/**
 * A webhook endpoint on loopback, as a customer would write one: it verifies each delivery with the
 * Standard Webhooks library and keeps what it got. `answer` decides each response (200 by default).
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  // One endpoint for several workspaces' tests: a delivery is verified when any of their secrets signed it.
  const secrets: string[] = [];
  let answer: (delivery: ReceivedWebhook, index: number) => number = () => 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      };
      const verified = secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const delivery = { id: headers['webhook-id'], type: (JSON.parse(body) as { type: string }).type, verified, body };
      received.push(delivery);
      response.writeHead(answer(delivery, received.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    /** Distinct webhook-ids seen: one per event, however often each was retried. */
    distinctIds: () => new Set(received.map((delivery) => delivery.id)).size,
    useSecret: (secret: string) => {
      secrets.push(secret);
    },
    answerWith: (decide: (delivery: ReceivedWebhook, index: number) => number) => {
      answer = decide;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
