import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

/**
 * Things to do about a prospect (spec section 3, recommended and past actions): asking a connector
 * for an intro, or messaging the prospect directly. A warm intro sent from the network page is an
 * ask-intro that was acted on at once.
 */
export const actions = pgTable(
  'actions',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    type: text('type', { enum: ['ask-intro', 'DIRECT_MESSAGE'] }).notNull(),
    status: text('status', { enum: ['recommended', 'pending', 'completed', 'skipped'] }).notNull(),
    /** Where it came from: the daily recommendations or the network page. */
    origin: text('origin', { enum: ['recommendation', 'network'] }).notNull(),
    prospectId: uuid('prospect_id').notNull(),
    /** The person asked for the intro (a colleague's or an ally's person), for ask-intro. */
    connectorId: uuid('connector_id'),
    /** The user who acted on it (sent, skipped or completed). */
    ownerUserId: uuid('owner_user_id'),
    recommendationUsers: uuid('recommendation_users').array().notNull().default(sql`'{}'`),
    signals: jsonb('signals').$type<unknown[]>().notNull().default([]),
    message: text('message'),
    introTargetMessage: text('intro_target_message'),
    /** For an ask-intro: a colleague (connector) or a client ally (client) is asked. */
    source: text('source', { enum: ['connector', 'client'] }),
    /** The e-mail that carried it, when one was sent. */
    outboxId: uuid('outbox_id'),
    actedAt: timestamp('acted_at', { withTimezone: true }),
    /** The workspace's day a recommendation is for (in its time zone), and whose daily run made it. */
    recommendedOn: date('recommended_on'),
    generatedForUserId: uuid('generated_for_user_id'),
    /** How the recommendation ranks: temperature (0 warm, 1 medium, 2 cold) then proximity, as decided. */
    temperature: smallint('temperature'),
    proximity: smallint('proximity'),
    /** A recommendation's one line of why, as its run decided and logged it (`recommendationWhy`). */
    reason: text('reason'),
    /** The Gmail thread of the sent e-mail, once a sync has seen it, and when someone first answered in it. */
    threadId: text('thread_id'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** When the user thanked the connector for an intro that got a reply: a thank-you is sent once. */
    thankedAt: timestamp('thanked_at', { withTimezone: true }),
    /**
     * The action that contacted the prospect while this one was still open (a warm intro or another
     * user's send): it closed this one, which asked nobody and counts against no connector's cap.
     */
    supersededBy: uuid('superseded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('actions_status_idx').on(t.workspaceId, t.status, t.actedAt),
    index('actions_prospect_idx').on(t.workspaceId, t.prospectId),
    index('actions_connector_idx').on(t.workspaceId, t.connectorId, t.actedAt),
    index('actions_recommended_idx').on(t.workspaceId, t.recommendedOn, t.status),
    // A member's own actions, by the users they are recommended to and by their owner: a member's tab
    // counts read their few actions here, not the team's thousands.
    index('actions_recommendation_users_idx').using('gin', t.recommendationUsers),
    index('actions_owner_idx').on(t.workspaceId, t.ownerUserId, t.status),
    // One open action per prospect and set of users: a daily run done twice, or a pending action
    // recommended again, never doubles it.
    uniqueIndex('actions_open_key')
      .on(t.workspaceId, t.prospectId, t.recommendationUsers)
      .where(sql`status in ('recommended', 'pending')`),
    index('actions_awaiting_reply_idx')
      .on(t.workspaceId, t.outboxId)
      .where(sql`outbox_id is not null and replied_at is null`),
  ],
);

/** Why each candidate of a daily run was kept or dropped, per user and run (kept a month). */
export const recommendationLog = pgTable(
  'recommendation_log',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    runId: uuid('run_id').notNull(),
    userId: uuid('user_id').notNull(),
    runOn: date('run_on').notNull(),
    /** The order candidates were decided in: rank order. */
    position: integer('position').notNull(),
    prospectId: uuid('prospect_id').notNull(),
    outcome: text('outcome', { enum: ['kept', 'dropped'] }).notNull(),
    reason: text('reason').notNull(),
    actionType: text('action_type'),
    connectorId: uuid('connector_id'),
    actionId: uuid('action_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('recommendation_log_user_idx').on(t.workspaceId, t.userId, t.createdAt),
    index('recommendation_log_run_idx').on(t.workspaceId, t.runId, t.position),
  ],
);
