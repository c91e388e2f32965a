import { sql } from 'drizzle-orm';
import { boolean, date, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const workspaces = pgTable('workspaces', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  domains: text('domains').array().notNull().default(sql`'{}'`),
  allowDomainJoin: boolean('allow_domain_join').notNull().default(false),
  logoUrl: text('logo_url'),
  /** Tuning of the relationship graph (graph/settings.ts): proximity weights, the weekly intro cap. */
  graphSettings: jsonb('graph_settings').$type<Record<string, unknown>>().notNull().default({}),
  /** IANA time zone of the workspace's day: the daily recommendations run in the morning there. */
  timeZone: text('time_zone').notNull().default('UTC'),
  /** How many actions each user is recommended per day. */
  dailyActionsPerUser: integer('daily_actions_per_user').notNull().default(10),
  /** The last workspace day the scheduled recommendations ran for. */
  recommendationsRanOn: date('recommendations_ran_on'),
  /** Website tracking: paths that are the pricing page, as globs (`*` any characters). */
  trackingPricingPatterns: text('tracking_pricing_patterns').array().notNull().default(sql`'{/pricing*}'`),
  /** Website tracking: this many page views within `trackingManyPagesDays` days is "visited many pages". */
  trackingManyPages: integer('tracking_many_pages').notNull().default(5),
  trackingManyPagesDays: integer('tracking_many_pages_days').notNull().default(7),
  /** The HubSpot company lists of the team's CRM customers (spec: activeCrmClientExclusionLists). */
  hubspotCustomerLists: text('hubspot_customer_lists').array().notNull().default(sql`'{}'`),
  /** The HubSpot company lists never to recommend (spec: selectedHubspotExclusionLists). */
  hubspotExclusionLists: text('hubspot_exclusion_lists').array().notNull().default(sql`'{}'`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which workspace owns a domain. Global on purpose: sign-up must find a joinable workspace before
 * the user belongs to any, so this table carries no row-level security and holds nothing private.
 */
export const workspaceDomains = pgTable('workspace_domains', {
  domain: text('domain').primaryKey(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
});

/**
 * A workspace's website-tracking site: the public key its snippet sends and the origins it may send
 * from. Global on purpose, like `workspace_domains`: the public tracking endpoint must find the
 * workspace from the key before it knows any workspace; it holds nothing private (the key is public).
 */
export const trackingSites = pgTable('tracking_sites', {
  key: text('key').primaryKey(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .unique()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** `https://www.acme.com`; an event from any other origin is refused. Empty: none accepted yet. */
  origins: text('origins').array().notNull().default(sql`'{}'`),
});
