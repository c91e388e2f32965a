import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

/**
 * The record of who did what to people's data and the workspace's sources (issue 22): append-only.
 * The app role may only read and insert (the migration revokes UPDATE and DELETE); rows older than a
 * year go through `purge_audit_log()`, the one way anything leaves the table.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    /** Null for the system (a job) or an actor who has since left; `actorEmail` still says who. */
    actorUserId: uuid('actor_user_id'),
    /** Kept as it was: a removed member's entries must still name them. */
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    /** What the action was about, as shown (a person's name and address, a source's name). */
    subject: text('subject').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] }), index('audit_log_at_idx').on(t.workspaceId, t.at, t.id)],
);

/**
 * An erased person's addresses and LinkedIn URL, hashed: what keeps the next Google sync or LinkedIn
 * import from creating them again, without keeping the addresses themselves.
 */
export const erasedPeople = pgTable(
  'erased_people',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** sha256 of a lower-cased address or a normalised LinkedIn URL, hex. */
    keyHash: text('key_hash').notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.keyHash] })],
);
