import { createHash, randomUUID } from 'node:crypto';
import { COMPANY_SIZES, JOB_DEPARTMENTS, type Role, SENIORITIES } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.ts';
import type { EventsDeps } from '../events/record.ts';
import { recommendActions } from '../features/actions/engine.ts';
import { connectionBatches } from '../features/sources/linkedin/connections-csv.ts';
import { Rejections } from '../features/sources/linkedin/export-rows.ts';
import { mergeConnections, mergePositions } from '../features/sources/linkedin/linkedin.repo.ts';
import { parsePositionsCsv } from '../features/sources/linkedin/positions-csv.ts';
import { type TrackedEvent, writeTrackedEvents } from '../features/tracking/ingest.repo.ts';
import { insertUser, setOnboarding } from '../features/users/users.repo.ts';
import { type RecomputeReport, recomputeAll, recomputeDirty } from '../graph/graph.service.ts';
import { deriveMailEmployments } from '../graph/mail-employments.ts';
import { csvLine } from '../lib/csv-write.ts';
import { seedWorkflows } from './seed-workflows.ts';
import {
  ALLY_TAG_SLOTS,
  CONSUMER_INDUSTRIES,
  COUNTRY_SLOTS,
  DEPARTMENT_SLOTS,
  FIRST_NAMES,
  INDUSTRY_SLOTS,
  LAST_NAMES,
  LOGO_COLOURS,
  NAME_ENDINGS,
  NAME_SECTORS,
  NAME_STEMS,
  SENIORITY_SLOTS,
  TECHNOLOGIES,
  TITLES,
  WEBSITE_PATH_SLOTS,
} from './words.ts';

// The demo-data generator behind `npm run cli -- seed-demo` and the benchmarks. Everything is
// generated in SQL from row numbers through hash functions: the same size gives the same shape, Node
// never holds more than a few hundred ids, and every row has a natural key (a domain, an e-mail, a
// provider id, or an id derived from the row number), so running it again on the same workspace adds
// nothing twice.
//
// Small builds every edge through the real pipeline: raw mail, meetings, LinkedIn connections and
// work histories, then the full recompute from evidence. Medium and large (1M and 10M edges) would
// need tens of millions of raw rows that way, so only a slice of their prospects gets raw evidence
// (for the incremental recompute to work on); the others get edges written directly, with evidence
// columns shaped like the pipeline's. Such an edge has no raw evidence behind it: recomputing its
// prospect from evidence (new mail about them, say) replaces it with what the evidence supports.

export const DEMO_SIZES = ['small', 'medium', 'large'] as const;
export type DemoSize = (typeof DEMO_SIZES)[number];

type SizePlan = {
  companies: number;
  prospects: number;
  /** The seeding user included. */
  members: number;
  allies: number;
  trackedClients: number;
  accounts: number;
  websiteEvents: number;
  /**
   * One prospect in `evidenceStride` gets raw evidence (mail, meetings, LinkedIn) that the real
   * pipeline turns into edges; the others get their edges written directly. 1 means all evidence is raw.
   */
  evidenceStride: number;
  /** Prospects per statement (and transaction) when writing people, employments and edges. */
  chunk: number;
};

const PLANS: Record<DemoSize, SizePlan> = {
  small: {
    companies: 300,
    prospects: 3_000,
    members: 8,
    allies: 30,
    trackedClients: 60,
    accounts: 30,
    websiteEvents: 1_500,
    evidenceStride: 1,
    chunk: 3_000,
  },
  medium: {
    companies: 20_000,
    prospects: 100_000,
    members: 20,
    allies: 200,
    trackedClients: 1_000,
    accounts: 2_000,
    websiteEvents: 30_000,
    evidenceStride: 20,
    chunk: 50_000,
  },
  large: {
    companies: 50_000,
    prospects: 1_000_000,
    members: 50,
    allies: 500,
    trackedClients: 2_000,
    accounts: 5_000,
    websiteEvents: 100_000,
    evidenceStride: 200,
    chunk: 100_000,
  },
};

/** Directly written edges per prospect: 1 to 19 connectors, 10 on average. */
const MAX_DEGREE = 19;
/** Of a prospect's connectors, this share are members; the rest are mapped allies. */
const MEMBER_SHARE = 0.6;
/** Chunks written at once: one per core of the 2-core machines the product targets; each is CPU-bound in PostgreSQL. */
const PARALLEL = 2;
/** The companies members and prospects have worked at before: the largest ones. */
const ALUMNI_COMPANIES = 40;

export type SeedReport = {
  workspaceId: string;
  size: DemoSize;
  created: {
    companies: number;
    people: number;
    members: number;
    allies: number;
    trackedClients: number;
    accounts: number;
    accountAssignees: number;
    employments: number;
    websiteEvents: number;
    interactions: number;
    participants: number;
    linkedinConnections: number;
    edges: number;
  };
  recompute: RecomputeReport;
  /** What the workspace holds afterwards. */
  totals: { edges: number; networkRows: number };
  /** Milliseconds per step, in order. */
  timings: Record<string, number>;
  ms: number;
};

export type SeedOptions = {
  workspaceId: string;
  seedUserId: string;
  size: DemoSize;
  log: (line: string) => void;
  /** Where the agents' pushes and the raised signals go; without it the agents are made, not fired. */
  events?: EventsDeps;
};

/** The tables the seed fills in bulk. */
export const SEEDED_TABLES = [
  'companies',
  'people',
  'users',
  'clients',
  'accounts',
  'account_assignees',
  'employments',
  'website_events',
  'interactions',
  'interaction_participants',
  'linkedin_connections',
  'edges',
  'graph_dirty',
] as const;

// Salts of the hash function, one per independent choice.
const SALT = {
  firstName: 1,
  lastName: 2,
  company: 3,
  department: 4,
  seniority: 5,
  industry: 6,
  country: 7,
  size: 8,
  consumer: 9,
  technologies: 10,
  logo: 11,
  tier: 12,
  owner: 13,
  mails: 14,
  oneWay: 15,
  inbound: 16,
  meetings: 17,
  withAlly: 18,
  ally: 19,
  when: 20,
  colleague: 21,
  linkedin: 22,
  linkedinOther: 23,
  pastCompany: 26,
  stintLength: 27,
  degree: 28,
  memberStart: 29,
  channel: 31,
  count: 32,
  reply: 33,
  alsoLinkedin: 37,
  created: 38,
  account: 39,
  assignee: 40,
  secondAssignee: 41,
  activity: 42,
  visitor: 43,
  companyVisit: 44,
  path: 45,
  tag: 46,
  owned: 47,
  oldCompany: 48,
  source: 49,
  tracked: 50,
  meetingSize: 51,
  recentEnd: 52,
} as const;

/** A whole number written into the statement: sizes and salts only, never input. */
const int = (value: number) => sql.raw(String(Math.trunc(value)));
/** A deterministic pseudo-random integer in [0, 2^31) of an integer expression, independent per salt. */
const hash = (value: SQL, salt: number) => sql`(hashint8extended((${value})::int8, ${int(salt)}) & 2147483647)`;
/** The same, in [0, n). */
const below = (value: SQL, salt: number, n: number) => sql`(${hash(value, salt)} % ${int(Math.max(1, n))})::int`;
/** The same, in [0, 1). */
const unit = (value: SQL, salt: number) => sql`(${hash(value, salt)}::float8 / 2147483648.0::float8)`;
/** A decimal written into the statement (a typed literal, so that PostgreSQL does not infer an integer parameter). */
const real = (value: number) => sql.raw(`${Number(value)}::float8`);
const textList = (list: readonly string[]) => sql`${sql.param([...list])}::text[]`;
const pick = (list: readonly string[], value: SQL, salt: number) =>
  sql`(${textList(list)})[1 + ${below(value, salt, list.length)}]`;
const pickNumber = (list: readonly number[], value: SQL, salt: number) =>
  sql`(${sql.param([...list])}::int[])[1 + ${below(value, salt, list.length)}]`;
const daysAgo = (days: SQL) => sql`(now() - make_interval(secs => (${days}) * 86400.0))`;

const S = NAME_STEMS.length;
const E = NAME_ENDINGS.length;
const W = NAME_SECTORS.length;

/**
 * Company number k's name parts. (k mod S, k div S) is a bijection, and so are the shifts below, so
 * names are distinct for k < S * E * W while neighbouring companies share no part of their name.
 */
function companyParts(k: SQL) {
  const a = sql`(${k} % ${int(S)})`;
  const q = sql`(${k} / ${int(S)})`;
  const b = sql`((${q} + ${a}) % ${int(E)})`;
  const c = sql`((${q} / ${int(E)} + ${a} + ${b}) % ${int(W)})`;
  const repeat = sql`(${k} / ${int(S * E * W)})`;
  const brand = sql`((${textList(NAME_STEMS)})[1 + ${a}] || (${textList(NAME_ENDINGS)})[1 + ${b}])`;
  const sector = sql`(${textList(NAME_SECTORS.map(([word]) => word))})[1 + ${c}]`;
  const sectorIndustry = sql`(${textList(NAME_SECTORS.map(([, industry]) => industry ?? ''))})[1 + ${c}]`;
  return { brand, sector, sectorIndustry, repeat };
}

/** The domain of company number k: `<brand>-<sector>.<workspace seed>.test`, a reserved top-level domain. */
function companyDomain(k: SQL, seed: string) {
  const { brand, sector, repeat } = companyParts(k);
  return sql`lower(${brand} || '-' || ${sector} || case when ${repeat} > 0 then '-' || ${repeat} else '' end || '.' || ${seed} || '.test')`;
}

/** The workspace being seeded, its stable seed (for domains and derived ids) and the size's plan. */
type Demo = { ws: string; seed: string; plan: SizePlan };

/**
 * Seeded company number k as `<alias>(id, domain)`, to join laterally: its domain is computed once per
 * row and looked up on the (workspace, domain) unique index. A plain join on the computed domain is at
 * the mercy of the planner's row estimates: as a nested loop over a scan it computes the domain once
 * per pair of rows, and a CTE of the companies has no index at all.
 */
function companyAt(demo: Demo, alias: string, k: SQL) {
  return sql`lateral (
    select c.id, c.domain from (select ${companyDomain(k, demo.seed)} as domain offset 0) d
      join companies c on c.workspace_id = ${demo.ws} and c.domain = d.domain) ${sql.raw(alias)}`;
}

/**
 * Seeded person number j, for the numbers `g(j)`: names, department and seniority indices, company
 * (skewed: a few large companies employ many people, most employ a few), e-mail and LinkedIn address
 * (whose slug ends in a hash of j, as LinkedIn's do).
 */
function personSource(demo: Demo, numbers: SQL) {
  const j = sql.raw('g.j');
  return sql`(
    select s.j, s.first_name, s.last_name, s.di, s.si, s.ck, c.id as company_id, c.domain,
           lower(s.first_name || '.' || s.last_name || '@' || c.domain) as email,
           'https://www.linkedin.com/in/' || lower(s.first_name || '-' || s.last_name) || '-'
             || left(md5(${demo.ws} || ':' || s.j), 8) as linkedin_url
      from (select g.j,
                   ${pick(FIRST_NAMES, j, SALT.firstName)} as first_name,
                   ${pick(LAST_NAMES, j, SALT.lastName)} as last_name,
                   ${pickNumber(DEPARTMENT_SLOTS, j, SALT.department)} as di,
                   ${pickNumber(SENIORITY_SLOTS, j, SALT.seniority)} as si,
                   floor(${int(demo.plan.companies)} * power(${unit(j, SALT.company)}, 2))::int as ck
              from ${numbers}
            offset 0) s
      cross join ${companyAt(demo, 'c', sql.raw('s.ck'))})`;
}

/** Person numbers from `from` to `to` by `step`, as the `g(j)` personSource reads. */
const series = (from: number, to: number, step = 1) =>
  sql`generate_series(${int(from)}, ${int(to)}, ${int(step)}) as g(j)`;

/**
 * `sp(j, id, company_id, ck, di, title)`: the seeded people that exist for the numbers `g(j)`. Two
 * numbers may give the same name at the same company, hence the same e-mail; the person then belongs
 * to the number that created it (its LinkedIn address says which), so that chunks of numbers never
 * share a person, nor write the same edge from two transactions.
 */
const seededPeopleCte = (demo: Demo, numbers: SQL, where: SQL = sql`true`) => sql`
  sp as materialized (
    select s.j, p.id, p.company_id, s.ck, s.di, p.title
      from ${personSource(demo, numbers)} s
      join people p on p.workspace_id = ${demo.ws} and p.email = s.email and p.linkedin_url = s.linkedin_url
     where ${where}
  )`;

/**
 * Seeded person number j as `<alias>(id, company_id)`, to join laterally: one lookup on the e-mail
 * index per row, where a join of two sets of numbers would rest on the planner's guess of their sizes.
 */
function personAt(demo: Demo, alias: string, j: SQL) {
  return sql`lateral (
    select p.id, p.company_id, p.email from ${personSource(demo, sql`(select ${j} as j) as g(j)`)} s
      join people p on p.workspace_id = ${demo.ws} and p.email = s.email and p.linkedin_url = s.linkedin_url
  ) ${sql.raw(alias)}`;
}

const departmentList = () => textList(JOB_DEPARTMENTS);

function titleOf(di: SQL, si: SQL) {
  const titles = JOB_DEPARTMENTS.map((department) => TITLES[department]);
  const cLevel = textList(titles.map(([title]) => title));
  const manager = textList(titles.map(([, title]) => title));
  const role = textList(titles.map(([, , title]) => title));
  return sql`case ${si} when 0 then (${cLevel})[1 + ${di}] when 1 then (${manager})[1 + ${di}]
                        when 3 then 'Senior ' || (${role})[1 + ${di}] when 4 then 'Junior ' || (${role})[1 + ${di}]
                        else (${role})[1 + ${di}] end`;
}

/** Prospect warmth, 0-99: below 55 cold (LinkedIn at most, the odd cold e-mail), below 85 warm, else hot. */
const tierOf = (j: SQL) => below(j, SALT.tier, 100);
const COLD = 55;
const WARM = 85;

const rows = (result: { rowCount: number | null }) => result.rowCount ?? 0;
const fmt = (value: number) => value.toLocaleString('en-US');

export async function seedDemo(database: Database, options: SeedOptions): Promise<SeedReport> {
  const { workspaceId: ws, seedUserId, size, log } = options;
  const plan = PLANS[size];
  // Stable per workspace: re-running derives the same domains, e-mails and ids.
  const seed = `w${ws.replace(/-/g, '').slice(0, 6)}`;
  const started = performance.now();
  const timings: Record<string, number> = {};
  const created: SeedReport['created'] = {
    companies: 0,
    people: 0,
    members: 0,
    allies: 0,
    trackedClients: 0,
    accounts: 0,
    accountAssignees: 0,
    employments: 0,
    websiteEvents: 0,
    interactions: 0,
    participants: 0,
    linkedinConnections: 0,
    edges: 0,
  };

  async function step<T>(name: string, work: () => Promise<T>) {
    const begun = performance.now();
    const result = await work();
    timings[name] = Math.round(performance.now() - begun);
    log(`seed: ${name} done in ${(timings[name] / 1000).toFixed(1)} s`);
    return result;
  }

  /** One transaction of the seed: demo data can be replayed, so commits need not wait for the disk. */
  const write = <T>(work: (tx: Tx) => Promise<T>) =>
    database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      await tx.execute(sql`set local work_mem = '128MB'`);
      return work(tx);
    });

  /**
   * Runs `work` over [0, prospects) in chunks, one transaction each, `parallel` at a time, logging
   * progress. Work that may insert the same unique key from two chunks (people's e-mails) must run
   * one chunk at a time: two transactions waiting on each other's keys would deadlock.
   */
  async function chunked(
    label: string,
    total: number,
    parallel: number,
    work: (tx: Tx, from: number, to: number) => Promise<number>,
  ) {
    const starts = Array.from({ length: Math.ceil(plan.prospects / plan.chunk) }, (_, index) => index * plan.chunk);
    let done = 0;
    const worker = async () => {
      for (let from = starts.shift(); from !== undefined; from = starts.shift()) {
        const to = Math.min(plan.prospects, from + plan.chunk) - 1;
        const written = await write((tx) => work(tx, from, to));
        done += written;
        if (plan.prospects > plan.chunk) log(`seed: ${label} ${fmt(done)} / ${fmt(total)}`);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return done;
  }

  const demo: Demo = { ws, seed, plan };
  const edgesBefore = (await countGraph(database, ws)).edges;

  created.companies = await step('companies', () => write(async (tx) => rows(await insertCompanies(tx, demo))));
  created.people = await step('people', () =>
    chunked('people', plan.prospects, 1, async (tx, from, to) => rows(await insertPeople(tx, demo, from, to))),
  );
  // The statements below look people up by e-mail: on a million people just written, without fresh
  // statistics the first of them can take minutes instead of seconds.
  await step('analyze people', () => database.analyze(['companies', 'people']));
  const members = await step('members', () => ensureMembers(database, demo, seedUserId, created));
  const memberUsers = members.map((member) => member.userId);
  const memberPeople = members.map((member) => member.personId);

  await step('clients', () =>
    write(async (tx) => {
      created.allies = rows(await insertAllies(tx, demo, memberUsers));
      created.trackedClients = rows(await insertTrackedClients(tx, demo));
    }),
  );
  const allyPeople = await database.inWorkspace(ws, async (tx) => {
    const result = await tx.execute<{ person_id: string }>(sql`
      with ${seededPeopleCte(demo, series(0, allyStride(plan) * (plan.allies - 1), allyStride(plan)))}
      select c.person_id from clients c join sp on sp.id = c.person_id
       where c.workspace_id = ${ws} and c.map_network order by sp.j`);
    return result.rows.map((row) => row.person_id);
  });

  await step('accounts', () =>
    write(async (tx) => {
      const result = await insertAccounts(tx, demo, memberUsers);
      created.accounts = result.accounts;
      created.accountAssignees = result.assignees;
    }),
  );
  // Members' own histories, as their Positions.csv uploads give them. The prospects' employments come
  // later, as a real team's do: from the addresses of the generated mail and from the LinkedIn exports.
  // The upload marks everyone at those companies for the graph job; in a demo larger than its evidence
  // slice, only the slice stays marked (after the stints from mail, below).
  created.employments = await step('members positions', () => write((tx) => importMemberPositions(tx, demo, members)));
  created.websiteEvents = await step('website events', () => write((tx) => insertWebsiteEvents(tx, demo)));

  await step('raw evidence', () =>
    write(async (tx) => {
      const context = { demo, memberUsers, memberPeople, allyPeople };
      const interactions = await insertInteractions(tx, context);
      const bulk = await insertBulkThreads(tx, context);
      created.interactions = interactions.interactions + bulk.interactions;
      created.participants = interactions.participants + bulk.participants;
      created.linkedinConnections = rows(await insertLinkedinConnections(tx, context));
      if (plan.evidenceStride > 1) {
        // Only the evidence slice goes through the pipeline: marking everyone would rebuild the
        // directly written edges from evidence that does not back them, and drop them.
        await tx.execute(sql`
          with ${sliceCte(demo)}
          insert into graph_dirty (workspace_id, person_id) select ${ws}::uuid, id from sp
          on conflict (workspace_id, person_id) do update set marked_at = now()`);
      }
    }),
  );

  if (plan.evidenceStride > 1) {
    const expected = Math.round(plan.prospects * 10);
    await step('edges', () =>
      chunked('edges', expected, PARALLEL, async (tx, from, to) =>
        rows(await insertEdges(tx, { demo, memberPeople, allyPeople }, from, to)),
      ),
    );
  }

  // After the raw evidence, whose bulk LinkedIn connections would otherwise meet these ones; before the
  // stints the mail proves, which would otherwise place a moved client at their new company before the
  // older export says where they were.
  await step('job changes', () => write((tx) => importClientMoves(tx, demo, seedUserId)));
  created.employments += await step('employments from mail', () =>
    write(async (tx) => {
      const derived = await deriveMailEmployments(tx, ws);
      // Marked for the graph job by the uploads and the stints: the people at those companies. Only the
      // evidence slice may be rebuilt from evidence (see 'raw evidence'); the others' edges were written
      // directly, and rebuilding them from evidence that does not back them would drop them.
      if (plan.evidenceStride > 1) {
        await tx.execute(sql`
          with ${sliceCte(demo)}
          delete from graph_dirty d where d.workspace_id = ${ws} and not exists (select 1 from sp where sp.id = d.person_id)`);
      }
      return derived;
    }),
  );

  // Without it the recompute right after the bulk load plans on the statistics of nearly empty tables.
  await step('analyze', () => database.analyze(SEEDED_TABLES));

  const recompute = await step('recompute', async () => {
    if (plan.evidenceStride === 1) return recomputeAll(database, ws, { fromEvidence: true });
    const incremental = await recomputeDirty(database, ws);
    log(`seed: incremental recompute of the evidence slice done in ${(incremental.ms / 1000).toFixed(1)} s`);
    const full = await recomputeAll(database, ws);
    return { ...full, people: incremental.people, edges: incremental.edges, ms: incremental.ms + full.ms };
  });

  // Today's run of the workspace, as the daily schedule makes it, so the demo opens on a filled
  // actions page and the schedule does not run it again later today (changing the lists mid-visit).
  await step('recommendations', async () => {
    const run = await recommendActions(database, ws);
    const mine = run.users.find((user) => user.userId === seedUserId);
    log(`seed: ${(mine?.kept ?? 0) + (mine?.alreadyToday ?? 0)} actions recommended today to the seeded user`);
  });

  await step('workflows', async () => {
    const visitors = await seedWorkflows(database, ws, seedUserId, options.events);
    log(`seed: workflow agents made; ${visitors} pricing-page visits this morning fired them`);
  });

  const totals = await countGraph(database, ws);
  created.edges = totals.edges - edgesBefore;

  const ms = Math.round(performance.now() - started);
  log(
    `seed: ${size} done in ${(ms / 1000).toFixed(1)} s: ${fmt(totals.edges)} edges, ${fmt(totals.networkRows)} network rows`,
  );
  return { workspaceId: ws, size, created, recompute, totals, timings, ms };
}

async function countGraph(database: Database, ws: string) {
  const result = await database.inWorkspace(ws, (tx) =>
    tx.execute<{ edges: number; network_rows: number }>(sql`
      select (select count(*) from edges where workspace_id = ${ws})::int as edges,
             (select count(*) from network_rows where workspace_id = ${ws})::int as network_rows`),
  );
  const row = result.rows[0];
  return { edges: row?.edges ?? 0, networkRows: row?.network_rows ?? 0 };
}

function insertCompanies(tx: Tx, demo: Demo) {
  const { ws, seed, plan } = demo;
  const k = sql.raw('g.k');
  const { brand, sector, sectorIndustry, repeat } = companyParts(k);
  // Lower numbers are the larger companies (people are spread towards them), with some noise.
  const sizeIndex = sql`least(7, greatest(0, floor(0.8 * ln(${int(plan.companies)}::float8 / (${k} + 1)) / ln(2)
                          + ${below(k, SALT.size, 3)} - 0.5)))::int`;
  const initials = sql`upper(left(${brand}, 1) || left(${sector}, 1))`;
  const logo = sql`${"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 40'%3E%3Crect width='40' height='40' rx='8' fill='%23"}
    || ${pick(LOGO_COLOURS, k, SALT.logo)}
    || ${"'/%3E%3Ctext x='20' y='26' font-family='Arial' font-size='15' font-weight='bold' text-anchor='middle' fill='white'%3E"}
    || ${initials} || '%3C/text%3E%3C/svg%3E'`;
  return tx.execute(sql`
    insert into companies (workspace_id, domain, name, name_source, logo_url, size_bucket, industry, type, country, technologies)
    select ${ws}::uuid, domain, name, 'list', logo_url, size_bucket, industry,
           case when ${below(sql.raw('c.k'), SALT.consumer, 10)}
                     < case when industry = any(${textList(CONSUMER_INDUSTRIES)}) then 7 else 1 end
                then 'BtoC' else 'BtoB' end,
           country, technologies
      from (select g.k, ${companyDomain(k, seed)} as domain,
                   ${brand} || ' ' || ${sector} || case when ${repeat} > 0 then ' ' || (${repeat} + 1) else '' end as name,
                   case when ${below(k, SALT.logo, 10)} < 6 then ${logo} end as logo_url,
                   (${textList(COMPANY_SIZES)})[1 + ${sizeIndex}] as size_bucket,
                   coalesce(nullif(${sectorIndustry}, ''), ${pick(INDUSTRY_SLOTS, k, SALT.industry)}) as industry,
                   ${pick(COUNTRY_SLOTS, k, SALT.country)} as country,
                   array(select distinct (${textList(TECHNOLOGIES)})[1 + ${below(sql`g.k * 8 + t`, SALT.technologies, TECHNOLOGIES.length)}]
                           from generate_series(1, 2 + ${below(k, SALT.technologies, 5)}) as t order by 1) as technologies
              from generate_series(0, ${int(plan.companies - 1)}) as g(k)) c
    on conflict (workspace_id, domain) do nothing`);
}

function insertPeople(tx: Tx, demo: Demo, from: number, to: number) {
  const { ws } = demo;
  const j = sql.raw('s.j');
  return tx.execute(sql`
    insert into people (workspace_id, full_name, email, linkedin_url, title, department, seniority, company_id, created_at)
    select ${ws}::uuid, s.first_name || ' ' || s.last_name, s.email, s.linkedin_url,
           ${titleOf(sql.raw('s.di'), sql.raw('s.si'))}, (${departmentList()})[1 + s.di],
           (${textList(SENIORITIES)})[1 + s.si], s.company_id, ${daysAgo(below(j, SALT.created, 720))}
      from ${personSource(demo, series(from, to))} s
    on conflict do nothing`);
}

type Member = { userId: string; personId: string };

/** The seeding user first, then demo colleagues: mostly members, a few admins and viewers. */
async function ensureMembers(
  database: Database,
  demo: Demo,
  seedUserId: string,
  created: SeedReport['created'],
): Promise<Member[]> {
  const { ws, plan } = demo;
  return database.inWorkspace(ws, async (tx) => {
    const seedUser = await tx.execute<{ email: string; domains: string[] }>(sql`
      select u.email, w.domains from users u join workspaces w on w.id = u.workspace_id
       where u.workspace_id = ${ws} and u.id = ${seedUserId}`);
    const owner = seedUser.rows[0];
    if (!owner) throw new Error(`No user ${seedUserId} in workspace ${ws}`);
    const domain = owner.domains[0] ?? owner.email.slice(owner.email.lastIndexOf('@') + 1);
    const wanted = Array.from({ length: plan.members - 1 }, (_, index) => {
      const i = index + 1;
      const firstName = FIRST_NAMES[(i * 37) % FIRST_NAMES.length] ?? 'Demo';
      const lastName = LAST_NAMES[(i * 53) % LAST_NAMES.length] ?? 'Member';
      const role: Role = i % 20 === 1 ? 'admin' : i % 5 === 0 ? 'viewer' : 'member';
      return { firstName, lastName, role, email: `${firstName}.${lastName}@${domain}`.toLowerCase() };
    });
    const existing = await tx.execute<{ email: string }>(sql`
      select email from users where workspace_id = ${ws} and email = any(${sql.param(wanted.map((w) => w.email))}::text[])`);
    const have = new Set(existing.rows.map((row) => row.email));
    for (const member of wanted.filter((w) => !have.has(w.email))) {
      const userId = await insertUser(tx, { workspaceId: ws, idpSubject: `demo|${randomUUID()}`, ...member });
      await setOnboarding(tx, ws, userId, { onboardingStep: 'ACCOUNTS_IMPORT_DONE', hasCompletedOnboarding: true });
      created.members++;
    }
    const emails = [owner.email, ...wanted.map((w) => w.email)].map((email) => email.toLowerCase());
    // Members sell: their own person records say so, which the connector cards show.
    await tx.execute(sql`
      update people p set department = case when m.n % 4 = 3 then 'Marketing' else 'Sales' end,
                          title = case when m.n = 1 then 'Head of Sales' when m.n % 4 = 3 then 'Marketing Manager'
                                       else 'Account Executive' end
        from unnest(${sql.param(emails)}::text[]) with ordinality as m(email, n)
       where p.workspace_id = ${ws} and p.email = m.email and p.title is null`);
    const found = await tx.execute<{ user_id: string; person_id: string }>(sql`
      select u.id as user_id, p.id as person_id
        from unnest(${sql.param(emails)}::text[]) with ordinality as m(email, n)
        join users u on u.workspace_id = ${ws} and lower(u.email) = m.email
        join people p on p.workspace_id = ${ws} and p.email = m.email
       order by m.n`);
    return found.rows.map((row) => ({ userId: row.user_id, personId: row.person_id }));
  });
}

/** Allies are even-numbered people spread over the prospects; tracked clients odd-numbered ones. */
function allyStride(plan: SizePlan) {
  return Math.max(1, Math.floor(plan.prospects / plan.allies / 2)) * 2;
}
function trackedStride(plan: SizePlan) {
  return Math.max(1, Math.floor(plan.prospects / plan.trackedClients / 2)) * 2;
}

/**
 * The prospects whose edges come from raw evidence: j = offset, offset + stride, ... The offset keeps
 * allies (multiples of an even stride) and tracked clients (odd numbers) out of a partial slice, so
 * recomputing the slice never reaches the whole network through an ally.
 */
function evidenceSlice(plan: SizePlan) {
  const stride = plan.evidenceStride;
  const offset = stride > 1 ? Math.floor(stride / 2) : 0;
  return { stride, offset, count: Math.ceil((plan.prospects - offset) / stride) };
}
const sliceCte = (demo: Demo) => {
  const slice = evidenceSlice(demo.plan);
  return seededPeopleCte(demo, series(slice.offset, demo.plan.prospects - 1, slice.stride));
};

function insertAllies(tx: Tx, demo: Demo, memberUsers: string[]) {
  const { ws, plan } = demo;
  const j = sql.raw('sp.j');
  const stride = allyStride(plan);
  return tx.execute(sql`
    with ${seededPeopleCte(demo, series(0, stride * (plan.allies - 1), stride))}
    insert into clients (workspace_id, person_id, tag, contact_owner_user_id, source, map_network, track_job_changes,
                         company_id_at_import)
    select ${ws}::uuid, sp.id, ${pick(ALLY_TAG_SLOTS, j, SALT.tag)},
           case when ${below(j, SALT.owned, 10)} < 4
                then (${sql.param(memberUsers)}::uuid[])[1 + floor(${int(memberUsers.length)} * power(${unit(j, SALT.owner)}, 1.5))::int] end,
           case when ${below(j, SALT.source, 3)} = 0 then 'csv' else 'manual' end,
           true, ${below(j, SALT.tracked, 10)} < 3, sp.company_id
      from sp
    on conflict (workspace_id, person_id) do nothing`);
}

/** Clients tracked for job changes; one in four has since moved on from the company they were recorded at. */
function insertTrackedClients(tx: Tx, demo: Demo) {
  const { ws, plan } = demo;
  const j = sql.raw('sp.j');
  const stride = trackedStride(plan);
  return tx.execute(sql`
    with ${seededPeopleCte(demo, series(1, 1 + stride * (plan.trackedClients - 1), stride))},
    moved as (
      select sp.j, sp.id, case when sp.j / ${int(stride)} % 4 = 0 then old.id else sp.company_id end as at_import
        from sp
        cross join ${companyAt(demo, 'old', sql`(sp.ck + 1 + ${below(j, SALT.oldCompany, 50)}) % ${int(plan.companies)}`)}
    )
    insert into clients (workspace_id, person_id, source, map_network, track_job_changes, company_id_at_import)
    select ${ws}::uuid, moved.id, case when ${below(sql.raw('moved.j'), SALT.source, 2)} = 0 then 'crm' else 'csv' end,
           false, true, moved.at_import
      from moved
    on conflict (workspace_id, person_id) do nothing`);
}

async function insertAccounts(tx: Tx, demo: Demo, memberUsers: string[]) {
  const { ws, seed, plan } = demo;
  const k = sql.raw('c.k');
  const every = Math.max(1, Math.round(plan.companies / plan.accounts));
  const members = sql`(${sql.param(memberUsers)}::uuid[])`;
  const m = memberUsers.length;
  const accounts = await tx.execute(sql`
    insert into accounts (workspace_id, company_id, last_activity_at)
    select ${ws}::uuid, c.id, case when ${below(k, SALT.activity, 3)} > 0 then ${daysAgo(below(k, SALT.activity, 90))} end
      from (select g.k, c.id from generate_series(0, ${int(plan.companies - 1)}) as g(k)
              cross join ${companyAt(demo, 'c', sql.raw('g.k'))}
             where ${below(sql.raw('g.k'), SALT.account, every)} = 0) c
    on conflict (workspace_id, company_id) do nothing`);
  // The seeding user (members[1]) holds about a third of the accounts; a third have a second assignee.
  const assignees = await tx.execute(sql`
    with numbered as (
      select a.id, row_number() over (order by c.domain) as k
        from accounts a join companies c on c.workspace_id = a.workspace_id and c.id = a.company_id
       where a.workspace_id = ${ws} and c.domain like ${`%.${seed}.test`}
    ), chosen as (
      select id, k, floor(${int(m)} * power(${unit(sql.raw('k'), SALT.assignee)}, 2))::int as first from numbered
    )
    insert into account_assignees (workspace_id, account_id, user_id)
    select ${ws}::uuid, id, ${members}[1 + first] from chosen
    union
    select ${ws}::uuid, id, ${members}[1 + (first + 1 + ${below(sql.raw('k'), SALT.secondAssignee, Math.max(1, m - 1))}) % ${int(m)}]
      from chosen where ${int(m)} > 1 and ${below(sql.raw('k'), SALT.secondAssignee, 3)} = 0
    on conflict do nothing`);
  return { accounts: rows(accounts), assignees: rows(assignees) };
}

/**
 * Each member's own history as a member who uploads LinkedIn's `Positions.csv` gives it: two past
 * positions at the larger companies, from 2011. One member in three left their last one in the past
 * year and a half, while the team already wrote to people there: the overlap a real team's mail and a
 * new colleague's file can prove (prospects' starts are unknown; they count from the first mail). The file is
 * written and read by the upload's own code (parsePositionsCsv, mergePositions), so the demo's
 * members have exactly what a real member's file gives: months, companies matched by name.
 */
async function importMemberPositions(tx: Tx, demo: Demo, members: Member[]) {
  const { ws, plan } = demo;
  const key = sql.raw('(m.n * 2 + s)');
  const stints = await tx.execute<{
    user_id: string;
    company: string;
    title: string | null;
    started_on: string;
    finished_on: string;
  }>(sql`
    select m.user_id, named.name as company, p.title, x.started_on::text as started_on,
           (x.started_on + x.days)::text as finished_on
      from unnest(${sql.param(members.map((member) => member.userId))}::uuid[],
                  ${sql.param(members.map((member) => member.personId))}::uuid[]) with ordinality as m(user_id, person_id, n)
      cross join generate_series(0, 1) as s
      join people p on p.workspace_id = ${ws} and p.id = m.person_id
      cross join lateral (select 540 + ${below(key, SALT.stintLength, 1460)} as days) d
      -- One member in three joined the team in the last year and a half: their last job ended then.
      cross join lateral (select case when s = 1 and m.n % 3 = 0
                                      then current_date - (60 + ${below(key, SALT.recentEnd, 480)}) - d.days
                                      else date '2011-01-01' + ${below(key, SALT.memberStart, 3300)} end as started_on,
                                 d.days,
                                 floor(${int(Math.min(ALUMNI_COMPANIES, plan.companies))} * power(${unit(key, SALT.pastCompany)}, 1.3))::int as ck) x
      cross join ${companyAt(demo, 'co', sql.raw('x.ck'))}
      join companies named on named.workspace_id = ${ws} and named.id = co.id
     order by m.n, s`);
  // LinkedIn writes months: 'Mar 2019'.
  const month = (date: string) =>
    new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  // A replayed seed adds nothing: a member whose file was read already is left as it is.
  const uploaded = await tx.execute<{ person_id: string }>(sql`
    select distinct person_id from employments
     where workspace_id = ${ws} and source = 'linkedin'
       and person_id = any(${sql.param(members.map((member) => member.personId))}::uuid[])`);
  const done = new Set(uploaded.rows.map((row) => row.person_id));
  let imported = 0;
  for (const member of members.filter((candidate) => !done.has(candidate.personId))) {
    const file = [
      csvLine(['Company Name', 'Title', 'Description', 'Location', 'Started On', 'Finished On']),
      ...stints.rows
        .filter((stint) => stint.user_id === member.userId)
        .map((stint) =>
          csvLine([stint.company, stint.title, null, null, month(stint.started_on), month(stint.finished_on)]),
        ),
    ].join('');
    imported += await mergePositions(tx, ws, member.userId, await parsePositionsCsv(file, new Rejections()));
  }
  return imported;
}

/**
 * The tracked clients who moved on, as the seeding member's LinkedIn exports show them: an earlier
 * `Connections.csv` at the company they were recorded at, a newer one where they work now. Both files
 * are written and read by the upload's own code (connectionBatches, mergeConnections), so the Job changes
 * page lists what a team whose member uploads a newer export gets: each change, its source and its
 * confidence. Returns the connections merged.
 */
async function importClientMoves(tx: Tx, demo: Demo, userId: string) {
  const { ws } = demo;
  const moved = await tx.execute<{
    full_name: string;
    linkedin_url: string;
    before: string;
    now: string;
    title: string | null;
  }>(sql`
    select p.full_name, p.linkedin_url, was.name as before, co.name as now, p.title
      from clients c
      join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
      join companies was on was.workspace_id = c.workspace_id and was.id = c.company_id_at_import
      join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
     where c.workspace_id = ${ws} and c.track_job_changes and p.linkedin_url is not null
       and c.company_id_at_import <> p.company_id
       -- A replayed seed: the exports were read already (read again, the older one would be a move back).
       and not exists (select 1 from job_changes j where j.workspace_id = ${ws} and j.person_id = p.id)
     order by p.id`);
  const exported = (company: 'before' | 'now', on: string) =>
    [
      'Notes:\r\n"When exporting your connection data, you may notice that some of the email addresses are missing."\r\n\r\n',
      csvLine(['First Name', 'Last Name', 'URL', 'Email Address', 'Company', 'Position', 'Connected On']),
      ...moved.rows.map((row) => {
        const [first = '', ...rest] = row.full_name.split(' ');
        return csvLine([first, rest.join(' '), row.linkedin_url, null, row[company], row.title, on]);
      }),
    ].join('');
  let merged = 0;
  for (const file of [exported('before', '14 Mar 2019'), exported('now', '14 Mar 2019')]) {
    for await (const batch of connectionBatches(file, new Rejections())) {
      merged += (await mergeConnections(tx, ws, userId, batch)).connections;
    }
  }
  return merged;
}

/**
 * Page views of the last 29 days, stored by the tracking ingestion's own writer as a real site's
 * snippet would send them: most from browsers whose visitor identified (a form on the site, as
 * `warmpath.identify` tells, a few people view many pages), one in fifty from a browser nobody
 * identified (which counts for nobody, as in a customer's workspace), about one in eight on the
 * pricing page. Returns how many were stored.
 */
async function insertWebsiteEvents(tx: Tx, demo: Demo) {
  const { ws, seed, plan } = demo;
  // Replayable like the rest of the seed: a workspace whose demo browsers already visited gets none again.
  const seeded = await tx.execute(sql`
    select 1 from website_events where workspace_id = ${ws} and anonymous_id like 'demo%' limit 1`);
  if (seeded.rows.length > 0) return 0;
  const e = sql.raw('g.e');
  const visitor = sql`floor(${int(plan.prospects)} * power(${unit(e, SALT.visitor)}, 4))::int`;
  const visits = await tx.execute<{ e: number; email: string | null; path: string; occurred_at: string }>(sql`
    with visits as (
      select g.e, ${below(e, SALT.companyVisit, 50)} = 0 as anonymous, ${visitor} as j,
             ${pick(WEBSITE_PATH_SLOTS, e, SALT.path)} as path,
             now() - make_interval(secs => ${below(e, SALT.when, 29 * 86_400)}) as occurred_at
        from generate_series(0, ${int(plan.websiteEvents - 1)}) as g(e)
    )
    select v.e, case when v.anonymous then null else p.email end as email, v.path, v.occurred_at::text as occurred_at
      from visits v
      left join ${personAt(demo, 'p', sql.raw('v.j'))} on true
     where p.id is not null
     order by v.occurred_at`);
  // A browser per visitor (and one per anonymous visit): ids as the snippet makes them, derived from the seed.
  const browserOf = (key: string) =>
    `demo${createHash('sha256').update(`${seed}:${key}`).digest('base64url').slice(0, 18)}`;
  const identified = new Set<string>();
  const events: TrackedEvent[] = [];
  for (const visit of visits.rows) {
    const occurredAt = new Date(visit.occurred_at);
    const anonymousId = browserOf(visit.email ?? `anonymous:${visit.e}`);
    if (visit.email && !identified.has(visit.email)) {
      identified.add(visit.email);
      events.push({ type: 'identify', anonymousId, email: visit.email, occurredAt });
    }
    events.push({ type: 'page', anonymousId, path: visit.path, referrer: null, personId: null, occurredAt });
  }
  await writeTrackedEvents(tx, ws, events);
  return events.filter((event) => event.type === 'page').length;
}

type EvidenceContext = {
  demo: Demo;
  memberUsers: string[];
  memberPeople: string[];
  allyPeople: string[];
};

/** The evidence slice's prospects with their warmth and the member who knows them best. */
function slicedProspects(context: EvidenceContext) {
  const { demo, memberUsers } = context;
  const j = sql.raw('sp.j');
  return sql`
    ${sliceCte(demo)},
    prospect as (
      select sp.j, sp.id, sp.title, ${tierOf(j)} as tier,
             floor(${int(memberUsers.length)} * power(${unit(j, SALT.owner)}, 1.8))::int as mi
        from sp
    )`;
}

/**
 * Mail and meetings between members and the evidence slice's prospects, over the last two years:
 * cold prospects get at most a cold e-mail (sometimes an inbound one), warm ones a thread (one in four
 * never answered), hot ones meetings (one-to-one, or with a colleague) and a thread. One prospect in
 * four also meets an ally with a member, or hears from the ally with the member in copy: how the
 * ally's network gets mapped.
 */
async function insertInteractions(tx: Tx, context: EvidenceContext) {
  const { demo, memberUsers, memberPeople, allyPeople } = context;
  const { ws } = demo;
  const m = memberUsers.length;
  const a = allyPeople.length;
  const j = sql.raw('c.j');
  const of = (column: string) => sql.raw(`p.${column}`);
  const mailSlot = sql.raw('(c.j * 32 + n)');
  const meetingSlot = sql.raw('(c.j * 32 + 16 + n)');
  const when = (slot: SQL) => daysAgo(sql`c.min_days + ${unit(slot, SALT.when)} * (c.max_days - c.min_days)`);
  const result = await tx.execute<{ interactions: number; participants: number }>(sql`
    with ${slicedProspects(context)},
    counts as (
      select p.*,
             case when p.tier < ${int(COLD)} then (case when ${below(of('j'), SALT.mails, 10)} < 3 then 1 else 0 end)
                  when p.tier < ${int(WARM)} then 2 + ${below(of('j'), SALT.mails, 8)}
                  else 4 + ${below(of('j'), SALT.mails, 9)} end as mails,
             case when p.tier >= ${int(WARM)} then 2 + ${below(of('j'), SALT.meetings, 6)} else 0 end as meetings,
             p.tier < ${int(COLD)} or ${below(of('j'), SALT.oneWay, 4)} = 0 as one_way,
             ${below(of('j'), SALT.inbound, 5)} = 0 as inbound,
             ${int(a)} > 0 and ${below(of('j'), SALT.withAlly, 4)} = 0 as with_ally,
             case when p.tier < ${int(COLD)} then 120 when p.tier < ${int(WARM)} then 10 else 1 end as min_days,
             case when p.tier < ${int(COLD)} then 730 when p.tier < ${int(WARM)} then 500 else 150 end as max_days
        from prospect p
    ),
    plan as (
      -- who: 'member' (the member writes), 'prospect' (the prospect writes), 'ally' (the ally writes,
      -- the member in copy) or 'meeting'.
      select c.j, c.id as prospect_id, c.mi, 'mail' as kind, 'm' || n as slot,
             case when c.one_way and c.inbound then 'prospect' when c.one_way or n % 2 = 0 then 'member'
                  else 'prospect' end as who,
             null::uuid as ally_id, null::uuid as colleague_id, ${when(mailSlot)} as occurred_at
        from counts c, generate_series(0, c.mails - 1) as n
      union all
      select c.j, c.id, c.mi, 'meeting', 'v' || n, 'meeting', null,
             case when ${int(m)} > 1 and ${below(meetingSlot, SALT.meetingSize, 3)} = 0
                  then (${sql.param(memberPeople)}::uuid[])[1 + (c.mi + 1 + ${below(meetingSlot, SALT.colleague, Math.max(1, m - 1))}) % ${int(m)}] end,
             ${when(meetingSlot)}
        from counts c, generate_series(0, c.meetings - 1) as n
      union all
      select c.j, c.id, c.mi, case when ${below(j, SALT.ally, 2)} = 0 then 'meeting' else 'mail' end, 'a',
             case when ${below(j, SALT.ally, 2)} = 0 then 'meeting' else 'ally' end,
             nullif((${sql.param(allyPeople)}::uuid[])[1 + floor(${int(a)} * power(${unit(j, SALT.ally)}, 1.5))::int], c.id),
             null, ${daysAgo(sql`5 + ${unit(j, SALT.when)} * 400`)}
        from counts c where c.with_ally
    ),
    planned as (
      select plan.*, 'demo-' || plan.j || '-' || plan.slot as external_id,
             (${sql.param(memberUsers)}::uuid[])[1 + plan.mi] as source_user_id,
             (${sql.param(memberPeople)}::uuid[])[1 + plan.mi] as member_id
        from plan
       where plan.who <> 'ally' or plan.ally_id is not null
    ),
    added as (
      insert into interactions (workspace_id, source_user_id, kind, external_id, occurred_at, participant_count)
      select ${ws}::uuid, source_user_id, kind, external_id, occurred_at,
             2 + (ally_id is not null)::int + (colleague_id is not null)::int
        from planned
      on conflict (workspace_id, source_user_id, kind, external_id) do nothing
      returning id, source_user_id, kind, external_id
    ),
    participants as (
      insert into interaction_participants (workspace_id, interaction_id, person_id, role)
      select ${ws}::uuid, added.id, x.person_id, x.role
        from added
        join planned p on p.source_user_id = added.source_user_id and p.kind = added.kind and p.external_id = added.external_id
        cross join lateral (values
          (p.member_id, case p.who when 'meeting' then 'organizer' when 'member' then 'from' when 'ally' then 'cc' else 'to' end),
          (p.prospect_id, case p.who when 'meeting' then 'attendee' when 'prospect' then 'from' else 'to' end),
          (p.ally_id, case p.who when 'meeting' then 'attendee' when 'ally' then 'from' else 'cc' end),
          (p.colleague_id, case p.who when 'meeting' then 'attendee' else 'cc' end)
        ) as x(person_id, role)
       where x.person_id is not null
      on conflict do nothing
      returning 1
    )
    select (select count(*) from added)::int as interactions, (select count(*) from participants)::int as participants`);
  return result.rows[0] ?? { interactions: 0, participants: 0 };
}

/** Newsletters and announcements: one member writing to 25 prospects at once, which says nothing about who knows whom. */
async function insertBulkThreads(tx: Tx, context: EvidenceContext) {
  const { demo, memberUsers, memberPeople } = context;
  const { ws, plan } = demo;
  const slice = evidenceSlice(plan);
  const threads = Math.ceil(slice.count / 20);
  const recipients = 25;
  const result = await tx.execute<{ interactions: number; participants: number }>(sql`
    with ${sliceCte(demo)},
    threads as (
      select g.t, (${sql.param(memberUsers)}::uuid[])[1 + g.t % ${int(memberUsers.length)}] as source_user_id,
             (${sql.param(memberPeople)}::uuid[])[1 + g.t % ${int(memberUsers.length)}] as member_id,
             'demo-bulk-' || g.t as external_id,
             ${daysAgo(sql`${unit(sql.raw('g.t'), SALT.when)} * 700`)} as occurred_at
        from generate_series(0, ${int(threads - 1)}) as g(t)
    ),
    added as (
      insert into interactions (workspace_id, source_user_id, kind, external_id, occurred_at, participant_count)
      select ${ws}::uuid, source_user_id, 'mail', external_id, occurred_at, ${int(recipients + 1)} from threads
      on conflict (workspace_id, source_user_id, kind, external_id) do nothing
      returning id, source_user_id, external_id
    ),
    participants as (
      insert into interaction_participants (workspace_id, interaction_id, person_id, role)
      select ${ws}::uuid, added.id, t.member_id, 'from'
        from added join threads t on t.external_id = added.external_id and t.source_user_id = added.source_user_id
      union all
      select ${ws}::uuid, added.id, sp.id, 'to'
        from added join threads t on t.external_id = added.external_id and t.source_user_id = added.source_user_id
        cross join generate_series(0, ${int(recipients - 1)}) as r
        join sp on sp.j = ${int(slice.offset)} + ((t.t * ${int(recipients)} + r) % ${int(slice.count)}) * ${int(slice.stride)}
      on conflict do nothing
      returning 1
    )
    select (select count(*) from added)::int as interactions, (select count(*) from participants)::int as participants`);
  return result.rows[0] ?? { interactions: 0, participants: 0 };
}

/** LinkedIn first-degree connections of the evidence slice: most cold prospects, half the others, some twice. */
function insertLinkedinConnections(tx: Tx, context: EvidenceContext) {
  const { demo, memberUsers } = context;
  const { ws } = demo;
  const m = memberUsers.length;
  const j = sql.raw('p.j');
  const users = sql`(${sql.param(memberUsers)}::uuid[])`;
  return tx.execute(sql`
    with ${slicedProspects(context)}
    insert into linkedin_connections (workspace_id, user_id, person_id, connected_on, position)
    select ${ws}::uuid, u.user_id, p.id, ${daysAgo(sql`30 + ${unit(j, SALT.linkedin)} * 2500`)}, p.title
      from prospect p
      cross join lateral (
        select ${users}[1 + p.mi] as user_id
         where ${below(j, SALT.linkedin, 100)} < case when p.tier < ${int(COLD)} then 70 else 50 end
        union all
        select ${users}[1 + (p.mi + 1 + ${below(j, SALT.linkedinOther, Math.max(1, m - 1))}) % ${int(m)}]
         where ${int(m)} > 1 and ${below(j, SALT.linkedinOther, 100)} < 30
      ) u
    on conflict do nothing`);
}

type EdgeContext = { demo: Demo; memberPeople: string[]; allyPeople: string[] };

/**
 * Edges written directly for prospects [from, to] outside the evidence slice, with evidence columns
 * shaped like the pipeline's: a prospect's warmth sets which channels its connectors have (cold:
 * LinkedIn and the odd cold e-mail; warm: threads; hot: meetings), counts and
 * recency vary per edge. None claims shared experience: only overlapping employments prove it, and the
 * pipeline finds those for the evidence slice (written here, the explanation would name an overlap no
 * employment backs). Members make up 60% of connectors, allies the rest; each prospect's
 * connectors are a run of consecutive ones from a skewed start, so they are distinct and a few
 * connectors know many people. Each layer of the statement ends in OFFSET 0: otherwise PostgreSQL
 * folds the layers together and evaluates a column's whole expression again at every use. The
 * connector index stays during the load: only the table's owner could drop and rebuild it.
 */
function insertEdges(tx: Tx, context: EdgeContext, from: number, to: number) {
  const { demo, memberPeople, allyPeople } = context;
  const { ws, plan } = demo;
  const m = memberPeople.length;
  const a = allyPeople.length;
  const j = sql.raw('sp.j');
  const e = sql.raw('x.e');
  const hashOf = (salt: number, n: number) => below(e, salt, n);
  return tx.execute(sql`
    with ${seededPeopleCte(demo, series(from, to), sql`s.j % ${int(plan.evidenceStride)} <> ${int(evidenceSlice(plan).offset)}`)},
    degree as (
      select sp.j, sp.id, sp.company_id, ${tierOf(j)} as tier, 1 + ${below(j, SALT.degree, MAX_DEGREE)} as k,
             floor(${int(m)} * power(${unit(j, SALT.owner)}, 2))::int as member_start,
             floor(${int(a)} * power(${unit(j, SALT.ally)}, 2))::int as ally_start
        from sp
    ),
    pairs as (
      select d.*, n, true as colleague, (${sql.param(memberPeople)}::uuid[])[1 + (d.member_start + n) % ${int(m)}] as connector_id
        from degree d, generate_series(0, least(${int(m)}, round(d.k * ${real(MEMBER_SHARE)})::int) - 1) as n
      union all
      select d.*, n, false, (${sql.param(allyPeople)}::uuid[])[1 + (d.ally_start + n) % ${int(Math.max(1, a))}]
        from degree d, generate_series(0, least(${int(a)}, d.k - round(d.k * ${real(MEMBER_SHARE)})::int) - 1) as n
    ),
    x as (
      select pairs.*, e.e, ${below(sql.raw('e.e'), SALT.channel, 100)} as r
        from pairs cross join lateral (select pairs.j * 64 + pairs.n * 2 + (not pairs.colleague)::int as e) e
       where pairs.connector_id <> pairs.id
      offset 0
    ),
    channel as (
      select x.*,
             case when x.colleague then
                    case when x.tier < ${int(COLD)} then case when x.r < 92 then 'linkedin' else 'mail_out' end
                         when x.tier < ${int(WARM)} then case when x.r < 30 then 'linkedin' when x.r < 70 then 'mail_out'
                                                             else 'mail_both' end
                         else case when x.r < 25 then 'linkedin' when x.r < 65 then 'mail_both' else 'meeting' end end
                  else
                    case when x.tier < ${int(COLD)} then case when x.r < 50 then 'mail_in' else 'linkedin' end
                         when x.tier < ${int(WARM)} then case when x.r < 50 then 'linkedin' else 'mail_both' end
                         else case when x.r < 50 then 'mail_both' else 'meeting' end end
                  end as kind,
             case when x.tier < ${int(COLD)} then 120 + ${hashOf(SALT.when, 610)}
                  when x.tier < ${int(WARM)} then 5 + ${hashOf(SALT.when, 400)}
                  else 1 + ${hashOf(SALT.when, 120)} end as days
        from x
      offset 0
    ),
    evidence as (
      select c.*, power(0.5::float8, c.days / 180.0::float8) * 0.75::float8 as decay,
             case when c.kind = 'meeting' then 1 + ${below(sql.raw('c.e'), SALT.count, 8)} else 0 end as meetings,
             case when c.kind = 'mail_out' then 1 + ${below(sql.raw('c.e'), SALT.count, 3)}
                  when c.kind in ('mail_both', 'meeting') then 1 + ${below(sql.raw('c.e'), SALT.count, 12)} else 0 end as sent,
             case when c.kind = 'mail_in' then 1 + ${below(sql.raw('c.e'), SALT.reply, 3)}
                  when c.kind in ('mail_both', 'meeting') then 1 + ${below(sql.raw('c.e'), SALT.reply, 10)} else 0 end as received
        from channel c
      offset 0
    )
    insert into edges (workspace_id, prospect_id, connector_id, meeting_weight, meetings, mails_sent, mails_received,
                       mail_sent_weight, mail_received_weight, linkedin, last_interaction_at, evidence_at, created_at)
    select ${ws}::uuid, v.id, v.connector_id,
           v.meetings * (0.5 + 0.5 * ${unit(sql.raw('v.e'), SALT.meetingSize)}) * v.decay, v.meetings,
           v.sent, v.received, v.sent * v.decay, v.received * v.decay,
           v.kind = 'linkedin' or (v.colleague and v.tier >= ${int(COLD)} and ${below(sql.raw('v.e'), SALT.alsoLinkedin, 2)} = 0),
           case when v.meetings + v.sent + v.received > 0 then ${daysAgo(sql`v.days`)} end,
           now(), ${daysAgo(sql`${below(sql.raw('v.e'), SALT.created, 400)}`)}
      from evidence v
    on conflict do nothing`);
}
