import { boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/**
 * A share link sent to a client ally (issue 22): the ally opens it with no account, uploads their
 * LinkedIn connections, and keeps only those at the workspace's accounts. The link itself is signed
 * and expiring (lib/signed-state.ts); this row is what it points at.
 */
export const allyShares = pgTable(
  'ally_shares',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    clientId: uuid('client_id').notNull(),
    sentByUserId: uuid('sent_by_user_id'),
    sentTo: text('sent_to').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('ally_shares_client_idx').on(t.workspaceId, t.clientId),
  ],
);

/**
 * The connections an ally confirmed through a share link: only people at the workspace's accounts. The
 * rest of their file was never stored.
 */
export const allyConnections = pgTable(
  'ally_connections',
  {
    workspaceId: workspaceId(),
    shareId: uuid('share_id').notNull(),
    clientId: uuid('client_id').notNull(),
    personId: uuid('person_id').notNull(),
    company: text('company'),
    position: text('position'),
    /** The person was created for this share: a withdrawal removes them too when nothing else knows them. */
    createdPerson: boolean('created_person').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.shareId, t.personId] }),
    index('ally_connections_person_idx').on(t.workspaceId, t.personId),
    index('ally_connections_client_idx').on(t.workspaceId, t.clientId),
  ],
);
