import { randomBytes } from 'node:crypto';
import type { TTrackedEvent, TTrackingSettingsUpdate } from '@warmpath/shared';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { trackingSites, workspaces } from '../../db/schema/index.ts';

/** A public key: it only says which workspace an event is for, and is no secret (it sits in the site's HTML). */
const newTrackingKey = () => `wpk_${randomBytes(15).toString('base64url')}`;

/** The workspace's tracking site, created with a new key on first use. */
export async function ensureTrackingSite(tx: Tx, workspaceId: string) {
  await tx.insert(trackingSites).values({ key: newTrackingKey(), workspaceId }).onConflictDoNothing();
  const [site] = await tx.select().from(trackingSites).where(eq(trackingSites.workspaceId, workspaceId));
  if (!site) throw new Error('the tracking site just ensured is gone');
  return site;
}

export async function findTrackingRules(tx: Tx, workspaceId: string) {
  const [row] = await tx
    .select({
      pricingPatterns: workspaces.trackingPricingPatterns,
      manyPages: workspaces.trackingManyPages,
      manyPagesDays: workspaces.trackingManyPagesDays,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  if (!row) throw new Error(`no workspace ${workspaceId}`);
  return row;
}

export async function saveTrackingSettings(tx: Tx, workspaceId: string, settings: TTrackingSettingsUpdate) {
  await tx
    .update(trackingSites)
    .set({ origins: [...new Set(settings.origins)] })
    .where(eq(trackingSites.workspaceId, workspaceId));
  await tx
    .update(workspaces)
    .set({
      trackingPricingPatterns: [...new Set(settings.pricingPatterns)],
      trackingManyPages: settings.manyPages,
      trackingManyPagesDays: settings.manyPagesDays,
    })
    .where(eq(workspaces.id, workspaceId));
}

/** Every person whose visits the rules read: a change of rules rolls their rows up again. */
export const visitorsOf = (workspaceId: string) =>
  sql`select distinct person_id from website_events where workspace_id = ${workspaceId} and person_id is not null`;

export async function findRecentTrackedEvents(tx: Tx, workspaceId: string, limit: number): Promise<TTrackedEvent[]> {
  const rows = await tx.execute<{ id: string; path: string; occurred_at: string; visitor: string | null }>(sql`
    select w.id, w.path, w.occurred_at::text as occurred_at, p.full_name as visitor
      from website_events w
      left join people p on p.workspace_id = w.workspace_id and p.id = w.person_id
     where w.workspace_id = ${workspaceId}
     order by w.occurred_at desc, w.id
     limit ${limit}`);
  return rows.rows.map((row) => ({
    id: row.id,
    path: row.path,
    occurredAt: new Date(row.occurred_at).toISOString(),
    visitor: row.visitor,
  }));
}
