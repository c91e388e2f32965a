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
  SIGNAL_TYPES,
  type TFilterItem,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/harness.ts';
import { rebuildNetworkSummaries } from '../../graph/recompute.ts';
import type { Member } from '../../plugins/auth.ts';
import { insertPersona, saveTargetingScheme } from '../targeting/targeting.repo.ts';
import { queryContacts, queryFilters } from './contacts.service.ts';
import { createNetworkIndex, type NetworkIndex } from './network-index.ts';

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
             n % 4 = 0, (n * 2654435761) % ${1 << SIGNAL_TYPES.length}
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
    seeded = await seedNetwork(member);
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
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`update network_rows set proximity = 100 where workspace_id = ${ws} and proximity < 10`);
      await rebuildNetworkSummaries(tx, ws);
    });
    expect(await current()).toBeNull();
    const high = [{ name: 'proximity' as const, values: ['High'] }];
    const expected = await queryContacts({ database: ctx.database }, member, high, 1, 30);
    // While the copy is rebuilt, PostgreSQL answers: the new rows, never the copy's old ones.
    expect(await queryContacts({ database: ctx.database, networkIndex: index }, member, high, 1, 30)).toEqual(expected);
    await index.settled();
    const rebuilt = await current();
    expect(rebuilt?.version).toBeGreaterThan(before?.version ?? 0);
    expect(await queryContacts({ database: ctx.database, networkIndex: index }, member, high, 1, 30)).toEqual(expected);
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
