import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

// The lists teams keep beside the graph's (spec section 3, CRM client) and the CSV imports that fill them.

const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/**
 * The companies of the HubSpot company lists a workspace chose (its CRM customers and its exclusions,
 * `workspaces.hubspot_*_lists`), kept in step by the HubSpot sync: never recommended, like `crm_clients`.
 * `company_id` is our company with the same domain; null for a HubSpot company without a domain.
 */
export const crmListCompanies = pgTable(
  'crm_list_companies',
  {
    workspaceId: workspaceId(),
    listId: text('list_id').notNull(),
    /** HubSpot's id of the company. */
    hubspotId: text('hubspot_id').notNull(),
    companyId: uuid('company_id'),
    name: text('name').notNull(),
    domain: text('domain'),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.listId, t.hubspotId] }),
    index('crm_list_companies_company_idx').on(t.workspaceId, t.companyId),
  ],
);

/** Customer companies (spec section 3, CRM client): never recommended, whoever knows them. */
export const crmClients = pgTable(
  'crm_clients',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    companyId: uuid('company_id').notNull(),
    companyName: text('company_name').notNull(),
    companyDomain: text('company_domain').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('crm_clients_workspace_domain_key').on(t.workspaceId, t.companyDomain),
  ],
);

/**
 * One CSV upload and what became of it. The id is the client's (it polls while it uploads). Counters
 * are final only once `completed`, which is written in the merge's own transaction: a completed import
 * is merged whole, any other one not at all.
 */
export const imports = pgTable(
  'imports',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull(),
    kind: text('kind', { enum: ['accounts', 'clients', 'crm-clients'] }).notNull(),
    fileName: text('file_name').notNull(),
    status: text('status', { enum: ['receiving', 'merging', 'completed', 'failed'] }).notNull(),
    mapNetwork: boolean('map_network').notNull().default(false),
    trackJobChanges: boolean('track_job_changes').notNull().default(false),
    bytesReceived: bigint('bytes_received', { mode: 'number' }).notNull().default(0),
    rowsProcessed: bigint('rows_processed', { mode: 'number' }).notNull().default(0),
    /** While merging, the step under way (an index in IMPORT_MERGE_STEPS of its kind). */
    mergeStep: smallint('merge_step'),
    added: integer('added').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    error: text('error'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * A received import's rows, waiting for its merge (a worker's job): every row of the file by line,
 * valid ones with their values in the kind's staging columns' order (import-kinds.ts) and a null
 * reason. Written in the transaction that queues the merge, deleted in the one that completes it, so
 * an accepted file outlives the process that received it and the worker that first merged it.
 */
export const importStagedRows = pgTable(
  'import_staged_rows',
  {
    workspaceId: workspaceId(),
    importId: uuid('import_id').notNull(),
    line: bigint('line', { mode: 'number' }).notNull(),
    reason: text('reason'),
    values: text('values').array(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.importId, t.line] })],
);

/** The rows an import refused, by line of the file, written with the merge. */
export const importRejections = pgTable(
  'import_rejections',
  {
    workspaceId: workspaceId(),
    importId: uuid('import_id').notNull(),
    line: bigint('line', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.importId, t.line] })],
);
