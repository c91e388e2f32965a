import type { SignalType, TWorkflowFilters, WorkflowEngagement } from '@warmpath/shared';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** The workflow agents: what they listen to, whom they watch, where they push. The provider writes them. */
export const workflows = pgTable(
  'workflows',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    active: boolean('active').notNull().default(false),
    signals: text('signals').array().$type<SignalType[]>().notNull(),
    filters: jsonb('filters').$type<TWorkflowFilters>().notNull(),
    engagements: text('engagements').array().$type<WorkflowEngagement[]>().notNull(),
    /** Whose ideal customer profile, personas and accounts the filters mean ('my accounts'). */
    profileUserId: uuid('profile_user_id'),
    /** The template it was made from, if any. */
    template: text('template'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/** One push of a run: where an engagement went (the event recorded for it), or why it did not. */
export type WorkflowRunPush = {
  engagement: WorkflowEngagement;
  destination: 'slack' | 'webhook' | 'crm';
  eventId: string | null;
  skipped: string | null;
};

/**
 * Each time a workflow fired: a (workflow, prospect, signal) fires once, and again only when the
 * signal comes back more than 30 days later (the unique key, and the run's time).
 */
export const workflowRuns = pgTable(
  'workflow_runs',
  {
    workspaceId: workspaceId(),
    id: uuid('id').notNull().defaultRandom(),
    workflowId: uuid('workflow_id').notNull(),
    prospectId: uuid('prospect_id').notNull(),
    signalType: text('signal_type').$type<SignalType>().notNull(),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull().defaultNow(),
    pushes: jsonb('pushes').$type<WorkflowRunPush[]>().notNull().default([]),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    uniqueIndex('workflow_runs_once_key').on(t.workspaceId, t.workflowId, t.prospectId, t.signalType),
    index('workflow_runs_latest_idx').on(t.workspaceId, t.workflowId, t.firedAt.desc()),
  ],
);
