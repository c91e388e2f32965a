import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

// The evidence the relationship graph is built from (DESIGN.md section 7). Headers and times only:
// no mail body or subject is ever stored.

/**
 * Where a company's name came from, least trusted first: the domain's first label ('Kccollec'), the
 * organisation members' address books give its people, what its people say on LinkedIn, and a list an
 * admin gave (an import, a client's record, the CRM). A name from a source at least as trusted replaces it.
 */
export const COMPANY_NAME_SOURCES = ['domain', 'contacts', 'linkedin', 'list'] as const;
export type CompanyNameSource = (typeof COMPANY_NAME_SOURCES)[number];

const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** Companies, one per domain in a workspace. */
export const companies = pgTable(
  'companies',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    /** Null for a company known only by name (a LinkedIn export's Company column) until its domain is known. */
    domain: text('domain'),
    name: text('name').notNull(),
    /** Where the name came from (COMPANY_NAME_SOURCES, least trusted first): a better source renames it. */
    nameSource: text('name_source', { enum: COMPANY_NAME_SOURCES }).notNull().default('domain'),
    logoUrl: text('logo_url'),
    sizeBucket: text('size_bucket'),
    industry: text('industry'),
    type: text('type'),
    country: text('country'),
    technologies: text('technologies').array().notNull().default(sql`'{}'`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * `company_key(name)`, stored: a lookup by name compares a column, which row-level security lets
     * an index answer. On the expression itself (not leakproof) the policy comes first, and each
     * lookup computed the key of every company of the workspace.
     */
    nameKey: text('name_key').generatedAlwaysAs(sql`company_key(name)`),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('companies_workspace_domain_key').on(t.workspaceId, t.domain),
    index('companies_workspace_name_key_idx').on(t.workspaceId, t.nameKey),
  ],
);

/** People the workspace's evidence mentions, members included. */
export const people = pgTable(
  'people',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    fullName: text('full_name').notNull(),
    email: text('email'),
    linkedinUrl: text('linkedin_url'),
    phone: text('phone'),
    title: text('title'),
    department: text('department'),
    seniority: text('seniority'),
    companyId: uuid('company_id'),
    avatarUrl: text('avatar_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('people_workspace_email_key').on(t.workspaceId, t.email),
    unique('people_workspace_linkedin_key').on(t.workspaceId, t.linkedinUrl),
    index('people_workspace_company_idx').on(t.workspaceId, t.companyId),
  ],
);

/** A mail thread message or a meeting, seen in one member's account. */
export const interactions = pgTable(
  'interactions',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    /** The member whose account the evidence came from. */
    sourceUserId: uuid('source_user_id').notNull(),
    kind: text('kind', { enum: ['mail', 'meeting'] }).notNull(),
    /** The provider's id (Gmail message id, Calendar event id): re-syncing never adds it twice. */
    externalId: text('external_id').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    participantCount: integer('participant_count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('interactions_source_key').on(t.workspaceId, t.sourceUserId, t.kind, t.externalId),
    index('interactions_workspace_time_idx').on(t.workspaceId, t.occurredAt),
  ],
);

/**
 * Addresses a delivery failure report named (a bounce, headers only): dead since `bounced_at`, unless
 * mail came from them later. The report itself is no interaction and creates no person.
 */
export const deadAddresses = pgTable(
  'dead_addresses',
  {
    workspaceId: workspaceId(),
    email: text('email').notNull(),
    /** The latest report's time. */
    bouncedAt: timestamp('bounced_at', { withTimezone: true }).notNull(),
    /** The member whose mailbox received it. */
    sourceUserId: uuid('source_user_id').notNull(),
    /** The latest report: its Gmail message id and its sender (mailer-daemon@..., postmaster@...). */
    evidence: jsonb('evidence').$type<{ messageId: string; sender: string }>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.email] })],
);

export const interactionParticipants = pgTable(
  'interaction_participants',
  {
    workspaceId: workspaceId(),
    interactionId: uuid('interaction_id').notNull(),
    personId: uuid('person_id').notNull(),
    role: text('role', { enum: ['from', 'to', 'cc', 'organizer', 'attendee'] }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.interactionId, t.personId, t.role] }),
    index('interaction_participants_person_idx').on(t.workspaceId, t.personId),
  ],
);

/** LinkedIn first-degree connections from a member's data export. */
export const linkedinConnections = pgTable(
  'linkedin_connections',
  {
    workspaceId: workspaceId(),
    userId: uuid('user_id').notNull(),
    personId: uuid('person_id').notNull(),
    connectedOn: timestamp('connected_on', { withTimezone: true }),
    companyName: text('company_name'),
    position: text('position'),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.personId] }),
    index('linkedin_connections_person_idx').on(t.workspaceId, t.personId),
  ],
);

/** A member's Google address book: contacts and the "other contacts" Gmail keeps. */
export const addressBookEntries = pgTable(
  'address_book_entries',
  {
    workspaceId: workspaceId(),
    userId: uuid('user_id').notNull(),
    personId: uuid('person_id').notNull(),
    source: text('source', { enum: ['contact', 'other_contact'] }).notNull(),
    /** The contact's organisation and job title as the member's address book has them (contacts only). */
    organization: text('organization'),
    jobTitle: text('job_title'),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.personId, t.source] }),
    index('address_book_person_idx').on(t.workspaceId, t.personId),
  ],
);
