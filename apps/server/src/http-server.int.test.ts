import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => ctx.close());

/** GET /api/health on `agent`'s connections: its status, and whether it went down a connection used before. */
function health(agent: http.Agent) {
  const { port } = ctx.app.server.address() as AddressInfo;
  return new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
    const request = http.get({ agent, host: '127.0.0.1', port, path: '/api/health' }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
    });
    request.on('error', reject);
  });
}

describe('the HTTP server behind a load balancer', () => {
  it("keeps an idle keep-alive connection past Node's 5 s, so the next request goes down it", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await health(agent)).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await health(agent)).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 15_000);
});
