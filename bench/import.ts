import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CSV_TEMPLATES, CSV_UPLOAD, IMPORT_MERGE_STEPS, type TImportStatus } from '@warmpath/shared';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import { mintAccessToken } from '../apps/server/src/idp/provider.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

/**
 * The clients import of a generated CSV (BENCH_IMPORT_MB, default 1024 MB: about 4 million rows)
 * through the real HTTP route of a running server, against a raw COPY of the same file into an
 * unindexed table in the same database: throughput of both, their ratio, and the server's resident
 * memory growth while it imports. The file is kept in the git-ignored data directory for later runs.
 */
const MEGABYTES = Number(process.env.BENCH_IMPORT_MB ?? 1024);
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, '.data-bench-import');
const PORT = 3198;
const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** Columns the importer reads, plus two it ignores (as CRM exports carry). */
export const HEADER = [...CSV_TEMPLATES.clients.columns, 'Job title', 'Notes'];
const FIRST = ['Jane', 'John', 'Zoë', 'Amélie', 'Mohammed', 'Wei', 'Olga', 'Carlos', 'Aoife', 'Kwame'];
const LAST = ['Doe', 'Smith', 'Müller', "O'Brien", 'Nguyen', 'García', 'Kowalski', 'Dubois', 'Rossi', 'Tanaka'];
const TITLES = ['Head of Sales', 'VP Marketing, EMEA', 'CTO', 'Account Executive', 'Chief "People" Officer'];

/** The e-mails of the people `row` makes, as a LIKE pattern: the scale bench removes what it imported. */
export const ROW_EMAIL_PATTERN = '%@company-%.example';

export function row(n: number, owner: string) {
  const first = FIRST[n % FIRST.length] ?? '';
  const last = LAST[(n >> 3) % LAST.length] ?? '';
  const company = n % 200_003;
  const domain = `company-${company}.example`;
  const email = n % 250 === 0 ? `broken-address-${n}` : `${first.toLowerCase()}.${n}@${domain}`;
  const title = TITLES[n % TITLES.length] ?? '';
  const cells = [
    first,
    `${last}-${n}`,
    email,
    `Company ${company}, Holdings`,
    domain,
    `https://www.linkedin.com/in/${first.toLowerCase()}-${n}`,
    n % 3 === 0 ? owner : '',
    n % 4 === 0 ? 'Client' : 'Ally',
    title,
    `Met at the ${n % 12} conference; follow up about renewal and the ${n % 7} seat expansion.`,
  ];
  return `${cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')}\r\n`;
}

/** Writes the file once per size (about 260 bytes a row, never past the upload limit), streamed, never held whole. */
async function generate(file: string, owner: string) {
  const target = Math.min(MEGABYTES * 1024 * 1024, CSV_UPLOAD.maxBytes);
  const ready = await fsp.stat(file).then(
    (stat) => stat.size <= target && stat.size > target - 1024 * 1024,
    () => false,
  );
  if (ready) return;
  log(`bench: generating ${file}`);
  const out = fs.createWriteStream(`${file}.tmp`);
  const header = `${HEADER.join(',')}\r\n`;
  out.write(header);
  let written = Buffer.byteLength(header);
  let n = 0;
  for (;;) {
    let chunk = '';
    for (let i = 0; i < 2000; i++) {
      const next = row(n++, owner);
      const bytes = Buffer.byteLength(next);
      if (written + bytes > target) break;
      chunk += next;
      written += bytes;
    }
    if (chunk === '') break;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  await fsp.rename(`${file}.tmp`, file);
}

/** The server process, started directly so its resident memory is its own. */
async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  for (let attempt = 0; ; attempt++) {
    const healthy = await fetch(`http://localhost:${PORT}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (attempt > 3600 || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const rssMb = async () => {
    const status = await fsp.readFile(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  };
  return {
    rssMb,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The clients upload a browser makes to a server on `port`: multipart, the flags first, the file
 * streamed from disk. Rejects when the connection fails (a server that died mid-upload).
 */
export async function uploadClientsFile(
  port: number,
  file: string,
  token: string,
  importId: string,
  flags: Record<string, string>,
) {
  const boundary = `----warmpath-bench-${randomUUID()}`;
  const head = Buffer.from(
    Object.entries(flags)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clients.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = (await fsp.stat(file)).size;
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: `/api/clients/command/upload-clients?importId=${importId}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.write(head);
    const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    stream.pipe(request, { end: false });
    stream.on('end', () => request.end(tail));
    stream.on('error', reject);
  });
}

/** The physical ceiling: the same bytes COPYed as CSV into a table without any index. */
async function rawCopy(ownerUrl: string, file: string) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query('drop table if exists bench_raw_import');
    await client.query(`create table bench_raw_import (${HEADER.map((_, i) => `c${i} text`).join(', ')})`);
    const started = performance.now();
    await pipeline(
      fs.createReadStream(file, { highWaterMark: 1024 * 1024 }),
      client.query(copyFrom('copy bench_raw_import from stdin (format csv, header true)')),
    );
    const seconds = (performance.now() - started) / 1000;
    const rows = await client.query<{ n: string }>('select count(*) as n from bench_raw_import');
    await client.query('drop table bench_raw_import');
    return { seconds, rows: Number(rows.rows[0]?.n ?? 0) };
  } finally {
    await client.end();
  }
}

/**
 * Cancels what the server's jobs run after the import (the graph recompute of millions of marked
 * people): measured separately, and a running query would hold the database's shutdown.
 */
async function cancelBackgroundWork(ownerUrl: string) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query(`select pg_cancel_backend(pid) from pg_stat_activity
                         where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`);
  } finally {
    await client.end();
  }
}

export async function importBench() {
  await fsp.mkdir(DATA_DIR, { recursive: true });
  await fsp.chmod(DATA_DIR, 0o755);
  // A fresh database every run (the generated files are kept): no earlier run's data or queued work.
  for (const entry of await fsp.readdir(DATA_DIR)) {
    if (!entry.endsWith('.csv')) await fsp.rm(path.join(DATA_DIR, entry), { recursive: true, force: true });
  }
  const domain = 'bench-import.test';
  const file = path.join(DATA_DIR, `clients-${MEGABYTES}mb.csv`);
  // The owner column names an address of the file's own workspace: the same every run.
  await generate(file, 'owner@bench-owner.test');
  const fileBytes = (await fsp.stat(file)).size;

  const server = await startServer();
  const config = loadConfig({ DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, log);
  try {
    // Every row of the file is new to the workspace.
    const email = `admin@${domain}`;
    const token = await mintAccessToken(config, runtime.database.db, { email, name: 'Bench Admin' });
    const registered = await fetch(`http://localhost:${PORT}/api/users/command/create-workspace-admin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        idpId: JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub,
        firstName: 'Bench',
        lastName: 'Admin',
        email,
        workspaceName: 'Import bench',
        workspaceDomains: [domain],
        allowDomainJoin: false,
      }),
    });
    if (registered.status !== 201) throw new Error(`registration failed: ${await registered.text()}`);

    log(`bench: raw COPY of ${round(fileBytes / 1e6)} MB`);
    const raw = await rawCopy(runtime.databaseUrl, file);
    log(`bench: raw COPY ${round(raw.seconds, 2)} s`);

    const rssBefore = await server.rssMb();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      server.rssMb().then(
        (mb) => {
          rssPeak = Math.max(rssPeak, mb);
        },
        () => {},
      );
    }, 200);
    log('bench: importing through POST /api/clients/command/upload-clients');
    const importId = randomUUID();
    const started = performance.now();
    // When the file was all staged and the merge began, and when each of its steps began, as a
    // client polling the status sees them.
    let mergeStartedAt: number | null = null;
    const stepStartedAt = new Map<number, number>();
    const poller = setInterval(() => {
      fetch(`http://localhost:${PORT}/api/imports/query/${importId}`, { headers: { authorization: `Bearer ${token}` } })
        .then((polled) => (polled.ok ? (polled.json() as Promise<TImportStatus>) : null))
        .then(
          (polled) => {
            if (polled?.status !== 'merging') return;
            mergeStartedAt ??= performance.now();
            if (polled.mergeStep !== null && !stepStartedAt.has(polled.mergeStep))
              stepStartedAt.set(polled.mergeStep, performance.now());
          },
          () => {},
        );
    }, 500);
    const response = await uploadClientsFile(PORT, file, token, importId, {
      mapNetwork: 'true',
      trackJobChanges: 'true',
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    clearInterval(poller);
    const finished = performance.now();
    const receiveSeconds = ((mergeStartedAt ?? finished) - started) / 1000;
    // Each step until the next one seen (a step shorter than the polling interval may be missed).
    const seen = [...stepStartedAt.entries()].sort(([a], [b]) => a - b);
    const mergeSteps = Object.fromEntries(
      seen.map(([step, at], index) => [
        IMPORT_MERGE_STEPS.clients[step] ?? String(step),
        round(((seen[index + 1]?.[1] ?? finished) - at) / 1000, 1),
      ]),
    );
    if (response.status !== 200) throw new Error(`import failed (${response.status}): ${response.body}`);
    const status = JSON.parse(response.body) as TImportStatus;
    log(`bench: import ${round(seconds, 2)} s ${JSON.stringify(status)}`);

    const importMBps = fileBytes / 1e6 / seconds;
    const rawMBps = fileBytes / 1e6 / raw.seconds;
    return {
      fileMB: round(fileBytes / 1e6),
      rows: raw.rows,
      import: {
        seconds: round(seconds, 2),
        /** Reading, validating and staging the file, then the merge (as seen by polling the status). */
        receiveSeconds: round(receiveSeconds, 1),
        mergeSeconds: round(seconds - receiveSeconds, 1),
        /** Seconds per step of the merge, as the status shows them (polled every 500 ms). */
        mergeSteps,
        MBps: round(importMBps, 2),
        rowsPerSecond: Math.round(status.rowsProcessed / seconds),
        added: status.added,
        updated: status.updated,
        skipped: status.skipped,
        rejected: status.rejected,
      },
      rawCopy: { seconds: round(raw.seconds, 2), MBps: round(rawMBps, 2) },
      throughputRatio: round(importMBps / rawMBps, 3),
      serverRss: { beforeMB: round(rssBefore), peakMB: round(rssPeak), growthMB: round(rssPeak - rssBefore) },
      targets: { throughputRatio: '>= 0.5', rssGrowthMB: '< 300' },
    };
  } finally {
    await cancelBackgroundWork(runtime.databaseUrl);
    await runtime.close();
    await server.stop();
  }
}
