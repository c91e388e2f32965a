import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { EventsDeps } from '../events/record.ts';
import { signalEvents } from '../features/network/signal-events.ts';
import { writeTrackedEvents } from '../features/tracking/ingest.repo.ts';
import { activate, createFromTemplate, listAll } from '../features/workflows/operator.ts';
import { workflowEngine } from '../features/workflows/workflow-engine.ts';
import { recomputeDirty } from '../graph/graph.service.ts';
import { allListeners } from '../graph/raised.ts';

/** This morning's visitors of the pricing page, at target accounts: what fires the demo's agents. */
const MORNING_VISITORS = 5;

/**
 * The agents a provider sets up, made as the CLI makes them (from the shipped templates, two of them
 * active), then fired the way real ones are: this morning's pricing-page visits at target accounts
 * raise signals in the graph job, which the agents hear. Without `events` the agents are made but
 * nothing fires. A second seed adds no agent, and no visit the same day.
 */
export async function seedWorkflows(database: Database, ws: string, seedUserId: string, events?: EventsDeps) {
  if ((await listAll(database, ws)).length === 0) {
    for (const template of ['past-client-job-change', 'warm-visit-target-account', 'met-colleague-at-icp'] as const) {
      const workflow = await createFromTemplate(database, ws, template, seedUserId);
      if (template !== 'met-colleague-at-icp') await activate(database, ws, workflow.id, true);
    }
  }
  if (!events) return 0;
  // Stored by the tracking ingestion's writer, as visits through a link from our e-mails would be.
  const visited = await database.inWorkspace(ws, async (tx) => {
    const visitors = await tx.execute<{ id: string }>(sql`
      select r.prospect_id as id from network_rows r
       where r.workspace_id = ${ws} and r.company_id in (select company_id from accounts where workspace_id = ${ws})
         -- Once a day: a second seed the same day adds no visit.
         and not exists (select 1 from website_events w
                          where w.workspace_id = ${ws} and w.anonymous_id like 'demomorning%' and w.path = '/pricing'
                            and w.occurred_at >= current_date)
       order by r.proximity desc, r.prospect_id limit ${MORNING_VISITORS}`);
    const now = new Date();
    await writeTrackedEvents(
      tx,
      ws,
      visitors.rows.map((visitor) => ({
        type: 'page' as const,
        anonymousId: `demomorning${visitor.id.replaceAll('-', '').slice(0, 18)}`,
        path: '/pricing',
        referrer: null,
        personId: visitor.id,
        occurredAt: now,
      })),
    );
    return visitors;
  });
  await recomputeDirty(database, ws, { signals: allListeners(signalEvents(events), workflowEngine(events)) });
  return visited.rows.length;
}
