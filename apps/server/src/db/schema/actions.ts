import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
    /** The e-mail that carried it, when one was sent. */
    outboxId: uuid('outbox_id'),
    actedAt: timestamp('acted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('actions_status_idx').on(t.workspaceId, t.status, t.actedAt),
    index('actions_prospect_idx').on(t.workspaceId, t.prospectId),
    index('actions_connector_idx').on(t.workspaceId, t.connectorId, t.actedAt),
  ],
);
