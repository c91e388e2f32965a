import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

/** An invitation to join a workspace, sent by e-mail from an admin's Google account. */
export const invites = pgTable(
  'invites',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'member', 'viewer'] }).notNull(),
    invitedByUserId: uuid('invited_by_user_id').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'revoked'] })
      .notNull()
      .default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedUserId: uuid('accepted_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('invites_workspace_email_idx').on(t.workspaceId, t.email),
  ],
);

/**
 * Which workspace an invitation belongs to. Global on purpose and content-free: the invitee opens
 * the link before belonging to any workspace. Invitation ids are random UUIDs.
 */
export const inviteIndex = pgTable('invite_index', {
  inviteId: uuid('invite_id').primaryKey(),
  workspaceId: uuid('workspace_id').notNull(),
});
