import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
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

/**
 * The matches of an ally's Google account between the OAuth callback and the share page reading them
 * (issue 22). The callback runs in a browser redirect, so the matches cannot travel back in its answer
 * as the file's do; a signed list in the redirect's address would grow with the matches past what
 * proxies accept in a Location header. So only the people already matched to an account are held here
 * (never the rest of the mailbox, never the token), read once (deleted as they are read) and for 15
 * minutes at most (expired rows are deleted whenever one is written or read in the workspace, and nightly).
 */
export const allyGoogleMatches = pgTable(
  'ally_google_matches',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    shareId: uuid('share_id').notNull(),
    /** TAllyMatch[]: only people at the workspace's accounts. */
    matches: jsonb('matches').notNull(),
    scanned: integer('scanned').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'ally_google_matches_share_fk',
      columns: [t.workspaceId, t.shareId],
      foreignColumns: [allyShares.workspaceId, allyShares.id],
    }).onDelete('cascade'),
  ],
);
