import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

export const users = pgTable(
  'users',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    idpSubject: text('idp_subject').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    avatar: text('avatar'),
    role: text('role', { enum: ['admin', 'member', 'viewer'] }).notNull(),
    onboardingStep: text('onboarding_step', { enum: ['SIGNUP_DONE', 'EXTERNALS_DONE', 'ACCOUNTS_IMPORT_DONE'] })
      .notNull()
      .default('SIGNUP_DONE'),
    hasCompletedOnboarding: boolean('has_completed_onboarding').notNull().default(false),
    /** How the user came in: created the workspace, accepted an invitation, or joined by domain. */
    joinedVia: text('joined_via', { enum: ['signup', 'invite', 'domain'] })
      .notNull()
      .default('signup'),
    linkedinConnectedAt: timestamp('linkedin_connected_at', { withTimezone: true }),
    /**
     * The workspace day the recommendation engine last ran for the user. Null until their first run
     * after onboarding (finishing it clears the mark): such a user is recommended to as soon as their
     * data is in the network, rather than at the next morning's run.
     */
    recommendationsRanOn: date('recommendations_ran_on'),
    /**
     * What teammates see of the member's evidence (issue 22): everything, only that they know someone
     * and how well (never channels, counts or dates), or nothing (their evidence helps them alone).
     */
    sharingLevel: text('sharing_level', { enum: ['all', 'strength', 'private'] })
      .notNull()
      .default('all'),
    /** 'Don't ask me for intros': false keeps the member out of every intro request and recommendation. */
    acceptsIntros: boolean('accepts_intros').notNull().default(true),
    /** The member's own weekly intro cap; null follows the workspace's. */
    weeklyIntroCap: integer('weekly_intro_cap'),
    /**
     * The member's own person record (people.email = lower(email)), kept by triggers (migration 0069):
     * who the team's members are in the graph, read by every statement that asks (graph.sql.ts's
     * `membersCte`) without a lookup per member.
     */
    personId: uuid('person_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('users_workspace_email_key').on(t.workspaceId, t.email),
    index('users_workspace_created_idx').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * The identity provider's subject -> the user it signs in. Global on purpose: authentication has to
 * find the workspace before it can set the row-level-security context.
 */
export const userIdentities = pgTable('user_identities', {
  idpSubject: text('idp_subject').primaryKey(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().unique(),
});

/**
 * A member's demo workspace (made-up data to explore the product), by the identity that opened it.
 * Global like `user_identities`: authentication finds it before any workspace context. Deleting the
 * workspace deletes it.
 */
export const demoWorkspaces = pgTable('demo_workspaces', {
  idpSubject: text('idp_subject').primaryKey(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Connected third-party accounts (Google per user; HubSpot, Slack, webhook per workspace). */
export const integrations = pgTable(
  'integrations',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    /** Null for workspace-wide integrations. */
    userId: uuid('user_id'),
    kind: text('kind', { enum: ['google', 'hubspot', 'slack', 'webhook'] }).notNull(),
    /** AES-256-GCM sealed token set; never plaintext. */
    sealedTokens: text('sealed_tokens'),
    settings: text('settings'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    unique('integrations_workspace_kind_user_key').on(t.workspaceId, t.kind, t.userId).nullsNotDistinct(),
  ],
);

/**
 * A member's blocklist: e-mail addresses and whole domains (lower case, a domain without '@') whose
 * mail and contacts are never synced or kept from that member's accounts.
 */
export const privacyBlocklist = pgTable(
  'privacy_blocklist',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    entry: text('entry').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId, t.entry] })],
);

/**
 * Who wrote to a member and whom the member wrote to, by a hash of the address: a person is created from
 * mail only once both happened (the two-way rule, issue 22), so newsletters and cold inbound fill no
 * network. The domain is kept in clear so a blocked domain erases its rows.
 */
export const mailCorrespondents = pgTable(
  'mail_correspondents',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    addressHash: text('address_hash').notNull(),
    domain: text('domain').notNull(),
    /** They wrote to the member. */
    wrote: boolean('wrote').notNull().default(false),
    /** The member wrote to them. */
    written: boolean('written').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId, t.addressHash] })],
);
