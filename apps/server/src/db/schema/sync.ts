import { integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** Where each of a member's Google feeds stopped, so the next sync is incremental. */
export const googleSyncState = pgTable(
  'google_sync_state',
  {
    workspaceId: workspaceId(),
    userId: uuid('user_id').notNull(),
    gmailHistoryId: text('gmail_history_id'),
    calendarSyncToken: text('calendar_sync_token'),
    contactsSyncToken: text('contacts_sync_token'),
    otherContactsSyncToken: text('other_contacts_sync_token'),
    lastFullSyncAt: timestamp('last_full_sync_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);

/** One run of a long job (a sync, an import), for its progress bar and its outcome. */
export const jobRuns = pgTable(
  'job_runs',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id').notNull(),
    kind: text('kind', { enum: ['google-sync', 'hubspot-sync'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    /** What the job is doing now, in words a user understands. */
    phase: text('phase'),
    processed: integer('processed').notNull().default(0),
    /** Null while the total is unknown. */
    total: integer('total'),
    counts: jsonb('counts').$type<Record<string, number>>(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * Every e-mail the product sends, with where Gmail has it. Written in the same transaction as the
 * business change, with its delivery (destination 'email' in `deliveries`, which holds the attempts):
 * the sender creates a Gmail draft and keeps its id, then sends that draft, so a retry after a crash
 * never sends twice.
 */
export const outbox = pgTable(
  'outbox',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    senderUserId: uuid('sender_user_id').notNull(),
    /** What the e-mail is for (intro request, direct message, invitation), for audit and tests. */
    purpose: text('purpose').notNull(),
    message: jsonb('message')
      .$type<{ to: string[]; cc: string[]; subject: string; text: string; messageId: string }>()
      .notNull(),
    /** How far Gmail has it: nothing yet, a draft (its id kept), or sent. */
    status: text('status', { enum: ['pending', 'drafted', 'sent'] })
      .notNull()
      .default('pending'),
    draftId: text('draft_id'),
    gmailMessageId: text('gmail_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);
