import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LINKEDIN_UPLOAD, type TLinkedinImportResult } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.ts';

// What a hostile or careless upload does to the server: files of junk, files past the limit, sent
// over a real socket and generated as they are sent (the test holds none of them). The server's
// memory (this process's: the app runs here) must stay within 300 MB of where it started.

const MB = 1024 * 1024;
const MAX_GROWTH = 300 * MB;
const HEADER = 'First Name,Last Name,URL,Email Address,Company,Position,Connected On\n';

let ctx: TestContext;
let token: string;
let port: number;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ token } = await ctx.registerAdmin());
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx.close());

/** `bytes` of Connections.csv: the header, then lines of junk none of which is a connection. */
async function* junk(bytes: number) {
  yield HEADER;
  let sent = HEADER.length;
  let line = 0;
  while (sent < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++, line++)
      lines.push(`Junk ${line},"x""y",not-a-profile-${line},@,${'z'.repeat(line % 50)},,\n`);
    const chunk = lines.join('');
    sent += chunk.length;
    yield chunk;
  }
}

/** The peak of this process's resident memory above its level when it starts, while `work` runs. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Uploads `file` as the browser does (multipart/form-data), streamed chunk by chunk with
 * backpressure, without a declared length unless `contentLength` says one.
 */
function upload(file: AsyncIterable<string>, contentLength?: number) {
  const boundary = 'warmpath-hostile-boundary';
  async function* body() {
    yield `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Connections.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    yield* file;
    yield `\r\n--${boundary}--\r\n`;
  }
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/linkedin/command/upload-connections',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(contentLength === undefined ? {} : { 'content-length': contentLength }),
      },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    // The server may answer and close before the whole body is sent (past the limit): the answer counts.
    pipeline(Readable.from(body()), request).catch(() => {});
    request.on('error', (error) => setTimeout(() => reject(error), 1000));
  });
}

describe('a hostile Connections.csv', () => {
  it('of junk lines under the limit is read in flat memory, its rejections listed up to 100 and counted', async () => {
    const bytes = LINKEDIN_UPLOAD.connectionsMaxBytes - 2 * MB;
    const { result, growth } = await peakGrowth(() => upload(junk(bytes)));
    console.info(`junk Connections.csv of ${bytes / MB} MB: peak RSS growth ${(growth / MB).toFixed(0)} MB`);
    expect(result.status).toBe(200);
    const answer = JSON.parse(result.body) as TLinkedinImportResult;
    expect(answer.imported).toBe(0);
    expect(answer.rejected).toHaveLength(LINKEDIN_UPLOAD.listedRejections);
    expect(answer.rejected[0]).toEqual({ line: 2, reason: 'The URL is not a LinkedIn profile address' });
    expect(answer.rejectedCount).toBeGreaterThan(500_000);
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it('of 200 MB, past the limit, is refused with a 413 that says why, in flat memory', async () => {
    const { result, growth } = await peakGrowth(() => upload(junk(200 * MB)));
    console.info(`junk Connections.csv of 200 MB: peak RSS growth ${(growth / MB).toFixed(0)} MB`);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({
      code: 'TOO_LARGE',
      message:
        "The file is larger than 50 MB, more than LinkedIn's Connections.csv holds: choose the Connections.csv of your LinkedIn data export",
    });
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it('declared larger than the limit is refused before it is read', async () => {
    const started = performance.now();
    const result = await upload(junk(64 * 1024), 1024 * MB);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ code: 'TOO_LARGE' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
