import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

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
 * The outbox of everything that leaves the product for a destination other than Gmail: one row per
 * event and destination, written with the event. Its id is the `webhook-id` a receiver sees, the same
 * on every retry, so a receiver can tell a retry from a new event.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    eventId: uuid('event_id').notNull(),
    destination: text('destination', { enum: ['webhook', 'slack'] }).notNull(),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] }), index('deliveries_event_idx').on(t.workspaceId, t.eventId)],
);

/** Every attempt of a delivery, for the webhook page's log and for whoever asks why. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    deliveryId: uuid('delivery_id').notNull(),
    destination: text('destination', { enum: ['webhook', 'slack'] }).notNull(),
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
