import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { COMPANY_SIZES, COMPANY_TYPES, type TFilterItem, untargetedScheme, ZTargetingScheme } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { to as copyTo } from 'pg-copy-streams';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import { vacuumAnalyzeAsOwner } from '../apps/server/src/db/analyze.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { type DemoSize, seedDemo } from '../apps/server/src/demo/seed-demo.ts';
import { exportNetworkCsv } from '../apps/server/src/features/network/export-csv.ts';
import { NETWORK_ORDER } from '../apps/server/src/features/network/network.repo.ts';
import { queryContacts, queryFilters } from '../apps/server/src/features/network/network.service.ts';
import {
  createNetworkIndex,
  type NetworkIndexRefresh,
} from '../apps/server/src/features/network/network-index/index.ts';
import { saveTargetingScheme } from '../apps/server/src/features/targeting/targeting.repo.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { recordInteractions } from '../apps/server/src/graph/evidence.repo.ts';
import { recomputeAfterWrites, recomputeAll } from '../apps/server/src/graph/graph.service.ts';
import { rebuildNetworkSummaries } from '../apps/server/src/graph/recompute.ts';
import type { Member } from '../apps/server/src/plugins/auth.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

/**
 * The network API and the graph at scale (issue 5): on the demo generator's dataset (large by
 * default: 1M prospects, 10M edges; BENCH_SIZE to change), kept in BENCH_DATA_DIR between runs since
 * it takes minutes to build. Every figure comes with its baseline measured in the same run.
 */
const SIZE = (process.env.BENCH_SIZE ?? 'large') as DemoSize;
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, `.data-bench-${SIZE}`);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** BENCH_SEED_ONLY=1 builds (or completes) the dataset and stops: seeding can run on a busy machine, measuring cannot. */
const SEED_ONLY = process.env.BENCH_SEED_ONLY === '1';
const EMAIL = `bench@${SIZE}.bench.test`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const summary = (ms: number[]) => ({
  p50Ms: round(percentile(ms, 50)),
  p95Ms: round(percentile(ms, 95)),
  runs: ms.length,
});

async function timed<T>(work: () => Promise<T>) {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

/** The process's peak resident memory while `work` runs, sampled every 20 ms. */
async function peakRss<T>(work: () => Promise<T>) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    return { result, rssBeforeMb: round(before / 2 ** 20), rssPeakMb: round(peak / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
}

async function benchWorkspace(database: Database, log: (line: string) => void): Promise<Member> {
  const existing = await database.db.execute<{ workspace_id: string; user_id: string }>(
    sql`select workspace_id, user_id from user_identities where idp_subject = ${`bench|${SIZE}`}`,
  );
  const member = (workspaceId: string, userId: string): Member => ({
    subject: `bench|${SIZE}`,
    email: EMAIL,
    workspaceId,
    userId,
    role: 'admin',
  });
  const found = existing.rows[0];
  const workspaceId = found?.workspace_id ?? randomUUID();
  if (found) {
    // A seed cut short is filled on the next run (the generator adds nothing twice).
    const seeded = await database.inWorkspace(workspaceId, (tx) =>
      tx.execute<{ seeded: boolean }>(
        sql`select exists (select 1 from network_rows where workspace_id = ${workspaceId}) as seeded`,
      ),
    );
    if (seeded.rows[0]?.seeded) return member(workspaceId, found.user_id);
  }
  const userId =
    found?.user_id ??
    (await database.inWorkspace(workspaceId, async (tx) => {
      await insertWorkspace(tx, {
        id: workspaceId,
        name: 'Bench',
        domains: [`${SIZE}.bench.test`],
        allowDomainJoin: false,
      });
      return insertUser(tx, {
        workspaceId,
        idpSubject: `bench|${SIZE}`,
        firstName: 'Bench',
        lastName: 'User',
        email: EMAIL,
        role: 'admin',
      });
    }));
  log(`bench: seeding a ${SIZE} workspace in ${DATA_DIR} (minutes for large; kept for the next runs)`);
  const report = await seedDemo(database, {
    workspaceId,
    seedUserId: userId,
    size: SIZE,
    log,
  });
  log(`bench: seeded in ${Math.round(report.ms / 1000)} s: ${JSON.stringify(report.totals)}`);
  return member(workspaceId, userId);
}

async function optionKeys(database: Database, member: Member) {
  const ws = member.workspaceId;
  return database.inWorkspace(ws, async (tx) => {
    const pick = async (query: ReturnType<typeof sql>) =>
      ((await tx.execute<{ key: string }>(query)).rows[0]?.key ?? '') as string;
    return {
      company: await pick(
        sql`select company_id::text as key from network_rows where workspace_id = ${ws} and company_id is not null group by 1 order by count(*) desc limit 1`,
      ),
      connector: await pick(
        sql`select connector_ids[1]::text as key from network_rows where workspace_id = ${ws} and cardinality(connector_ids) > 0 limit 1`,
      ),
      person: await pick(
        sql`select prospect_id::text as key from network_rows where workspace_id = ${ws} offset 1000 limit 1`,
      ),
      industry: await pick(
        sql`select industry as key from network_rows where workspace_id = ${ws} and industry is not null limit 1`,
      ),
    };
  });
}

/**
 * The ideal customer profile a team sets at onboarding: its most common country, its two largest
 * departments, every size and type. Without one the ICP case would match no row and measure nothing.
 */
async function saveIdealCustomerProfile(database: Database, member: Member) {
  const ws = member.workspaceId;
  await database.inWorkspace(ws, async (tx) => {
    const found = await tx.execute<{ country: string | null; departments: string[] }>(sql`
      select (select country from network_rows where workspace_id = ${ws} and country is not null
               group by 1 order by count(*) desc limit 1) as country,
             array(select department from network_rows where workspace_id = ${ws} and department is not null
                    group by 1 order by count(*) desc limit 2) as departments`);
    const top = found.rows[0];
    if (!top?.country || top.departments.length === 0) throw new Error('the dataset has no countries or departments');
    const scheme = ZTargetingScheme.parse({
      ...untargetedScheme(),
      countries: [top.country],
      companySize: [...COMPANY_SIZES],
      companyType: [...COMPANY_TYPES],
      jobDepartments: top.departments,
    });
    await saveTargetingScheme(tx, ws, member.userId, scheme);
  });
}

/** Filter combinations a user makes: none, one field, several, the toggles. */
function filterCases(keys: Awaited<ReturnType<typeof optionKeys>>): Record<string, TFilterItem[]> {
  return {
    none: [],
    proximityHigh: [{ name: 'proximity', values: ['High'] }],
    proximityLow: [{ name: 'proximity', values: ['Low'] }],
    engagementMet: [{ name: 'engagement', values: ['MET'] }],
    company: [{ name: 'companyName', values: [keys.company] }],
    connector: [{ name: 'connector', values: [keys.connector] }],
    signalWarm: [{ name: 'signal', values: ['PAST_CLIENT', 'VISITED_PRICING_PAGE', 'ALREADY_MET_COLLEAGUE'] }],
    sizeAndIndustry: [
      { name: 'companySize', values: ['51 - 200', '201 - 500'] },
      { name: 'industry', values: [keys.industry] },
    ],
    departmentProximityEngagement: [
      { name: 'jobDepartment', values: ['Sales', 'Marketing'] },
      { name: 'proximity', values: ['Medium', 'High'] },
      { name: 'engagement', values: ['TOUCHED', 'NEVER_MET'] },
    ],
    externalOnly: [{ name: 'externalOnly', values: ['true'] }],
    myAccounts: [{ name: 'myAccounts', values: ['true'] }],
    idealCustomerProfile: [{ name: 'idealCustomerProfile', values: ['true'] }],
    personName: [{ name: 'personName', values: [keys.person] }],
  };
}

export async function network() {
  await fs.mkdir(DATA_DIR, { recursive: true });
  await fs.chmod(DATA_DIR, 0o755);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const config = loadConfig({ DATA_DIR, LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, log);
  try {
    const database = runtime.database;
    const member = await benchWorkspace(database, log);
    if (SEED_ONLY) return null;
    // What autovacuum does within a minute on a running server; a benchmark process lives shorter.
    // VACUUM sets the visibility map, without which every index-only scan reads the heap as well.
    await vacuumAnalyzeAsOwner(runtime.databaseUrl, [
      'people',
      'companies',
      'edges',
      'network_rows',
      'users',
      'clients',
    ]);
    const ws = member.workspaceId;
    const inWs = <T>(work: Parameters<Database['inWorkspace']>[1]) => database.inWorkspace(ws, work) as Promise<T>;
    const sizes = (
      await inWs<{ rows: { prospects: number; edges: number; companies: number }[] }>((tx) =>
        tx.execute(sql`select (select count(*)::int from network_rows where workspace_id = ${ws}) as prospects,
                            (select count(*)::int from edges where workspace_id = ${ws}) as edges,
                            (select count(*)::int from companies where workspace_id = ${ws}) as companies`),
      )
    ).rows[0];
    log(`bench: dataset ${JSON.stringify(sizes)}`);
    // The summaries every recompute ends with; built here too, for a dataset seeded before they existed.
    const summaries = await timed(() => inWs((tx) => rebuildNetworkSummaries(tx, ws)));
    log(`bench: summaries rebuilt in ${round(summaries.ms / 1000, 2)} s`);

    // The in-memory copy the server keeps of a large workspace's rows, built as the first request does.
    const refreshes: NetworkIndexRefresh[] = [];
    const networkIndex = createNetworkIndex(database, {
      onError: (error) => log(`bench: index: ${String(error)}`),
      onRefresh: (refresh) => refreshes.push(refresh),
    });
    const indexBuild = await peakRss(() =>
      timed(async () => {
        await inWs((tx) => networkIndex.current(tx, ws));
        await networkIndex.settled();
      }),
    );
    if (!(await inWs((tx) => networkIndex.current(tx, ws)))) throw new Error('the network index did not build');
    const indexFigures = {
      buildSeconds: round(indexBuild.result.ms / 1000, 2),
      rssBeforeMb: indexBuild.rssBeforeMb,
      rssAfterMb: round(process.memoryUsage().rss / 2 ** 20),
    };
    log(`bench: network index ${JSON.stringify(indexFigures)}`);
    const deps = { database, networkIndex };

    // Baseline for queries: a plain count(*) over the workspace's prospects.
    const countMs: number[] = [];
    for (let run = 0; run < RUNS * 4; run++) {
      countMs.push(
        (await timed(() => inWs((tx) => tx.execute(sql`select count(*) from network_rows where workspace_id = ${ws}`))))
          .ms,
      );
    }
    const baseline = summary(countMs);
    log(`bench: baseline count(*) ${JSON.stringify(baseline)}`);

    await saveIdealCustomerProfile(database, member);
    const cases = filterCases(await optionKeys(database, member));
    const tablePages: Record<string, unknown> = {};
    const allTableMs: number[] = [];
    let slowest = { name: '', ms: 0 };
    for (const [name, filters] of Object.entries(cases)) {
      const first = await queryContacts(deps, member, filters, 1, 30);
      const lastPage = first.pagination.totalPages;
      const pages = [1, 2, Math.max(1, Math.floor(lastPage / 3)), Math.max(1, Math.floor(lastPage / 2)), lastPage];
      const ms: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        for (const page of pages) {
          const { ms: elapsed } = await timed(() => queryContacts(deps, member, filters, page, 30));
          ms.push(elapsed);
        }
      }
      allTableMs.push(...ms);
      const stats = summary(ms);
      if (stats.p95Ms > slowest.ms) slowest = { name, ms: stats.p95Ms };
      tablePages[name] = { totalCount: first.pagination.totalCount, ...stats };
      log(`bench: table ${name} ${JSON.stringify(tablePages[name])}`);
    }

    const filtersCalls: Record<string, unknown> = {};
    const allFilterMs: number[] = [];
    for (const [name, filters] of Object.entries(cases)) {
      const ms: number[] = [];
      for (let run = 0; run < Math.max(2, Math.ceil(RUNS / 2)); run++) {
        ms.push((await timed(() => queryFilters(deps, member, filters, { companyNamePage: 1, personNamePage: 1 }))).ms);
      }
      allFilterMs.push(...ms);
      filtersCalls[name] = summary(ms);
      log(`bench: filters ${name} ${JSON.stringify(filtersCalls[name])}`);
    }

    // Export: our streamed CSV against COPY ... TO STDOUT of the same rows.
    let exported = 0;
    const sink = () =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          exported += chunk.length;
          done();
        },
      });
    const exportRun = await peakRss(() => timed(() => exportNetworkCsv(database, member, [], sink())));
    const exportRows = sizes?.prospects ?? 0;
    const client = await database.pool.connect();
    let copyMs = 0;
    try {
      await client.query('begin');
      await client.query(`select set_config('app.workspace_id', $1, true)`, [ws]);
      const started = performance.now();
      await pipeline(
        client.query(
          copyTo(`copy (select p.full_name, p.email, p.linkedin_url, r.job_title, r.department, co.name, r.company_size,
                         r.industry, r.engagement, r.proximity, r.connector_ids, r.signal_mask
                    from network_rows r join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
                    left join companies co on co.workspace_id = r.workspace_id and co.id = r.company_id
                   where r.workspace_id = '${ws}' order by r.proximity desc nulls last, r.prospect_id) to stdout with csv`),
        ),
        sink(),
      );
      copyMs = performance.now() - started;
      await client.query('commit');
    } finally {
      client.release();
    }
    const exportFigures = {
      rows: exportRows,
      seconds: round(exportRun.result.ms / 1000, 2),
      rowsPerSecond: Math.round(exportRows / (exportRun.result.ms / 1000)),
      baselineCopySeconds: round(copyMs / 1000, 2),
      baselineCopyRowsPerSecond: Math.round(exportRows / (copyMs / 1000)),
      ratioToCopy: round(exportRun.result.ms / copyMs, 2),
      rssBeforeMb: exportRun.rssBeforeMb,
      rssPeakMb: exportRun.rssPeakMb,
    };
    log(`bench: export ${JSON.stringify(exportFigures)}`);

    // Incremental recompute after 10,000 new interactions between members and prospects.
    const participants = await inWs<{ rows: { email: string }[] }>((tx) =>
      tx.execute(sql`select p.email from network_rows r join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
                      where r.workspace_id = ${ws} and p.email is not null order by r.prospect_id limit 5000`),
    );
    const members = await inWs<{ rows: { email: string }[] }>((tx) =>
      tx.execute(sql`select email from users where workspace_id = ${ws} order by email limit 20`),
    );
    const stamp = Date.now();
    const interactions = Array.from({ length: 10_000 }, (_, index) => {
      const prospect = participants.rows[index % participants.rows.length]?.email ?? '';
      const memberEmail = members.rows[index % members.rows.length]?.email ?? EMAIL;
      const meeting = index % 3 === 0;
      return {
        kind: meeting ? ('meeting' as const) : ('mail' as const),
        externalId: `bench-${stamp}-${index}`,
        occurredAt: new Date(Date.now() - (index % 90) * 86_400_000),
        participants: meeting
          ? [
              { email: memberEmail, name: null, role: 'organizer' as const },
              { email: prospect, name: null, role: 'attendee' as const },
            ]
          : [
              { email: index % 2 ? memberEmail : prospect, name: null, role: 'from' as const },
              { email: index % 2 ? prospect : memberEmail, name: null, role: 'to' as const },
            ],
      };
    });
    const sender = await inWs<{ rows: { id: string }[] }>((tx) =>
      tx.execute(sql`select id from users where workspace_id = ${ws} limit 1`),
    );
    for (let start = 0; start < interactions.length; start += 2000) {
      await inWs((tx) =>
        recordInteractions(tx, ws, sender.rows[0]?.id ?? member.userId, interactions.slice(start, start + 2000)),
      );
    }
    // What the server's graph job does: statistics refreshed, then the recompute.
    const incremental = await timed(() => recomputeAfterWrites(database, ws));
    // Then the copy catches up with the rows the step wrote (the job's: the old copy answers meanwhile).
    await inWs((tx) => networkIndex.current(tx, ws));
    await networkIndex.settled();
    const caughtUp = refreshes.at(-1);
    const incrementalFigures = {
      interactions: interactions.length,
      seconds: round(incremental.ms / 1000, 2),
      report: incremental.result,
      copyCaughtUp: caughtUp && {
        how: caughtUp.how,
        seconds: round(caughtUp.ms / 1000, 2),
        changedRows: caughtUp.changedRows,
        rows: caughtUp.rows,
        buildSeconds: indexFigures.buildSeconds,
      },
    };
    log(`bench: incremental ${JSON.stringify(incrementalFigures)}`);

    // Full recompute (a model change rescoring every edge) against a read-only scan of the same edges.
    const scan = await timed(() =>
      inWs((tx) =>
        tx.execute(sql`select count(*), sum(meeting_weight + mail_sent_weight + mail_received_weight + shared_months)
                                    from edges where workspace_id = ${ws}`),
      ),
    );
    await inWs((tx) =>
      tx.execute(
        sql`update workspaces set graph_settings = '{"proximity": {"weights": {"mail": 0.8}}}' where id = ${ws}`,
      ),
    );
    const full = await peakRss(() => timed(() => recomputeAll(database, ws)));
    // Once more on the same model: every row is computed and compared, none written.
    const unchanged = await timed(() => recomputeAll(database, ws));
    await inWs((tx) => tx.execute(sql`update workspaces set graph_settings = '{}' where id = ${ws}`));
    const restore = await timed(() => recomputeAll(database, ws));
    const fullFigures = {
      edges: sizes?.edges ?? 0,
      seconds: round(full.result.ms / 1000, 2),
      baselineScanSeconds: round(scan.ms / 1000, 2),
      ratioToScan: round(full.result.ms / scan.ms, 2),
      rowsWritten: full.result.result.rowsWritten,
      unchangedRecomputeSeconds: round(unchanged.ms / 1000, 2),
      unchangedRowsWritten: unchanged.result.rowsWritten,
      restoreRecomputeSeconds: round(restore.ms / 1000, 2),
      rssBeforeMb: full.rssBeforeMb,
      rssPeakMb: full.rssPeakMb,
    };
    log(`bench: full recompute ${JSON.stringify(fullFigures)}`);

    // The plan of the slowest table query, for the record.
    const slowestFilters = cases[slowest.name] ?? [];
    const { compileFilters } = await import('../apps/server/src/features/network/network-filters.ts');
    const plan = await inWs<string[]>(async (tx) => {
      const compiled = await compileFilters(tx, member, slowestFilters);
      const explain = await tx.execute(
        sql`explain (analyze, buffers) select r.prospect_id from network_rows r where ${compiled.where()} order by ${NETWORK_ORDER} limit 30 offset 0`,
      );
      const count = await tx.execute(
        sql`explain (analyze, buffers) select count(*) from network_rows r where ${compiled.where()}`,
      );
      return [...explain.rows, ...count.rows].map((row) => String(Object.values(row)[0]));
    });

    return {
      size: SIZE,
      dataset: sizes,
      summariesRebuildSeconds: round(summaries.ms / 1000, 2),
      networkIndex: indexFigures,
      baselineCount: baseline,
      table: {
        ...summary(allTableMs),
        ratioP95ToBaselineP95: round(percentile(allTableMs, 95) / baseline.p95Ms, 2),
        cases: tablePages,
      },
      filters: {
        ...summary(allFilterMs),
        ratioP95ToBaselineP95: round(percentile(allFilterMs, 95) / baseline.p95Ms, 2),
        cases: filtersCalls,
      },
      export: { ...exportFigures, bytes: exported },
      incrementalRecompute: incrementalFigures,
      fullRecompute: fullFigures,
      slowestTableCase: { ...slowest, plan },
    };
  } finally {
    await runtime.close();
  }
}
