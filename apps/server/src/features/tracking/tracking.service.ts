import type { TTrackedEvent, TTrackingSettings, TTrackingSettingsUpdate } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { markDirty } from '../../graph/dirty.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Member } from '../../plugins/auth.ts';
import {
  ensureTrackingSite,
  findRecentTrackedEvents,
  findTrackingRules,
  saveTrackingSettings,
  visitorsOf,
} from './tracking.repo.ts';

export type TrackingDeps = {
  database: Database;
  jobs: Pick<JobQueue, 'enqueueGraphRecompute'>;
  /** Where browsers reach the product: the snippet loads from it. */
  publicUrl: string;
};

/** The tag the admin pastes before `</head>` on every page of the site. */
export const snippetTag = (publicUrl: string, key: string) =>
  `<script async src="${publicUrl}/api/public/snippet.js" data-key="${key}"></script>`;

/** How many of the last events the live view shows. */
const LIVE_EVENTS = 20;

export async function getTracking(deps: TrackingDeps, member: Member): Promise<TTrackingSettings> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const site = await ensureTrackingSite(tx, member.workspaceId);
    const rules = await findTrackingRules(tx, member.workspaceId);
    return {
      key: site.key,
      snippet: snippetTag(deps.publicUrl, site.key),
      origins: site.origins,
      ...rules,
    };
  });
}

/** Saves the sites and the rules; changed rules roll every visitor's row up again, with the graph job. */
export async function setTracking(
  deps: TrackingDeps,
  member: Member,
  settings: TTrackingSettingsUpdate,
): Promise<TTrackingSettings> {
  const origins = settings.origins.map((origin) => new URL(origin).origin);
  const rulesChanged = await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    await ensureTrackingSite(tx, member.workspaceId);
    const before = await findTrackingRules(tx, member.workspaceId);
    await saveTrackingSettings(tx, member.workspaceId, { ...settings, origins });
    const changed =
      before.manyPages !== settings.manyPages ||
      before.manyPagesDays !== settings.manyPagesDays ||
      before.pricingPatterns.join('\n') !== [...new Set(settings.pricingPatterns)].join('\n');
    if (changed) await markDirty(tx, member.workspaceId, visitorsOf(member.workspaceId));
    return changed;
  });
  if (rulesChanged) await deps.jobs.enqueueGraphRecompute(member.workspaceId);
  return getTracking(deps, member);
}

export function recentTrackedEvents(deps: TrackingDeps, member: Member): Promise<TTrackedEvent[]> {
  return deps.database.inWorkspace(member.workspaceId, (tx) =>
    findRecentTrackedEvents(tx, member.workspaceId, LIVE_EVENTS),
  );
}
