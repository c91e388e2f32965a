import {
  EMPTY_STATE,
  FILTER_OPTION_PAGE_SIZE,
  NETWORK_FILTER_FIELDS,
  type TContactsPage,
  type TFilterItem,
  type TNetworkFilters,
  type TProximityExplanation,
  type TReportCards,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { markDirty, onePerson } from '../../graph/dirty.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { connectorOptions, GROWTH_LOCK_CLASS } from './network.repo.ts';
import { mostCountedConnectors } from './network.service.ts';

let ctx: TestContext;
let network: Awaited<ReturnType<typeof buildNetwork>>;
beforeAll(async () => {
  ctx = await createTestContext();
  network = await buildNetwork(ctx);
  await recomputeDirty(ctx.database, network.ws);
});
afterAll(() => ctx.close());

async function query(token: string, filters: TFilterItem[] = [], page = 1, pageSize = 30) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/contacts/query?page=${page}&pageSize=${pageSize}`,
    headers: bearer(token),
    payload: { filters },
  });
  expect(response.statusCode).toBe(200);
  return response.json<TContactsPage>();
}

async function filtersOf(token: string, filters: TFilterItem[] = []) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/contacts/query/filters?companyNamePage=1&personNamePage=1',
    headers: bearer(token),
    payload: { filters },
  });
  expect(response.statusCode).toBe(200);
  return response.json<TNetworkFilters>();
}

describe('POST /contacts/query', () => {
  it('returns every field of a network row, best proximity first', async () => {
    const { rows, pagination } = await query(network.admin.token);
    expect(pagination).toEqual({ page: 1, pageSize: 30, totalPages: 1, totalCount: rows.length });
    expect(rows.map((row) => row.proximity)).toEqual([...rows.map((row) => row.proximity)].sort((a, b) => b - a));
    const met = rows.find((row) => row.email === network.people.met);
    expect(met).toMatchObject({ engagement: 'MET', companyName: expect.any(String) });
    expect(met?.connectors[0]?.connectionSources).toEqual(['GOOGLE_MEETING', 'GOOGLE_MAIL']);
    // The caller is among those who know the prospect, marked so that nobody asks themself.
    expect(met?.connectors.map((connector) => connector.isCurrentUser).sort()).toEqual([false, true]);
    expect(met?.signals.map((signal) => signal.type)).toContain('ALREADY_MET_COLLEAGUE');
    const viaAlly = rows.find((row) => row.email === network.people.viaAlly);
    expect(viaAlly?.clientsConnected).toEqual([
      expect.objectContaining({ tag: 'investor', connectionSources: ['GOOGLE_MEETING'], contactOwner: null }),
    ]);
    const past = rows.find((row) => row.email === network.people.pastClient);
    expect(past?.signals).toEqual([
      expect.objectContaining({
        type: 'PAST_CLIENT',
        metadata: { pastCompanyName: 'Oldco', newCompanyName: expect.any(String) },
      }),
    ]);
  });

  it('pages forwards and from the far end alike, and past the end returns nothing', async () => {
    const everything = (await query(network.admin.token)).rows.map((row) => row.id);
    const pages: string[] = [];
    for (let page = 1; page <= everything.length; page += 1) {
      const { rows, pagination } = await query(network.admin.token, [], page, 1);
      expect(pagination.totalPages).toBe(everything.length);
      pages.push(...rows.map((row) => row.id));
    }
    expect(pages).toEqual(everything);
    const beyond = await query(network.admin.token, [], everything.length + 1, 1);
    expect(beyond.rows).toEqual([]);
  });

  it('treats an empty list as all and EMPTY_STATE as none', async () => {
    const all = await query(network.admin.token, [{ name: 'proximity', values: [] }]);
    const none = await query(network.admin.token, [{ name: 'proximity', values: [EMPTY_STATE] }]);
    expect(all.pagination.totalCount).toBeGreaterThan(0);
    expect(none.pagination).toMatchObject({ totalCount: 0, totalPages: 1 });
  });

  it('shows nothing of another workspace, whatever the filters name', async () => {
    const stranger = await ctx.registerAdmin();
    const metId = (await query(network.admin.token)).rows[0]?.id ?? '';
    const theirs = await query(stranger.token, [{ name: 'personName', values: [metId] }]);
    expect(theirs.rows).toEqual([]);
    const cards = await ctx.app.inject({
      url: '/api/contacts/query/network-report-cards',
      headers: bearer(stranger.token),
    });
    const strangerCards = cards.json<TReportCards>();
    expect(strangerCards.networkRelationships).toEqual({ amount: 0, percentage: 0, trend: Array(31).fill(0) });
    expect(strangerCards.networkCompanies.trend).toEqual(Array(31).fill(0));
    const why = await ctx.app.inject({
      url: `/api/contacts/query/proximity-explanation?prospectId=${metId}`,
      headers: bearer(stranger.token),
    });
    expect(why.statusCode).toBe(404);
    expect(why.json()).toEqual({ code: 'NOT_FOUND', message: 'Prospect not found' });
  });
});

describe('POST /contacts/query/filters', () => {
  it('lists every field with counts that match the rows each option selects', async () => {
    const { filters } = await filtersOf(network.admin.token);
    expect(filters.map((filter) => filter.filterField)).toEqual([...NETWORK_FILTER_FIELDS]);
    for (const filter of filters.filter((f) =>
      ['proximity', 'engagement', 'signal', 'connector', 'companyName'].includes(f.filterField),
    )) {
      for (const option of filter.options) {
        const { pagination, rows } = await query(network.admin.token, [
          { name: filter.filterField, values: [option.key] },
        ]);
        expect(pagination.totalCount, `${filter.filterField}=${option.key}`).toBe(option.count);
        // Counts may come from the summaries; the rows themselves must agree.
        expect(rows.length, `${filter.filterField}=${option.key} rows`).toBe(option.count);
      }
    }
  });

  it('counts a field’s options under the other filters, not its own', async () => {
    const { filters } = await filtersOf(network.admin.token, [
      { name: 'proximity', values: ['Low'] },
      { name: 'engagement', values: ['MET'] },
    ]);
    const proximity = filters.find((filter) => filter.filterField === 'proximity');
    const engagement = filters.find((filter) => filter.filterField === 'engagement');
    // Under engagement=MET alone, the met prospect counts in its own band.
    expect(proximity?.options.reduce((sum, option) => sum + option.count, 0)).toBeGreaterThan(0);
    // Under proximity=Low alone, nobody was met.
    expect(engagement?.options.find((option) => option.key === 'MET')?.count).toBe(0);
  });

  it('searches a field’s options', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query/filters/search?filterField=connector&searchTerm=ally',
      headers: bearer(network.admin.token),
      payload: { filters: [] },
    });
    expect(response.json<{ options: { tag: string }[] }>().options).toEqual([
      expect.objectContaining({ tag: 'investor' }),
    ]);
  });
});

describe('the allies filter of a team with many allies', () => {
  it('lists those with the most prospects, one page of them, and its search finds the others', async () => {
    // More mapped allies than a page holds, none of whom knows anybody yet (a CRM's clients just mapped).
    await ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(sql`
        with added as (
          insert into people (workspace_id, full_name, email)
          select ${network.ws}, 'Mapped ally ' || n, 'mapped-ally-' || n || '@crm.example'
            from generate_series(1, ${FILTER_OPTION_PAGE_SIZE + 10}) n
          returning id, full_name
        )
        insert into clients (workspace_id, person_id, first_name, last_name, source, map_network)
        select ${network.ws}, id, 'Mapped', 'ally', 'csv', true from added`),
    );
    const connector = (await filtersOf(network.admin.token)).filters.find((f) => f.filterField === 'connector');
    expect(connector?.options).toHaveLength(FILTER_OPTION_PAGE_SIZE);
    expect(connector?.hasMore).toBe(true);
    const counts = connector?.options.map((option) => option.count) ?? [];
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // The allies who reach somebody come before those who reach nobody.
    expect(connector?.options[0]?.count).toBeGreaterThan(0);

    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/contacts/query/filters/search?filterField=connector&searchTerm=${encodeURIComponent('Mapped ally 60')}`,
      headers: bearer(network.admin.token),
      payload: { filters: [] },
    });
    expect(response.json<{ options: { name: string }[] }>().options.map((option) => option.name)).toEqual([
      'Mapped ally 60',
    ]);
  });
  it("pages the copy's connector counts like PostgreSQL does, looking up only the most counted", async () => {
    await ctx.database.inWorkspace(network.ws, async (tx) => {
      const allies = await tx.execute<{ id: string }>(sql`
        select p.id from people p join clients c on c.workspace_id = p.workspace_id and c.person_id = p.id
         where p.workspace_id = ${network.ws} and p.email like 'mapped-ally-%' order by p.id`);
      // Counted, but no connector now (a client unmapped since the roll-up): at the top, so that the first
      // lookups find too few and must go further.
      const gone = Array.from({ length: 8 }, () => ({ key: crypto.randomUUID(), count: 1000 }));
      // Ties across the first lookups' last count: the page orders them by name, wherever they stood.
      const counts = [...gone, ...allies.rows.map((ally, n) => ({ key: ally.id, count: 10 + (n % 7) }))];
      const everyCount = await connectorOptions(tx, network.ws, counts, null);
      expect(everyCount.filter((option) => option.count > 0)).toHaveLength(FILTER_OPTION_PAGE_SIZE + 1);
      for (const firstLookups of [3, 20, 1000]) {
        expect(await mostCountedConnectors(tx, network.ws, counts, firstLookups)).toEqual(everyCount);
      }
      // Fewer connectors counted than a page: the others follow, by name, as from every count.
      const few = counts.slice(0, 12);
      expect(await mostCountedConnectors(tx, network.ws, few, 3)).toEqual(
        await connectorOptions(tx, network.ws, few, null),
      );
    });
  });
  // The next tests count the workspace's allies.
  afterAll(() =>
    ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(sql`
        with removed as (delete from clients c using people p
                          where p.workspace_id = c.workspace_id and p.id = c.person_id and p.email like 'mapped-ally-%'
                          returning c.person_id)
        delete from people where workspace_id = ${network.ws} and id in (select person_id from removed)`),
    ),
  );
});

describe('the rest of the network page', () => {
  it('reports contacts, connectors and companies with their last 30 days', async () => {
    const response = await ctx.app.inject({
      url: '/api/contacts/query/network-report-cards',
      headers: bearer(network.admin.token),
    });
    const cards = response.json<TReportCards>();
    const { pagination } = await query(network.admin.token);
    expect(cards.networkRelationships.amount).toBe(pagination.totalCount);
    // The admin, the colleague, the mapped ally, and the past client now at another company: a path into it.
    expect(cards.networkConnections.amount).toBe(4);
    for (const card of [cards.networkRelationships, cards.networkConnections, cards.networkCompanies]) {
      expect(card.trend).toHaveLength(31);
      expect(card.trend.at(-1)).toBe(card.amount);
      // Everything was first seen today: nothing 30 days ago, so no growth to speak of (never '+100%').
      expect(card.trend[0]).toBe(0);
      expect(card.percentage).toBe(0);
    }
  });

  it('counts a newly mapped ally among the connectors once the graph has rolled it up, and says it is updating meanwhile', async () => {
    const { ws, admin } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    const cards = async () =>
      (
        await ctx.app.inject({ url: '/api/contacts/query/network-report-cards', headers: bearer(admin.token) })
      ).json<TReportCards>();
    const before = await cards();
    expect(before.updating).toBe(false);
    await ctx.database.inWorkspace(ws, async (tx) => {
      const added = await tx.execute<{ id: string }>(sql`
        insert into people (workspace_id, full_name, email) values (${ws}, 'New Ally', 'new-ally@crm.example')
        returning id`);
      const personId = added.rows[0]?.id ?? '';
      await tx.execute(sql`
        insert into clients (workspace_id, person_id, first_name, last_name, source, map_network)
        values (${ws}, ${personId}, 'New', 'Ally', 'csv', true)`);
      await markDirty(tx, ws, onePerson(personId));
    });
    const meanwhile = await cards();
    expect(meanwhile).toMatchObject({ updating: true, networkConnections: before.networkConnections });
    await recomputeDirty(ctx.database, ws);
    const after = await cards();
    expect(after.updating).toBe(false);
    expect(after.networkConnections.amount).toBe(before.networkConnections.amount + 1);
    expect(after.networkConnections.trend.at(-1)).toBe(after.networkConnections.amount);
  });

  it('reads the trends of prospects and companies from a cache that lasts an hour, one reader at a time', async () => {
    const cards = async () =>
      (
        await ctx.app.inject({ url: '/api/contacts/query/network-report-cards', headers: bearer(network.admin.token) })
      ).json<TReportCards>();
    const before = await cards();
    const total = before.networkRelationships.amount;
    // Everyone was in fact first seen 40 days ago, but one prospect ten and a half days ago...
    await ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(sql`
        update network_rows set first_seen_at = now() - case when prospect_id = (
            select min(prospect_id::text)::uuid from network_rows where workspace_id = ${network.ws})
          then interval '10 days 12 hours' else interval '40 days' end
         where workspace_id = ${network.ws}`),
    );
    // ...within the hour, the cards still show the trend they had...
    expect((await cards()).networkRelationships).toEqual(before.networkRelationships);
    // ...and once the cached trends are an hour old, they are read again.
    await ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(
        sql`update network_growth set computed_at = now() - interval '2 hours' where workspace_id = ${network.ws}`,
      ),
    );
    // While one page view reads them again, the others show the stored ones rather than read them too.
    await ctx.database.inWorkspace(network.ws, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${GROWTH_LOCK_CLASS}, hashtext(${network.ws}))`);
      expect((await cards()).networkRelationships).toEqual(before.networkRelationships);
    });
    const fresh = await cards();
    // Point 20 is ten days ago: the prospect seen ten and a half days ago counts from there on.
    expect(fresh.networkRelationships.trend).toEqual([
      ...Array.from({ length: 20 }, () => total - 1),
      ...Array.from({ length: 11 }, () => total),
    ]);
    expect(fresh.networkRelationships.percentage).toBe(Math.round((1 / (total - 1)) * 1000) / 10);
    expect(fresh.networkCompanies.trend[0]).toBeGreaterThan(0);
    expect(fresh.networkCompanies.trend.at(-1)).toBe(fresh.networkCompanies.amount);
    // The allies (members and mapped clients) were all created today.
    expect(fresh.networkConnections.trend.slice(0, 30)).toEqual(Array.from({ length: 30 }, () => 0));
  });

  it('explains a proximity by its paths and channels', async () => {
    const met = (await query(network.admin.token)).rows.find((row) => row.email === network.people.met);
    const response = await ctx.app.inject({
      url: `/api/contacts/query/proximity-explanation?prospectId=${met?.id}`,
      headers: bearer(network.admin.token),
    });
    const why = response.json<TProximityExplanation>();
    expect(why.proximity).toBe(met?.proximity);
    expect(why.paths[0]).toMatchObject({
      kind: 'colleague',
      link: met?.proximity,
      trust: null,
      proximity: met?.proximity,
    });
    expect(why.paths[0]?.channels.map((channel) => channel.source)).toEqual(['GOOGLE_MEETING', 'GOOGLE_MAIL']);
    expect(why.paths[0]?.channels[0]?.detail).toBe('3 meetings together');
    // Strongest first, each adding what it closes of the rest: the parts add up to each path's link.
    for (const path of why.paths) {
      expect(path.channels.reduce((sum, channel) => sum + channel.added, 0)).toBe(path.link);
      expect(path.proximity).toBe(path.trust === null ? path.link : Math.round(path.link * path.trust));
    }
    expect(why.paths[0]?.channels[0]?.added).toBe(why.paths[0]?.channels[0]?.alone);
    // The caller knows the prospect too: their own path is marked, so that it is drawn from them.
    const colleagues = why.paths.filter((path) => path.kind === 'colleague');
    expect(colleagues.map((path) => path.isCurrentUser).sort()).toEqual([false, true]);
  });

  it('exports the filtered table as CSV with formulas defused', async () => {
    await ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(
        sql`update people set full_name = '=HYPERLINK("evil")', title = '@risky' where workspace_id = ${network.ws} and email = ${network.people.met}`,
      ),
    );
    await ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(
        sql`insert into graph_dirty (workspace_id, person_id) select workspace_id, id from people where workspace_id = ${network.ws} and email = ${network.people.met}`,
      ),
    );
    await recomputeDirty(ctx.database, network.ws);
    // A connector's name with what quoting in SQL, in the export's name map and in CSV has to survive.
    const lastName = `O'Brien "Q" \\ => x`;
    await ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(
        sql`update users set last_name = ${lastName} where workspace_id = ${network.ws} and id = ${network.admin.me.id}`,
      ),
    );
    const met = (await query(network.admin.token)).rows.find((row) => row.email === network.people.met);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query/export-csv',
      headers: bearer(network.admin.token),
      payload: { filters: [{ name: 'personName', values: [met?.id ?? ''] }] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="warmpath-export-.*\.csv"/);
    const lines = response.body.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'Name,Email,LinkedIn URL,Job title,Department,Company,Company size,Industry,Engagement,Proximity,Proximity band,Allies,Signals',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""evil"")",${network.people.met},,'@risky`);
    expect(lines[1]).toContain('Met');
    // The allies column names the member who met them, as written.
    expect(lines[1]).toContain(`"${network.admin.me.firstName} ${lastName.replaceAll('"', '""')}; Test member"`);
  });

  it('exports a member whose name reads like a parameter ($1) as written', async () => {
    await ctx.database.inWorkspace(network.ws, (tx) =>
      tx.execute(
        sql`update users set first_name = 'Vic$1', last_name = '$2$' where workspace_id = ${network.ws} and id = ${network.admin.me.id}`,
      ),
    );
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query/export-csv',
      headers: bearer(network.admin.token),
      payload: {
        filters: [
          { name: 'industry', values: ['$1'] },
          { name: 'proximity', values: [] },
        ],
      },
    });
    const everything = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query/export-csv',
      headers: bearer(network.admin.token),
      payload: { filters: [] },
    });
    expect(response.statusCode).toBe(200);
    expect(everything.statusCode).toBe(200);
    expect(everything.body).toContain('Vic$1 $2$');
  });

  it('exports with filter values taken as values, never as SQL', async () => {
    const hostile = [`x'); drop table people; --`, `a"b\\c`, '$1'];
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query/export-csv',
      headers: bearer(network.admin.token),
      payload: { filters: [{ name: 'industry', values: hostile }] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body.trimEnd().split('\n')).toHaveLength(1);
    expect((await query(network.admin.token)).rows.length).toBeGreaterThan(0);
  });
});
