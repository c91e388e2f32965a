import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

/** Where deliveries go: an event's destinations, and a member's Gmail for e-mail. */
export const DESTINATION_KINDS = ['webhook', 'slack', 'email', 'hubspot'] as const;

const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/**
 * Domain events (the catalogue is packages/shared/src/events.ts), recorded in the transaction that
 * caused them, and only when some destination wants them: an event nobody receives is not kept.
 */
export const events = pgTable(
  'events',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * The outbox of everything that leaves the product: one row per event and destination (webhook,
 * Slack), written with the event, or per e-mail (its content in `outbox`), written with the business
 * change that sends it. Each attempt is a pg-boss job queued in the same transaction. Its id is the
 * `webhook-id` a receiver sees, the same on every retry, so a receiver can tell a retry from a new event.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    /** What is delivered: an event (webhook, Slack) or an e-mail (`outbox`), never both. */
    eventId: uuid('event_id'),
    emailId: uuid('email_id'),
    destination: text('destination', { enum: DESTINATION_KINDS }).notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due; null once delivered or given up. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    /**
     * Set while an attempt to a destination without idempotency keys (Slack) is under way: a worker
     * that finds it set knows an earlier one died mid-attempt, and asks the destination first.
     */
    sendingSince: timestamp('sending_since', { withTimezone: true }),
    /**
     * What the destination made of it, when that must be found again: the HubSpot note's id, kept so
     * the delivery's record says where its note is.
     */
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('deliveries_event_idx').on(t.workspaceId, t.eventId),
    uniqueIndex('deliveries_email_key').on(t.workspaceId, t.emailId),
    check('deliveries_one_subject', sql`num_nonnulls(${t.eventId}, ${t.emailId}) = 1`),
    // The start-up sweep looks for pending deliveries whose job was lost.
    index('deliveries_pending_idx').on(t.status).where(sql`status = 'pending'`),
  ],
);

/** Every attempt of a delivery, for the webhook page's log and for whoever asks why. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    deliveryId: uuid('delivery_id').notNull(),
    destination: text('destination', { enum: DESTINATION_KINDS }).notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The destination's HTTP status; null when it was never reached (refused address, time-out). */
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('delivery_attempts_recent_idx').on(t.workspaceId, t.destination, t.attemptedAt.desc()),
  ],
);
