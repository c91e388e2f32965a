// The load generator of `bench/track.ts`, in a process of its own (forked) so that its CPU and memory
// are not the server's: `concurrency` keep-alive connections, each posting a batch after its answer.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

export type LoadOrder = {
  url: string;
  key: string;
  origin: string;
  batchSize: number;
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
};
export type LoadReport = {
  seconds: number;
  requests: number;
  events: number;
  accepted: number;
  statuses: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number };
  /** Events accepted per second in each tenth of the run: a slowdown as the table grows shows here. */
  eventsPerSecondByTenth: number[];
};

/** Latencies to the tenth of a millisecond, up to 10 s: a fixed histogram, so a 5-minute run holds no array of millions. */
const BUCKET_MS = 0.1;
const BUCKETS = 100_000;

/** The bodies the snippet would send: distinct browsers, a few pages, text/plain as sendBeacon sends it. */
function bodies(order: LoadOrder, count: number): Buffer[] {
  const pages = ['/', '/pricing', '/product', '/docs/getting-started', '/blog/warm-intros', '/customers'];
  return Array.from({ length: count }, (_, index) => {
    const events = Array.from({ length: order.batchSize }, (_, i) => ({
      type: 'page',
      anonymousId: randomBytes(16).toString('base64url'),
      url: `${order.origin}${pages[(index + i) % pages.length]}?utm_source=bench`,
      referrer: 'https://www.google.com/',
    }));
    return Buffer.from(JSON.stringify({ key: order.key, events }));
  });
}

async function run(order: LoadOrder): Promise<LoadReport> {
  const target = new URL(order.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: order.concurrency });
  const pool = bodies(order, 2_000);
  const histogram = new Uint32Array(BUCKETS);
  const statuses: Record<string, number> = {};
  let requests = 0;
  let accepted = 0;
  let maxMs = 0;
  let next = 0;
  let measuring = false;
  let measuredFrom = 0;
  /** Events accepted in each second of the measured run. */
  const perSecond = new Uint32Array(order.seconds + 2);

  const post = (body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            'content-type': 'text/plain;charset=UTF-8',
            'content-length': body.length,
            origin: order.origin,
            'user-agent':
              'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            if (measuring) {
              const ms = performance.now() - started;
              const bucket = Math.min(BUCKETS - 1, Math.floor(ms / BUCKET_MS));
              histogram[bucket] = (histogram[bucket] ?? 0) + 1;
              maxMs = Math.max(maxMs, ms);
              requests += 1;
              const status = String(response.statusCode);
              statuses[status] = (statuses[status] ?? 0) + 1;
              if (response.statusCode === 202) {
                const count = (JSON.parse(Buffer.concat(chunks).toString()) as { accepted: number }).accepted;
                accepted += count;
                const second = Math.min(perSecond.length - 1, Math.floor((performance.now() - measuredFrom) / 1000));
                perSecond[second] = (perSecond[second] ?? 0) + count;
              }
            }
            resolve();
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  let stopAt = performance.now() + order.warmupSeconds * 1000;
  const loop = async () => {
    while (performance.now() < stopAt) await post(pool[next++ % pool.length] as Buffer);
  };
  await Promise.all(Array.from({ length: order.concurrency }, loop));
  measuring = true;
  const started = performance.now();
  measuredFrom = started;
  stopAt = started + order.seconds * 1000;
  await Promise.all(Array.from({ length: order.concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();

  const quantile = (q: number) => {
    let seen = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      seen += histogram[bucket] ?? 0;
      if (seen >= q * requests) return Number(((bucket + 1) * BUCKET_MS).toFixed(1));
    }
    return Number(maxMs.toFixed(1));
  };
  return {
    seconds: Number(seconds.toFixed(1)),
    requests,
    events: requests * order.batchSize,
    accepted,
    statuses,
    latencyMs: { p50: quantile(0.5), p99: quantile(0.99), max: Number(maxMs.toFixed(1)) },
    eventsPerSecondByTenth: Array.from({ length: 10 }, (_, tenth) => {
      const from = Math.floor((tenth * order.seconds) / 10);
      const to = Math.max(from + 1, Math.floor(((tenth + 1) * order.seconds) / 10));
      return Math.round(perSecond.slice(from, to).reduce((sum, count) => sum + count, 0) / (to - from));
    }),
  };
}

if (process.send) {
  process.once('message', (order: LoadOrder) => {
    run(order).then(
      (report) => process.send?.({ report }, () => process.exit(0)),
      (error: unknown) => process.send?.({ error: String(error) }, () => process.exit(1)),
    );
  });
}
