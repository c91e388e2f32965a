import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// Tables of the built-in identity provider (local mode). They are not tenant data: the provider
// signs people in before any workspace exists.

export const idpAccounts = pgTable('idp_accounts', {
  subject: text('subject').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Signing keys and cookie secrets, kept so tokens and sessions survive a restart. */
export const idpSecrets = pgTable('idp_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
});

/** oidc-provider's adapter storage: sessions, grants, codes, refresh tokens. */
export const idpPayloads = pgTable(
  'idp_payloads',
  {
    id: text('id').notNull(),
    model: text('model').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('idp_payloads_grant_idx').on(t.grantId),
    index('idp_payloads_uid_idx').on(t.uid),
  ],
);
