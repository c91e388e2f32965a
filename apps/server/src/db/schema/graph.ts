import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { workspaces } from './workspaces.ts';

// The relationship graph (DESIGN.md section 7): the lists teams keep, the extra evidence they bring,
// the edges built from all evidence, and the read model behind the network table.

const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** Who worked where and when: imports, LinkedIn exports and our own inboxes fill it. */
export const employments = pgTable(
  'employments',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    personId: uuid('person_id').notNull(),
    companyId: uuid('company_id').notNull(),
    title: text('title'),
    department: text('department'),
    /** Null when the source does not say (a LinkedIn connection's current company). */
    startedOn: date('started_on'),
    /** Null while the person still works there. */
    endedOn: date('ended_on'),
    /** Where it was learnt: an import, a LinkedIn export, the mail. */
    source: text('source', { enum: ['import', 'linkedin', 'mail', 'manual'] })
      .notNull()
      .default('import'),
    /** When a source first said so: where no start is known, the earliest day it is known true. */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('employments_person_idx').on(t.workspaceId, t.personId),
    index('employments_company_idx').on(t.workspaceId, t.companyId),
  ],
);

/** Spec section 3, "client or ally": a person the team knows, mapped for its network and/or tracked for job changes. */
export const clients = pgTable(
  'clients',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    personId: uuid('person_id').notNull(),
    /** The names as the team recorded them (the person keeps one full name). */
    firstName: text('first_name'),
    lastName: text('last_name'),
    tag: text('tag'),
    /** The member who owns the relationship; an intro through this ally is asked of them. */
    contactOwnerUserId: uuid('contact_owner_user_id'),
    /** The owner's e-mail as given, kept even while no member has it yet. */
    contactOwnerEmail: text('contact_owner_email'),
    source: text('source', { enum: ['manual', 'csv', 'crm'] }).notNull(),
    mapNetwork: boolean('map_network').notNull().default(false),
    trackJobChanges: boolean('track_job_changes').notNull().default(false),
    /** Where the client worked when the team recorded them: a later employer elsewhere is a PAST_CLIENT signal. */
    companyIdAtImport: uuid('company_id_at_import'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('clients_workspace_person_key').on(t.workspaceId, t.personId),
    // The clients list, then its two admin views, newest first (clients.repo's order: nulls last).
    index('clients_created_idx').on(t.workspaceId, t.createdAt.desc(), t.id),
    index('clients_map_network_idx').on(t.workspaceId, t.createdAt.desc(), t.id).where(sql`map_network`),
    index('clients_track_job_changes_idx').on(t.workspaceId, t.createdAt.desc(), t.id).where(sql`track_job_changes`),
  ],
);

/** Target companies (spec section 3, Account). */
export const accounts = pgTable(
  'accounts',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    companyId: uuid('company_id').notNull(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The company's name in lower case, the list's order: kept by triggers (migration 0068) as the
     * account or the company's name changes, so a page of the list is read in order from an index
     * instead of looking up every account's company to sort them (22 ms alone, 84 under load, for 5,000).
     */
    sortName: text('sort_name').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('accounts_workspace_company_key').on(t.workspaceId, t.companyId),
    index('accounts_sort_idx').on(t.workspaceId, t.sortName, t.id),
  ],
);

export const accountAssignees = pgTable(
  'account_assignees',
  {
    workspaceId: workspaceId(),
    accountId: uuid('account_id').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.accountId, t.userId] }),
    index('account_assignees_user_idx').on(t.workspaceId, t.userId),
  ],
);

/** Page views on the team's website, identified to a person or only to their company. */
export const websiteEvents = pgTable(
  'website_events',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    /** The visitor, once identified; an event that never is counts for nobody and goes after 30 days. */
    personId: uuid('person_id'),
    companyId: uuid('company_id'),
    /** The snippet's first-party id of the browser (null for events from before the snippet). */
    anonymousId: text('anonymous_id'),
    path: text('path').notNull(),
    referrer: text('referrer'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('website_events_person_idx').on(t.workspaceId, t.personId),
    index('website_events_company_idx').on(t.workspaceId, t.companyId),
    index('website_events_anonymous_idx').on(t.workspaceId, t.anonymousId),
  ],
);

/** Who a browser is, once it identified (`identify(email)`, a link from our e-mails): its later visits are theirs. */
export const websiteVisitors = pgTable(
  'website_visitors',
  {
    workspaceId: workspaceId(),
    anonymousId: text('anonymous_id').notNull(),
    personId: uuid('person_id').notNull(),
    identifiedAt: timestamp('identified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.anonymousId] })],
);

/**
 * One edge per connector (a member's or a mapped ally's person) and outside person, holding the
 * evidence per channel rather than a score: the proximity model (graph/proximity.ts) scores it, so
 * tuning the weights rescores without re-reading any evidence. Decayed weights are as of `evidenceAt`
 * and roll forward exactly by one factor, since every term of a decayed sum decays alike.
 */
export const edges = pgTable(
  'edges',
  {
    workspaceId: workspaceId(),
    prospectId: uuid('prospect_id').notNull(),
    connectorId: uuid('connector_id').notNull(),
    /** Meetings together, each weighted by size and decayed to `evidenceAt`. */
    meetingWeight: real('meeting_weight').notNull().default(0),
    meetings: integer('meetings').notNull().default(0),
    /** Messages from the connector to the person, and back; the weights decayed to `evidenceAt`. */
    mailsSent: integer('mails_sent').notNull().default(0),
    mailsReceived: integer('mails_received').notNull().default(0),
    mailSentWeight: real('mail_sent_weight').notNull().default(0),
    mailReceivedWeight: real('mail_received_weight').notNull().default(0),
    /** Months both worked at the same company, whether in the same department, and when it ended. */
    sharedMonths: integer('shared_months').notNull().default(0),
    sharedSameDepartment: boolean('shared_same_department').notNull().default(false),
    sharedEndedOn: date('shared_ended_on'),
    sharedCompanyId: uuid('shared_company_id'),
    linkedin: boolean('linkedin').notNull().default(false),
    lastInteractionAt: timestamp('last_interaction_at', { withTimezone: true }),
    evidenceAt: timestamp('evidence_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.prospectId, t.connectorId] }),
    index('edges_connector_idx').on(t.workspaceId, t.connectorId),
  ],
);

/**
 * The workspace's allies (clients who are connectors and not members, graph/graph.sql.ts
 * `isConnectorClient`) as the last team roll-up saw them: since when the team has them, and the team's
 * trust in each (graph/recompute.ts `trustSql`; the model's floor without a link to a sharing member).
 * Every team roll-up computes both for all allies anyway and writes what moved, so readers look them
 * up instead of applying the rule and scoring the allies' edges again: a table page's paths (5 of its
 * 13 ms of edges at 1M prospects) and the connectors' report card (a pass over every client).
 */
export const allies = pgTable(
  'allies',
  {
    workspaceId: workspaceId(),
    personId: uuid('person_id').notNull(),
    trust: doublePrecision('trust').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.personId] })],
);

/** A network row's columns, shared by the team's rows and a Private member's own rows. */
const networkRowColumns = () => ({
  workspaceId: workspaceId(),
  prospectId: uuid('prospect_id').notNull(),
  fullName: text('full_name').notNull(),
  companyId: uuid('company_id'),
  companySize: text('company_size'),
  industry: text('industry'),
  country: text('country'),
  companyType: text('company_type'),
  department: text('department'),
  seniority: text('seniority'),
  jobTitle: text('job_title'),
  proximity: smallint('proximity').notNull(),
  /** The engagement's pinned code (ENGAGEMENT_DEFINITIONS: 0 NEVER_MET, 1 TOUCHED, 2 MET). */
  engagement: smallint('engagement').notNull(),
  connectorIds: uuid('connector_ids').array().notNull(),
  hasExternalConnector: boolean('has_external_connector').notNull(),
  /** The prospect's signals, each as its pinned bit (SIGNALS in packages/shared/src/signals.ts). */
  signalMask: integer('signal_mask').notNull(),
  firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The read model behind the network table: one row per prospect with what its filters and order
 * need, rebuilt from edges for the prospects new evidence touches.
 */
export const networkRows = pgTable('network_rows', networkRowColumns(), (t) => [
  primaryKey({ columns: [t.workspaceId, t.prospectId] }),
  // Migrations 0023 and 0032 add the filter columns and the connectors as INCLUDE columns (drizzle cannot say
  // it): filtered pages read the index alone.
  index('network_rows_order_idx').on(t.workspaceId, t.proximity.desc(), t.prospectId),
  // Closest first within a company, with the connectors and first_seen_at as INCLUDE columns (migration
  // 0061, drizzle cannot say it): the account coverage view counts and ranks a company's rows, and the
  // report cards' 30-day trends (prospects, and companies by their first prospect) read, from the index alone.
  index('network_rows_company_idx').on(t.workspaceId, t.companyId, t.proximity.desc()),
  index('network_rows_connectors_idx').using('gin', t.connectorIds),
  // The name facet's order; the in-memory copy also finds where a changed row goes in it.
  index('network_rows_name_idx').on(t.workspaceId, t.fullName, t.prospectId),
]);

/**
 * A Private member's own network rows (issue 22): their evidence helps them and appears to nobody else,
 * so the team's rows leave it out and these hold the rows as the member sees them, for the prospects
 * their edges touch (their own edges rolled up with the team's). Their pages read these in place of the
 * team's rows for the same prospects (network-filters.ts `rowsSeenBy`). Other members have none.
 */
export const ownNetworkRows = pgTable(
  'own_network_rows',
  { ...networkRowColumns(), userId: uuid('user_id').notNull() },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.prospectId] }),
    // A member who leaves takes their rows with them.
    foreignKey({ columns: [t.workspaceId, t.userId], foreignColumns: [users.workspaceId, users.id] }).onDelete(
      'cascade',
    ),
    index('own_network_rows_order_idx').on(t.workspaceId, t.userId, t.proximity.desc(), t.prospectId),
  ],
);

/** People whose evidence changed since the graph last looked: the incremental recompute's work list. */
export const graphDirty = pgTable(
  'graph_dirty',
  {
    workspaceId: workspaceId(),
    personId: uuid('person_id').notNull(),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.personId] })],
);

/**
 * The network rows summed by their low-cardinality filter fields (proximity as its band's lower
 * bound): counts and facets under those filters read thousands of rows here instead of a million
 * there. Like every summary below, kept in step by each roll-up's difference (graph/recompute.ts).
 */
export const networkCube = pgTable(
  'network_cube',
  {
    workspaceId: workspaceId(),
    companySize: text('company_size'),
    industry: text('industry'),
    department: text('department'),
    proximity: smallint('proximity').notNull(),
    engagement: smallint('engagement').notNull(),
    signalMask: integer('signal_mask').notNull(),
    hasExternalConnector: boolean('has_external_connector').notNull(),
    rows: integer('rows').notNull(),
  },
  (t) => [
    unique('network_cube_cell_key')
      .on(
        t.workspaceId,
        t.companySize,
        t.industry,
        t.department,
        t.proximity,
        t.engagement,
        t.signalMask,
        t.hasExternalConnector,
      )
      .nullsNotDistinct(),
  ],
);

/**
 * Prospects per exact proximity and first byte of their id: where in the table's order (proximity,
 * then id) any row number falls, so a deep page starts there instead of counting every row before it.
 */
export const networkRank = pgTable(
  'network_rank',
  {
    workspaceId: workspaceId(),
    proximity: smallint('proximity').notNull(),
    bucket: smallint('bucket').notNull(),
    rows: integer('rows').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.proximity, t.bucket] })],
);

/**
 * Unfiltered prospect counts per company and per connector, the workspace's total (kind 'total', keyed
 * by the workspace id) and how many companies have a row (kind 'companies', keyed by the workspace id:
 * the report cards read it instead of counting 58,000 company rows for every call), rebuilt with the cube.
 */
export const networkReach = pgTable(
  'network_reach',
  {
    workspaceId: workspaceId(),
    kind: text('kind', { enum: ['company', 'connector', 'total', 'companies'] }).notNull(),
    key: uuid('key').notNull(),
    rows: integer('rows').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.kind, t.key] }),
    // The most reached companies first, for the Companies filter's first page.
    index('network_reach_top_idx').on(t.workspaceId, t.kind, t.rows.desc(), t.key),
  ],
);

/**
 * Unfiltered prospect counts per option of the low-cardinality filters (field as the filter's name,
 * value as its option key): the filter bar's first load reads a few dozen rows.
 */
export const networkFacets = pgTable(
  'network_facets',
  {
    workspaceId: workspaceId(),
    field: text('field').notNull(),
    value: text('value').notNull(),
    rows: integer('rows').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.field, t.value] })],
);

/**
 * The report cards' trends: prospects, companies and connectors as they stood on each of the last 30
 * days (by when each was first seen, or joined), oldest first; today is the live count. They read every
 * network row (and every ally), so they are computed at most hourly, not per page view.
 */
export const networkGrowth = pgTable(
  'network_growth',
  {
    workspaceId: workspaceId(),
    prospectsTrend: integer('prospects_trend').array().notNull(),
    companiesTrend: integer('companies_trend').array().notNull(),
    connectorsTrend: integer('connectors_trend').array().notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId] })],
);

/**
 * A number that moves whenever the workspace's network rows change (a trigger on network_rows,
 * migration 0038, so no writer can forget it): how the in-memory network index knows it is current.
 */
export const networkVersions = pgTable(
  'network_versions',
  {
    workspaceId: workspaceId(),
    version: bigint('version', { mode: 'number' }).notNull(),
    /**
     * The last version whose changed rows are not all in network_changes (a statement too large to
     * log, a truncation, or a version pruned from the log): a copy older than it is rebuilt, not patched.
     */
    unloggedUntil: bigint('unlogged_until', { mode: 'number' }).notNull().default(0),
    /**
     * The last version a write other than the graph job's made (a member's request, an import, the
     * owner's maintenance): a copy at or past it may answer while it is patched to the graph job's
     * later versions (migration 0070). The graph job marks its writes (`app.network_writer`).
     */
    requestedVersion: bigint('requested_version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId] })],
);

/**
 * The prospects each version of the network rows wrote or removed (the same trigger, migration 0038):
 * an in-memory copy catches up by re-reading those rows instead of all of them. The last
 * NETWORK_CHANGES_KEPT versions are kept.
 */
export const networkChanges = pgTable(
  'network_changes',
  {
    workspaceId: workspaceId(),
    version: bigint('version', { mode: 'number' }).notNull(),
    prospectId: uuid('prospect_id').notNull(),
  },
  (t) => [index('network_changes_version_idx').on(t.workspaceId, t.version)],
);

/**
 * A change of someone's current company: when it was seen, from which source and how sure it is.
 * The employments hold the before and after; this is the news, as the Job changes page shows it.
 */
export const jobChanges = pgTable(
  'job_changes',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    personId: uuid('person_id').notNull(),
    pastCompanyId: uuid('past_company_id'),
    pastCompanyName: text('past_company_name'),
    newCompanyId: uuid('new_company_id'),
    /** Where they went; unknown (null) only when they left ('left': mail to their address bounced). */
    newCompanyName: text('new_company_name'),
    /** 'moved' to a known company, or 'left' the past one for an unknown one. */
    kind: text('kind', { enum: ['moved', 'left'] })
      .notNull()
      .default('moved'),
    changedOn: date('changed_on').notNull(),
    source: text('source', { enum: ['linkedin', 'import', 'manual', 'mail'] }).notNull(),
    confidence: text('confidence', { enum: ['certain', 'probable'] }).notNull(),
    /** What the source said (who reported it, the export's previous company, ...). */
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull().default({}),
    /** A probable change waits for an admin (or a second source); a dismissed one is remembered, never raised again. */
    status: text('status', { enum: ['detected', 'confirmed', 'dismissed'] })
      .notNull()
      .default('detected'),
    decidedByUserId: uuid('decided_by_user_id'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('job_changes_once_key').on(t.workspaceId, t.personId, t.changedOn, t.newCompanyName),
    index('job_changes_recent_idx').on(t.workspaceId, t.changedOn.desc()),
    // The job changes list's newest of each kind (departures are a hundredth of the moves).
    index('job_changes_kind_recent_idx').on(t.workspaceId, t.kind, t.changedOn.desc(), t.createdAt.desc()),
    // A person has one address, so one departure: raised once, and a dismissed one is never raised again.
    uniqueIndex('job_changes_one_departure_key').on(t.workspaceId, t.personId).where(sql`kind = 'left'`),
    check('job_changes_destination_check', sql`kind = 'left' or new_company_name is not null`),
  ],
);
