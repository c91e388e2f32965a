import type { Database } from '../../db/client.ts';
import { findTrackingSite, isTrackedOrigin } from './ingest.repo.ts';

export type TrackingSite = { workspaceId: string; origins: ReadonlySet<string> };

/** `https://www.acme.com/` and `https://www.acme.com` are one origin; anything unparsable is none. */
export function originOf(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const origin = new URL(value).origin;
  return origin === 'null' ? null : origin;
}

type Entry<T> = { value: T; at: number };

/**
 * A short-lived cache of lookups in front of the database, so a busy site costs no query per event:
 * a hit is kept `hitMs`, a miss (or a refusal) only `missMs`, so an origin the admin just added works
 * within seconds. Concurrent lookups of one id share one query; at most `max` ids are held.
 */
function createLookupCache<T>(
  load: (id: string) => Promise<T>,
  isHit: (value: T) => boolean,
  { hitMs, missMs, max }: { hitMs: number; missMs: number; max: number },
) {
  const entries = new Map<string, Entry<T>>();
  const loading = new Map<string, Promise<T>>();
  return async (id: string, stillGood: (value: T) => boolean = isHit): Promise<T> => {
    const now = performance.now();
    const entry = entries.get(id);
    if (entry && now - entry.at < (stillGood(entry.value) ? hitMs : missMs)) return entry.value;
    const pending = loading.get(id);
    if (pending) return pending;
    const loaded = load(id).then(
      (value) => {
        loading.delete(id);
        entries.delete(id);
        if (entries.size >= max) {
          const oldest = entries.keys().next().value;
          if (oldest !== undefined) entries.delete(oldest);
        }
        entries.set(id, { value, at: performance.now() });
        return value;
      },
      (error: unknown) => {
        loading.delete(id);
        throw error;
      },
    );
    loading.set(id, loaded);
    return loaded;
  };
}

const CACHE = { hitMs: 30_000, missMs: 2_000, max: 10_000 };

/** Tracking keys to their workspace and allowed origins, and origins any site allows (for preflights). */
export function createSiteDirectory(database: Database) {
  const sites = createLookupCache<TrackingSite | null>(
    async (key) => {
      const site = await findTrackingSite(database, key);
      if (!site) return null;
      const origins = site.origins.flatMap((origin) => originOf(origin) ?? []);
      return { workspaceId: site.workspaceId, origins: new Set(origins) };
    },
    (site) => site !== null,
    CACHE,
  );
  const origins = createLookupCache<boolean>(
    (origin) => isTrackedOrigin(database, origin),
    (known) => known,
    CACHE,
  );
  return {
    /** The key's site, looked up again if it was cached before `origin` was allowed. */
    site: (key: string, origin: string | null) =>
      sites(key, (site) => site !== null && origin !== null && site.origins.has(origin)),
    isTrackedOrigin: origins,
  };
}
export type SiteDirectory = ReturnType<typeof createSiteDirectory>;
