import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CSV_TEMPLATES, CSV_UPLOAD, type TMe } from '@warmpath/shared';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import { mintAccessToken } from '../apps/server/src/idp/provider.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';
import { type ServerGroup, startServerGroup } from './server.ts';

/**
 * Hostile uploads (issue 23): a file just under each upload route's limit, made to hurt, streamed
 * to a running server (generated as it is sent; this process holds none of it), while the server's
 * resident memory is sampled. What must hold: the server's memory stays within 300 MB of where it
 * started, the answer is a clear 200 or 4xx, and the server still answers afterwards.
 *
 * Shapes: rows that are all invalid (each one a rejection), one quoted field that never closes,
 * one line that never ends (a header of millions of columns), and binary junk with NUL bytes.
 */
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, '.data-bench-hostile');
const PORT = Number(process.env.BENCH_PORT ?? 3199);
const MB = 1024 * 1024;
/** How much of each shape is sent; the routes' limit by default (1 GB for CSV imports). */
const BYTES = Number(process.env.BENCH_HOSTILE_MB ?? CSV_UPLOAD.maxBytes / MB) * MB - MB;
const log = (line: string) => process.stderr.write(`${line}\n`);
const SHAPES = ['invalid rows', 'unclosed quote', 'endless line', 'binary'] as const;
/** A comma-separated subset, for one long case (a gigabyte of invalid rows takes minutes a route). */
const ONLY_ROUTES = process.env.BENCH_HOSTILE_ROUTES?.split(',');
const ONLY_SHAPES = process.env.BENCH_HOSTILE_SHAPES?.split(',');

const ROUTES = [
  { name: 'accounts', path: '/api/accounts/command/upload-accounts', header: CSV_TEMPLATES.accounts.columns },
  { name: 'clients', path: '/api/clients/command/upload-clients', header: CSV_TEMPLATES.clients.columns },
  { name: 'crm clients', path: '/api/crm-clients/command/upload-crm-clients', header: CSV_TEMPLATES.clients.columns },
  {
    name: 'linkedin connections',
    path: '/api/linkedin/command/upload-connections',
    header: ['First Name', 'Last Name', 'URL', 'Email Address', 'Company', 'Position', 'Connected On'],
  },
  {
    name: 'linkedin positions',
    path: '/api/linkedin/command/upload-positions',
    header: ['Company Name', 'Title', 'Description', 'Location', 'Started On', 'Finished On'],
  },
] as const;

/** `bytes` of a shape, in 1 MB chunks. */
function* shape(kind: string, header: readonly string[], bytes: number) {
  const head = `${header.join(',')}\r\n`;
  if (kind !== 'endless line') yield head;
  let sent = kind === 'endless line' ? 0 : head.length;
  const chunk = (() => {
    switch (kind) {
      case 'invalid rows': {
        let lines = '';
        for (let i = 0; lines.length < MB; i++) lines += `x${i},"y""z",not-an-address-${i},@,,,,\r\n`;
        return lines;
      }
      case 'unclosed quote':
        return 'q'.repeat(MB);
      case 'endless line':
        return 'column,'.repeat(MB / 7);
      default:
        return Buffer.alloc(MB, 0).fill('\u0000\u00ff\u0001', 0).toString('latin1');
    }
  })();
  if (kind === 'unclosed quote') {
    yield 'a,b,"';
    sent += 5;
  }
  while (sent < bytes) {
    yield chunk;
    sent += chunk.length;
  }
}

function upload(route: string, token: string, body: Iterable<string>) {
  const boundary = 'warmpath-hostile-bench';
  function* multipart() {
    yield `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hostile.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    yield* body;
    yield `\r\n--${boundary}--\r\n`;
  }
  return new Promise<{ status: number; body: string }>((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port: PORT,
      method: 'POST',
      path: route,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on('error', () => resolve({ status: 0, body: 'answer cut' }));
    });
    // The server may answer and close before the whole body is sent (a refusal): the answer counts.
    pipeline(Readable.from(multipart()), request).catch(() => {});
    request.on('error', (error) => setTimeout(() => resolve({ status: 0, body: String(error) }), 1000));
  });
}

async function measure(server: ServerGroup, work: () => Promise<{ status: number; body: string }>) {
  const before = await server.rssMb();
  let peak = before;
  const sampler = setInterval(() => {
    server.rssMb().then(
      (rss) => {
        peak = Math.max(peak, rss);
      },
      () => {},
    );
  }, 50);
  const started = performance.now();
  try {
    const answer = await work();
    return { answer, seconds: (performance.now() - started) / 1000, growthMb: peak - before, before };
  } finally {
    clearInterval(sampler);
  }
}

export async function hostile() {
  await fs.rm(DATA_DIR, { recursive: true, force: true });
  await fs.mkdir(DATA_DIR, { recursive: true });
  await fs.chmod(DATA_DIR, 0o755);
  const lifted = '1000000/1';
  const server = await startServerGroup({
    dataDir: DATA_DIR,
    port: PORT,
    env: { RATE_LIMIT_UPLOAD_PER_ADDRESS: lifted, RATE_LIMIT_UPLOAD_PER_USER: lifted },
  });
  const results = [];
  try {
    const config = loadConfig({ DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'silent' });
    const runtime = await openRuntime(config, log);
    const email = 'admin@hostile-bench.test';
    const token = await mintAccessToken(config, runtime.database.db, { email, name: 'Ada Admin' });
    await runtime.close();
    const subject = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
    const registered = await fetch(`http://localhost:${PORT}/api/users/command/create-workspace-admin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        idpId: subject,
        firstName: 'Ada',
        lastName: 'Admin',
        email,
        workspaceName: 'Hostile',
        workspaceDomains: ['hostile-bench.test'],
        allowDomainJoin: false,
      }),
    });
    if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
    (await registered.json()) as TMe;

    for (const route of ROUTES.filter((r) => !ONLY_ROUTES || ONLY_ROUTES.includes(r.name))) {
      for (const kind of SHAPES.filter((shape) => !ONLY_SHAPES || ONLY_SHAPES.includes(shape))) {
        log(`bench: ${route.name}, ${kind}, ${(BYTES / MB).toFixed(0)} MB`);
        const { answer, seconds, growthMb, before } = await measure(server, () =>
          upload(route.path, token, shape(kind, route.header, BYTES)),
        );
        const health = await fetch(`http://localhost:${PORT}/api/health`).then(
          (r) => r.status,
          () => 0,
        );
        const result = {
          route: route.name,
          shape: kind,
          sentMb: Math.round(BYTES / MB),
          status: answer.status,
          answer: answer.body.slice(0, 200),
          seconds: Number(seconds.toFixed(1)),
          rssBeforeMb: Math.round(before),
          peakGrowthMb: Math.round(growthMb),
          healthyAfter: health === 200,
        };
        log(`bench: ${JSON.stringify(result)}`);
        results.push(result);
      }
    }
  } finally {
    await server.stop();
  }
  const worst = Math.max(...results.map((r) => r.peakGrowthMb));
  return {
    bytesPerUpload: BYTES,
    worstPeakGrowthMb: worst,
    withinBudget: worst <= 300 && results.every((r) => r.healthyAfter && r.status >= 200 && r.status < 500),
    results,
  };
}
