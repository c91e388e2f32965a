import { randomUUID } from 'node:crypto';
import {
  COMPANY_SIZES,
  COMPANY_TYPES,
  EMPTY_STATE,
  ENGAGEMENTS,
  NETWORK_FILTER_LABELS,
  type NetworkFilterField,
  PROXIMITY_BANDS,
  SENIORITIES,
  SIGNAL_BIT_LIMIT,
  SIGNAL_TYPES,
  type TFilterItem,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/harness.ts';
import { writeAsGraphJob } from '../../graph/graph.service.ts';
import { rebuildNetworkSummaries } from '../../graph/recompute.ts';
import type { Member } from '../../plugins/auth.ts';
import { insertPersona, saveTargetingScheme } from '../targeting/targeting.repo.ts';
import { queryContacts, queryFilters } from './network.service.ts';
import {
  COPY_TURN_LOCK,
  createNetworkIndex,
  type NetworkIndex,
  type NetworkIndexRefresh,
  type NetworkSnapshot,
} from './network-index/index.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const DEPARTMENTS = ['Sales', 'Marketing', 'HR', 'Engineering'];
const INDUSTRIES = ['Software', 'Retail', 'Banking'];
// Titles with LIKE's own characters, a tab (escaped by COPY) and an accent.
const TITLES = ['100% Sales lead', 'Head_of Ops', 'VP\tSales', 'Ingénieur', 'Account Executive', 'Head of People'];
const NAMES = ['Ann Lee', 'Bob Stone', 'Émile Zola', 'ann lee', 'Zed'];

/**
 * 3,000 prospects over 20 companies (and none), every filterable column varied, nulls included, with
 * the caller's targeting scheme, a persona and assigned accounts: what every filter can test.
 */
async function seedNetwork(member: Member) {
  const ws = member.workspaceId;
  const connectors = Array.from({ length: 6 }, () => randomUUID());
  return ctx.database.inWorkspace(ws, async (tx) => {
    const companies = await tx.execute<{ id: string }>(sql`
      insert into companies (workspace_id, domain, name, technologies)
      select ${ws}::uuid, 'c' || n || '.test', 'Company ' || n, case when n % 3 = 0 then '{React}'::text[] else '{}' end
        from generate_series(1, 20) as n returning id`);
    const companyIds = companies.rows.map((row) => row.id);
    await tx.execute(sql`
      with made as (
        insert into people (workspace_id, full_name)
        select ${ws}::uuid, (${sql.param(NAMES)}::text[])[1 + n % 5] || ' ' || (n % 40) from generate_series(1, 3000) as n
        returning id, full_name),
      numbered as (select id, full_name, row_number() over (order by id)::int as n from made)
      insert into network_rows (workspace_id, prospect_id, full_name, company_id, company_size, industry, country,
                                company_type, department, seniority, job_title, proximity, engagement, connector_ids,
                                has_external_connector, signal_mask)
      select ${ws}::uuid, id, full_name, (${sql.param(companyIds)}::uuid[])[1 + n % 21],
             (${sql.param([...COMPANY_SIZES])}::text[])[1 + n % 9], (${sql.param(INDUSTRIES)}::text[])[1 + n % 4],
             (array['US', 'FR', 'DE'])[1 + n % 3], (${sql.param([...COMPANY_TYPES])}::text[])[1 + n % 3],
             (${sql.param(DEPARTMENTS)}::text[])[1 + n % 5], (${sql.param([...SENIORITIES])}::text[])[1 + n % 6],
             (${sql.param(TITLES)}::text[])[1 + n % 7], (n * 37) % 101, n % 3,
             array(select c from unnest(${sql.param(connectors)}::uuid[]) with ordinality as u(c, i)
                    where n % 7 <> 0 and (n >> i::int) & 1 = 1),
             n % 4 = 0, (n * 2654435761) % ${1 << SIGNAL_BIT_LIMIT}
        from numbered`);
    await rebuildNetworkSummaries(tx, ws);
    await saveTargetingScheme(tx, ws, member.userId, {
      countries: ['US', 'FR'],
      companySize: [...COMPANY_SIZES.slice(0, 5)],
      companyType: ['BtoB'],
      jobDepartments: ['Sales', 'HR'],
      industries: [],
      seniorities: [],
      customJobTitles: ['head_'],
      selectedCustomJobTitles: ['head_', '100%'],
      competitorDomainsToExclude: ['c2.test'],
      technologies: [],
      specificIndustries: [],
    });
    await insertPersona(tx, {
      workspaceId: ws,
      userId: member.userId,
      name: 'Sales leaders',
      jobDepartments: ['Marketing'],
      seniorities: ['Manager', 'Senior'],
      customJobTitles: ['vp', 'ingé'],
    });
    await tx.execute(sql`
      with made as (
        insert into accounts (workspace_id, company_id) select ${ws}::uuid, id from unnest(${sql.param(companyIds.slice(0, 5))}::uuid[]) as id
        returning id, company_id)
      insert into account_assignees (workspace_id, account_id, user_id)
      select ${ws}::uuid, id, ${member.userId}::uuid from made where company_id <> all(${sql.param(companyIds.slice(3, 5))}::uuid[])`);
    const people = await tx.execute<{ id: string }>(
      sql`select prospect_id as id from network_rows where workspace_id = ${ws} order by prospect_id limit 5`,
    );
    return { connectors, companyIds, personIds: people.rows.map((row) => row.id) };
  });
}

/**
 * After the bulk write, what the graph job does after its own (refreshGraphStatistics): the tables are
 * shared by every test file, and plans made on statistics that never saw this workspace took 120 s.
 */
async function seedNetworkAnalyzed(member: Member) {
  const seeded = await seedNetwork(member);
  await ctx.database.analyze(['people', 'companies', 'network_rows', 'account_assignees', 'accounts']);
  return seeded;
}

/** Any request's filters: up to three fields, each chosen from its values (a few naming nothing) or EMPTY_STATE, and the toggles. */
function filtersArbitrary(values: Record<NetworkFilterField, string[]>, userId: string) {
  const fields = Object.keys(NETWORK_FILTER_LABELS) as NetworkFilterField[];
  const chosen = (name: NetworkFilterField) =>
    fc
      .oneof(
        { weight: 6, arbitrary: fc.subarray(values[name], { minLength: 1 }) },
        { weight: 1, arbitrary: fc.constant<string[]>([EMPTY_STATE]) },
      )
      .map((picked): TFilterItem => ({ name, values: picked }));
  const toggles = ['idealCustomerProfile', 'personas', 'myAccounts', 'externalOnly', 'assignedTo'] as const;
  return fc
    .tuple(
      fc.subarray(fields, { maxLength: 3 }).chain((names) => fc.tuple(...names.map(chosen))),
      fc.subarray([...toggles], { maxLength: 2 }),
    )
    .map(([items, on]): TFilterItem[] => [
      ...items,
      ...on.map((name) => ({ name, values: name === 'assignedTo' ? [userId] : ['true'] })),
    ]);
}

describe('the in-memory network index', () => {
  let member: Member;
  let index: NetworkIndex;
  let seeded: Awaited<ReturnType<typeof seedNetwork>>;

  beforeAll(async () => {
    const admin = await ctx.registerAdmin();
    member = {
      subject: `test|${admin.me.id}`,
      email: admin.email,
      workspaceId: admin.me.workspaceId,
      userId: admin.me.id,
      role: 'admin',
    };
    seeded = await seedNetworkAnalyzed(member);
    index = createNetworkIndex(ctx.database, { minRows: 0 });
  });

  const current = () => ctx.database.inWorkspace(member.workspaceId, (tx) => index.current(tx, member.workspaceId));

  it('answers every filter combination, page and facet exactly as PostgreSQL does', async () => {
    expect(await current()).toBeNull(); // the first look starts the build
    await index.settled();
    expect((await current())?.size).toBe(3000);

    const values: Record<NetworkFilterField, string[]> = {
      companyName: [...seeded.companyIds.slice(0, 6), 'not-an-id'],
      companySize: [...COMPANY_SIZES.slice(0, 4)],
      industry: [...INDUSTRIES, 'Nothing'],
      jobDepartment: DEPARTMENTS,
      personName: seeded.personIds,
      proximity: [...PROXIMITY_BANDS.map((band) => band.name), 'Unknown'],
      connector: seeded.connectors.slice(0, 4),
      engagement: [...ENGAGEMENTS],
      signal: [...SIGNAL_TYPES],
    };
    const withIndex = { database: ctx.database, networkIndex: index };
    const withoutIndex = { database: ctx.database };
    // A copy just patched is served before its connector-to-rows lists are filled: the same answers.
    const unlisted: NetworkIndex = {
      ...index,
      current: async (tx, workspaceId) => {
        const copy = await index.current(tx, workspaceId);
        return copy && { ...copy, connectorRowsStart: new Uint32Array(0), connectorRows: new Uint32Array(0) };
      },
    };
    const withUnlistedIndex = { database: ctx.database, networkIndex: unlisted };
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(
        filtersArbitrary(values, member.userId),
        fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant('last' as const), fc.integer({ min: 4, max: 500 })),
        fc.constantFrom(7, 30),
        async (filters, pick, pageSize) => {
          const { totalPages } = (await queryContacts(withoutIndex, member, filters, 1, pageSize)).pagination;
          const page = pick === 'last' ? totalPages : pick;
          const expected = await queryContacts(withoutIndex, member, filters, page, pageSize);
          const found = await queryContacts(withIndex, member, filters, page, pageSize);
          expect(found).toEqual(expected);
          expect(await queryContacts(withUnlistedIndex, member, filters, page, pageSize)).toEqual(expected);
          if (expected.rows.length > 0) nonEmpty++;
        },
      ),
      { numRuns: 80 },
    );
    await fc.assert(
      fc.asyncProperty(
        filtersArbitrary(values, member.userId),
        fc.record({ companyNamePage: fc.integer({ min: 1, max: 3 }), personNamePage: fc.integer({ min: 1, max: 60 }) }),
        async (filters, pages) => {
          const expected = await queryFilters(withoutIndex, member, filters, pages);
          expect(await queryFilters(withIndex, member, filters, pages)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
    // The combinations left rows to compare, not only empty pages.
    expect(nonEmpty).toBeGreaterThan(20);
    for (const filters of [
      [{ name: 'idealCustomerProfile', values: ['true'] }],
      [{ name: 'personas', values: ['true'] }],
      [{ name: 'myAccounts', values: ['true'] }],
    ] satisfies TFilterItem[][]) {
      const expected = await queryContacts(withoutIndex, member, filters, 1, 30);
      expect(expected.pagination.totalCount).toBeGreaterThan(0);
      expect(await queryContacts(withIndex, member, filters, 1, 30)).toEqual(expected);
    }
  }, 120_000);

  it('is not used once the rows change, and is rebuilt to match them', async () => {
    await index.settled();
    const before = await current();
    expect(before).not.toBeNull();
    const ws = member.workspaceId;
    const unfiltered = { companyNamePage: 1, personNamePage: 1 };
    const withIndex = { database: ctx.database, networkIndex: index };
    const filtersBefore = await queryFilters(withIndex, member, [], unfiltered);
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`update network_rows set proximity = 100 where workspace_id = ${ws} and proximity < 10`);
      await rebuildNetworkSummaries(tx, ws);
    });
    expect(await current()).toBeNull();
    const high = [{ name: 'proximity' as const, values: ['High'] }];
    const expected = await queryContacts({ database: ctx.database }, member, high, 1, 30);
    // A request while the copy is brought up to date waits for it, or PostgreSQL answers: the new rows,
    // never the copy's old ones.
    expect(await queryContacts({ database: ctx.database, networkIndex: index }, member, high, 1, 30)).toEqual(expected);
    await index.settled();
    const rebuilt = await current();
    expect(rebuilt?.version).toBeGreaterThan(before?.version ?? 0);
    expect(await queryContacts({ database: ctx.database, networkIndex: index }, member, high, 1, 30)).toEqual(expected);
    // The facets' counts kept for the old copy are not the new one's: the proximity bands moved.
    const filtersAfter = await queryFilters(withIndex, member, [], unfiltered);
    expect(filtersAfter).toEqual(await queryFilters({ database: ctx.database }, member, [], unfiltered));
    expect(filtersAfter).not.toEqual(filtersBefore);
  });

  it('catches up by patching in the rows written or removed since, to what a build reads', async () => {
    const ws = member.workspaceId;
    const refreshes: NetworkIndexRefresh[] = [];
    const patched = createNetworkIndex(ctx.database, { minRows: 0, onRefresh: (refresh) => refreshes.push(refresh) });
    const look = (target: NetworkIndex) => ctx.database.inWorkspace(ws, (tx) => target.current(tx, ws));
    await look(patched);
    await patched.settled();
    expect(refreshes.map((refresh) => refresh.how)).toEqual(['built']);

    /** A change of a few rows picked by `seed`: new values, new rows, or rows removed. */
    const change = fc.record({
      kind: fc.constantFrom('update', 'insert', 'delete'),
      seed: fc.integer({ min: 0, max: 1_000_000 }),
      rows: fc.integer({ min: 1, max: 40 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 3 }), async (changes) => {
        for (const { kind, seed, rows } of changes) await applyChange(ws, kind, seed, rows, seeded);
        expect(await look(patched)).toBeNull(); // stale: PostgreSQL answers meanwhile
        await patched.settled();
        const caughtUp = await look(patched);
        expect(refreshes.at(-1)?.how).toBe('patched');
        const built = createNetworkIndex(ctx.database, { minRows: 0 });
        await look(built);
        await built.settled();
        const fromScratch = await look(built);
        expect(caughtUp?.version).toBe(fromScratch?.version);
        expect(contentOf(caughtUp)).toEqual(contentOf(fromScratch));
      }),
      { numRuns: 25 },
    );

    // The table and the filters from the patched copy are still PostgreSQL's.
    await ctx.database.inWorkspace(ws, (tx) => rebuildNetworkSummaries(tx, ws));
    const filters = [{ name: 'proximity' as const, values: ['Medium'] }];
    const expected = await queryContacts({ database: ctx.database }, member, filters, 2, 30);
    expect(expected.rows.length).toBeGreaterThan(0);
    expect(await look(patched)).not.toBeNull();
    expect(await queryContacts({ database: ctx.database, networkIndex: patched }, member, filters, 2, 30)).toEqual(
      expected,
    );
    const pages = { companyNamePage: 1, personNamePage: 3 };
    expect(await queryFilters({ database: ctx.database, networkIndex: patched }, member, filters, pages)).toEqual(
      await queryFilters({ database: ctx.database }, member, filters, pages),
    );

    // A change to more than a quarter of the rows is read whole again.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`update network_rows set engagement = (engagement + 1) % 3 where workspace_id = ${ws}`),
    );
    await look(patched);
    await patched.settled();
    expect(refreshes.at(-1)?.how).toBe('built');
  }, 120_000);

  it('answers a request made while the copy is patched from the patched copy, once the patch is in', async () => {
    const ws = member.workspaceId;
    const refreshes: NetworkIndexRefresh[] = [];
    const patching = createNetworkIndex(ctx.database, { minRows: 0, onRefresh: (refresh) => refreshes.push(refresh) });
    const answers: string[] = [];
    const watched: NetworkIndex = {
      ...patching,
      current: async (tx, workspaceId) => {
        const copy = await patching.current(tx, workspaceId);
        answers.push(copy ? `copy ${copy.version}` : 'PostgreSQL');
        return copy;
      },
    };
    const look = () => ctx.database.inWorkspace(ws, (tx) => watched.current(tx, ws));
    await look();
    await patching.settled();

    await applyChange(ws, 'update', 11, 10, seeded);
    expect(await look()).toBeNull(); // the copy is behind: its patch starts
    const page = await queryContacts({ database: ctx.database, networkIndex: watched }, member, [], 1, 30);

    expect(refreshes.map((refresh) => refresh.how)).toEqual(['built', 'patched']);
    expect(answers.at(-1)).toBe(`copy ${(await look())?.version}`);
    expect(page).toEqual(await queryContacts({ database: ctx.database }, member, [], 1, 30));
  });

  it("answers from the copy while it is patched to the graph job's batches, never past a member's write", async () => {
    const ws = member.workspaceId;
    const jobs = createNetworkIndex(ctx.database, { minRows: 0 });
    const look = () => ctx.database.inWorkspace(ws, (tx) => jobs.current(tx, ws));
    await look();
    await jobs.settled();
    const before = await look();
    expect(before).not.toBeNull();

    await applyChange(ws, 'update', 21, 10, seeded, { byGraphJob: true });
    // The job's batch: the copy answers at once, as it was, while its patch runs.
    expect((await look())?.version).toBe(before?.version);
    await jobs.settled();
    const patched = await look();
    expect(patched?.version).toBeGreaterThan(before?.version ?? 0);

    // A member's write, then a batch of the job: PostgreSQL answers until the copy has the member's.
    await applyChange(ws, 'update', 22, 10, seeded);
    await applyChange(ws, 'update', 23, 10, seeded, { byGraphJob: true });
    expect(await look()).toBeNull();
    await jobs.settled();
    expect((await look())?.version).toBeGreaterThan(patched?.version ?? 0);
  });

  it('patches one copy at a time on a machine, the others answering as they were meanwhile', async () => {
    const ws = member.workspaceId;
    // Two API processes of this machine, each with its copy; when each refresh ended.
    const refreshes: { refresh: NetworkIndexRefresh; endedAt: number }[][] = [[], []];
    const processes = refreshes.map((list) =>
      createNetworkIndex(ctx.database, {
        minRows: 0,
        onRefresh: (refresh) => list.push({ refresh, endedAt: performance.now() }),
      }),
    );
    const look = (index: NetworkIndex) => ctx.database.inWorkspace(ws, (tx) => index.current(tx, ws));
    for (const index of processes) {
      await look(index);
      await index.settled();
    }
    const before = await look(processes[0] as NetworkIndex);

    // A third process of this machine has its turn: neither patch starts, and both copies answer as they were.
    const third = await ctx.database.pool.connect();
    try {
      await third.query('select pg_advisory_lock($1, hashtext($2))', [...COPY_TURN_LOCK]);
      await applyChange(ws, 'update', 31, 10, seeded, { byGraphJob: true });
      for (const index of processes) expect((await look(index))?.version).toBe(before?.version);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const index of processes) expect((await look(index))?.version).toBe(before?.version);
      expect(refreshes.map((list) => list.length)).toEqual([1, 1]);
    } finally {
      await third.query('select pg_advisory_unlock($1, hashtext($2))', [...COPY_TURN_LOCK]);
      third.release();
    }
    for (const index of processes) await index.settled();
    const patches = refreshes.map((list) => list.at(-1));
    expect(patches.map((patch) => patch?.refresh.how)).toEqual(['patched', 'patched']);
    for (const patch of patches) expect(patch?.refresh.waitedMs).toBeGreaterThanOrEqual(250);
    // One after the other: each patch's own time (its refresh less its wait) ends before the other's begins.
    const [first, second] = patches
      .map((patch) => ({
        from: (patch?.endedAt ?? 0) - ((patch?.refresh.ms ?? 0) - (patch?.refresh.waitedMs ?? 0)),
        to: patch?.endedAt ?? 0,
      }))
      .sort((a, b) => a.from - b.from);
    expect(first?.to).toBeLessThanOrEqual(second?.from ?? 0);
    for (const index of processes) expect((await look(index))?.version).toBeGreaterThan(before?.version ?? 0);
  });

  it('catches a followed copy up once the rows change, before any request asks for it', async () => {
    const ws = member.workspaceId;
    const refreshes: NetworkIndexRefresh[] = [];
    const followed = createNetworkIndex(ctx.database, { minRows: 0, onRefresh: (refresh) => refreshes.push(refresh) });
    const look = () => ctx.database.inWorkspace(ws, (tx) => followed.current(tx, ws));
    await look();
    await followed.settled();
    const stop = followed.follow(20);
    try {
      await applyChange(ws, 'update', 7, 10, seeded);
      // No request in between: the follower alone patches the copy.
      await expect
        .poll(() => refreshes.map((refresh) => refresh.how), { timeout: 10_000 })
        .toEqual(['built', 'patched']);
      await followed.settled();
      // The first request after the change is answered from the copy, at the rows' version.
      const copy = await look();
      expect(copy).not.toBeNull();
      const found = await ctx.database.inWorkspace(ws, (tx) =>
        tx.execute<{ version: number }>(
          sql`select version::float8 as version from network_versions where workspace_id = ${ws}`,
        ),
      );
      expect(copy?.version).toBe(Number(found.rows[0]?.version));
    } finally {
      stop();
    }
  });

  it('moves the version only for statements that change rows, and logs no statement of over 25,000', async () => {
    const ws = member.workspaceId;
    const versionNow = async () => {
      const found = await ctx.database.inWorkspace(ws, (tx) =>
        tx.execute<{ version: string; unlogged_until: string }>(
          sql`select version, unlogged_until from network_versions where workspace_id = ${ws}`,
        ),
      );
      return { version: Number(found.rows[0]?.version), unloggedUntil: Number(found.rows[0]?.unlogged_until) };
    };
    const before = await versionNow();
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`update network_rows set proximity = 0 where workspace_id = ${ws} and proximity > 100`),
    );
    expect(await versionNow()).toEqual(before);

    const logged = (version: number) =>
      ctx.database.inWorkspace(ws, async (tx) => {
        const found = await tx.execute<{ n: number }>(
          sql`select count(*)::int as n from network_changes where workspace_id = ${ws} and version = ${version}`,
        );
        return found.rows[0]?.n;
      });
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`update network_rows set proximity = 100 - proximity where workspace_id = ${ws} and proximity < 3`),
    );
    const small = await versionNow();
    expect(small.version).toBe(before.version + 1);
    expect(await logged(small.version)).toBeGreaterThan(0);

    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`
        insert into network_rows (workspace_id, prospect_id, full_name, proximity, engagement, connector_ids,
                                  has_external_connector, signal_mask)
        select ${ws}::uuid, gen_random_uuid(), 'Bulk ' || n, n % 101, 0, '{}', false, 0 from generate_series(1, 25001) as n`),
    );
    const large = await versionNow();
    expect(large).toEqual({ version: small.version + 1, unloggedUntil: small.version + 1 });
    expect(await logged(large.version)).toBe(0);
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`delete from network_rows where workspace_id = ${ws} and full_name like 'Bulk %'`),
    );
  });

  it('keeps no copy of a workspace below its size threshold', async () => {
    const small = createNetworkIndex(ctx.database);
    expect(
      await ctx.database.inWorkspace(member.workspaceId, (tx) => small.current(tx, member.workspaceId)),
    ).toBeNull();
    await small.settled();
    expect(
      await ctx.database.inWorkspace(member.workspaceId, (tx) => small.current(tx, member.workspaceId)),
    ).toBeNull();
  });
});

/**
 * Changes `rows` network rows picked by `seed`: new proximities, names (ties and accents included),
 * companies, departments and connectors; new prospects; or rows removed.
 */
async function applyChange(
  ws: string,
  kind: 'update' | 'insert' | 'delete',
  seed: number,
  rows: number,
  seeded: { connectors: string[]; companyIds: string[] },
  options: { byGraphJob?: boolean } = {},
) {
  const picked = sql`select prospect_id from network_rows where workspace_id = ${ws}
                      order by md5(prospect_id::text || ${String(seed)}) limit ${rows}`;
  const hash = (salt: string) => sql`abs(hashtext(prospect_id::text || ${`${seed}${salt}`}))`;
  await ctx.database.inWorkspace(ws, async (tx) => {
    if (options.byGraphJob) await writeAsGraphJob(tx);
    if (kind === 'update') {
      await tx.execute(sql`
        update network_rows set
               proximity = ${hash('p')} % 101,
               full_name = (${sql.param(NAMES)}::text[])[1 + ${hash('n')} % 5] || ' ' || (${hash('m')} % 4),
               company_id = case when ${hash('c')} % 6 = 0 then gen_random_uuid()
                                 else (${sql.param(seeded.companyIds)}::uuid[])[1 + ${hash('c')} % 21] end,
               department = (array['Sales', 'Legal', null])[1 + ${hash('d')} % 3],
               job_title = 'Title ' || (${hash('t')} % 50),
               connector_ids = array(select c from unnest(${sql.param(seeded.connectors)}::uuid[]) with ordinality as u(c, i)
                                      where (${hash('k')} >> i::int) & 1 = 1)
                               || case when ${hash('x')} % 4 = 0 then array[gen_random_uuid()] else '{}' end
         where workspace_id = ${ws} and prospect_id in (${picked})`);
    } else if (kind === 'insert') {
      await tx.execute(sql`
        with made as (
          insert into people (workspace_id, full_name)
          select ${ws}::uuid, (${sql.param(NAMES)}::text[])[1 + (n + ${seed}) % 5] || ' ' || (n % 3)
            from generate_series(1, ${rows}) as n
          returning id, full_name)
        insert into network_rows (workspace_id, prospect_id, full_name, company_id, industry, proximity, engagement,
                                  connector_ids, has_external_connector, signal_mask)
        select ${ws}::uuid, id, full_name, (${sql.param(seeded.companyIds)}::uuid[])[1 + abs(hashtext(id::text)) % 21],
               'Insurance', abs(hashtext(id::text)) % 101, 1, array[(${sql.param(seeded.connectors)}::uuid[])[1]],
               true, 1
          from made`);
    } else {
      await tx.execute(sql`delete from network_rows where workspace_id = ${ws} and prospect_id in (${picked})`);
    }
  });
}

/** What a copy holds, decoded: each row's values in the table's order, the name order, and each connector's rows. */
function contentOf(snapshot: NetworkSnapshot | null) {
  if (!snapshot) return null;
  const id = (row: number) => snapshot.ids.toString('latin1', row * 36, (row + 1) * 36);
  const rows = Array.from({ length: snapshot.size }, (_, row) => ({
    id: id(row),
    proximity: snapshot.proximity[row],
    engagement: snapshot.engagement[row],
    signalMask: snapshot.signalMask[row],
    external: snapshot.external[row],
    ...Object.fromEntries(
      Object.entries(snapshot.text).map(([column, { codes, dictionary }]) => [
        column,
        dictionary.values[codes[row] ?? 0],
      ]),
    ),
    connectors: Array.from(
      snapshot.connectorCodes.subarray(snapshot.connectorStart[row], snapshot.connectorStart[row + 1]),
      (code) => snapshot.connectors.values[code],
    ),
  }));
  const rowsOfConnector = Object.fromEntries(
    snapshot.connectors.values.flatMap((connector, code) => {
      const start = snapshot.connectorRowsStart[code] ?? 0;
      const end = snapshot.connectorRowsStart[code + 1] ?? 0;
      return connector === null || end === start
        ? []
        : [[connector, Array.from(snapshot.connectorRows.subarray(start, end), id)]];
    }),
  );
  // The companies some row is at, in their rank (a patched copy's dictionary also keeps those no row is at any more).
  const { codes, dictionary } = snapshot.text.company_id;
  const used = new Set(codes.subarray(0, snapshot.size));
  const companyOrder = [...used]
    .filter((code) => code !== 0)
    .sort((a, b) => (snapshot.companyRank[a] ?? 0) - (snapshot.companyRank[b] ?? 0))
    .map((code) => dictionary.values[code]);
  return { rows, byName: Array.from(snapshot.byName, id), rowsOfConnector, companyOrder };
}
