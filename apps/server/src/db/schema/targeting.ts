import type { TTargetingScheme } from '@warmpath/shared';
import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

/** Each user's targeting scheme (spec section 3); an invitee's starts as a copy of the inviting admin's. */
export const targetingSchemes = pgTable(
  'targeting_schemes',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    scheme: jsonb('scheme').$type<TTargetingScheme>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);

export const personas = pgTable(
  'personas',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    jobDepartments: text('job_departments').array().notNull(),
    seniorities: text('seniorities').array().notNull(),
    customJobTitles: text('custom_job_titles').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);
