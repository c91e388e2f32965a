import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { EventsDeps } from '../events/record.ts';
import { signalEvents } from '../features/network/signal-events.ts';
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
  const visited = await database.inWorkspace(ws, (tx) =>
    tx.execute<{ id: string }>(sql`
      with visitors as (
        select r.prospect_id as id from network_rows r
         where r.workspace_id = ${ws} and r.company_id in (select company_id from accounts where workspace_id = ${ws})
         order by r.proximity desc, r.prospect_id limit ${MORNING_VISITORS}
      ),
      visits as (
        insert into website_events (workspace_id, id, person_id, company_id, path, occurred_at)
        select ${ws}::uuid, md5(${ws}::text || v.id::text || current_date::text)::uuid, v.id,
               (select company_id from people p where p.workspace_id = ${ws} and p.id = v.id), '/pricing', now()
          from visitors v
        on conflict do nothing
        returning person_id
      )
      insert into graph_dirty (workspace_id, person_id) select ${ws}::uuid, person_id from visits
      on conflict (workspace_id, person_id) do update set marked_at = now()
      returning person_id as id`),
  );
  await recomputeDirty(database, ws, { signals: allListeners(signalEvents(events), workflowEngine(events)) });
  return visited.rows.length;
}
