import type { TTrackEvent } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { listWorkspaceIds } from '../users/users.repo.ts';
import { deleteAnonymousVisits, type TrackedEvent, writeTrackedEvents } from './ingest.repo.ts';
import type { VisitLinks } from './visit-link.ts';

export type { TrackedEvent } from './ingest.repo.ts';

/** How far a browser's clock may be from ours before its time is replaced by the time we received it. */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** How long a page view that never got an identity is kept. */
export const ANONYMOUS_VISIT_DAYS = 30;

/**
 * The path of a page's address, and nothing else: the query (where the `wp_t` token, campaign tags
 * and sometimes e-mails travel) and the fragment are dropped.
 */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** Where the visitor came from, as origin and path: an http(s) address only, without its query. */
export function referrerOf(referrer: string | null | undefined): string | null {
  if (!referrer || !URL.canParse(referrer)) return null;
  const url = new URL(referrer);
  return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}${url.pathname}` : null;
}

/** The browser's time when it is within a few minutes of ours (a queued event is a little late), else ours. */
export function clampOccurredAt(sent: string | null | undefined, now: Date): Date {
  if (!sent) return now;
  const at = new Date(sent);
  return Math.abs(at.getTime() - now.getTime()) <= CLOCK_SKEW_MS ? at : now;
}

/**
 * The events of a request as they are stored: paths only, trusted times, a link token turned into the
 * person it names in this workspace (another workspace's, tampered or expired: nobody).
 */
export function toTrackedEvents(
  events: readonly TTrackEvent[],
  { workspaceId, visitLinks, now }: { workspaceId: string; visitLinks: VisitLinks; now: Date },
): TrackedEvent[] {
  return events.map((event) =>
    event.type === 'identify'
      ? {
          type: 'identify',
          anonymousId: event.anonymousId,
          email: event.email.trim().toLowerCase(),
          occurredAt: clampOccurredAt(event.occurredAt, now),
        }
      : {
          type: 'page',
          anonymousId: event.anonymousId,
          path: pathOf(event.url),
          referrer: referrerOf(event.referrer),
          personId: event.token ? visitLinks.personOf(event.token, workspaceId) : null,
          occurredAt: clampOccurredAt(event.occurredAt, now),
        },
  );
}

type Waiter = {
  events: readonly TrackedEvent[];
  /** Carries an identity (identify, a link token): written alone, see `createGroupCommit`. */
  identifies: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
};
type WorkspaceQueue = {
  waiters: Waiter[];
  queued: number;
  /** Transactions of this workspace being written, and whether one of them identifies. */
  running: number;
  identifying: boolean;
  /** A transaction is about to take waiters (next turn of the event loop). */
  scheduled: boolean;
};

/** Thrown when a workspace has more events waiting than `maxQueuedEvents`: the caller answers 429. */
export class IngestBusyError extends Error {
  constructor() {
    super('Too many events are waiting to be stored');
    this.name = 'IngestBusyError';
  }
}

const identifies = (event: TrackedEvent) => event.type === 'identify' || event.personId !== null;

export type GroupCommitOptions = {
  /** Stores one workspace's events in one transaction. */
  write: (workspaceId: string, events: readonly TrackedEvent[]) => Promise<void>;
  /** The most events one transaction takes; more wait for the next. */
  maxEventsPerFlush?: number;
  /** Transactions at once across workspaces: tracking never takes the whole pool. */
  maxInFlight?: number;
  /** Transactions at once for one workspace. */
  maxInFlightPerWorkspace?: number;
  /** Events a workspace may have waiting before new ones are refused (memory stays bounded). */
  maxQueuedEvents?: number;
};

/**
 * Group commit: requests hand their events over and wait; a transaction writes everything of a
 * workspace that arrived meanwhile, and each request is answered only once its events are committed.
 * Under load a batch grows while the previous ones are written, so the number of transactions stays
 * flat as the number of events grows; alone, a request waits for one transaction.
 *
 * Two transactions of a workspace may run at once, so the database writes one batch while this
 * process reads the next requests. Not when one carries an identity: it runs alone, so a page view
 * written beside it cannot miss the browser's new person (it would have read the mapping before the
 * identity committed, and the identity's attaching of earlier views would not see it yet).
 */
export function createGroupCommit({
  write,
  maxEventsPerFlush = 5_000,
  maxInFlight = 4,
  maxInFlightPerWorkspace = 2,
  maxQueuedEvents = 50_000,
}: GroupCommitOptions) {
  const queues = new Map<string, WorkspaceQueue>();
  /** Workspaces with events waiting for a free transaction slot, in arrival order. */
  const ready = new Set<string>();
  let inFlight = 0;
  let idle: (() => void) | null = null;

  const schedule = (workspaceId: string) => {
    const queue = queues.get(workspaceId);
    const head = queue?.waiters[0];
    if (!queue || !head || queue.scheduled || queue.identifying) return;
    if (queue.running >= maxInFlightPerWorkspace || (head.identifies && queue.running > 0)) return;
    if (inFlight >= maxInFlight) {
      ready.add(workspaceId);
      return;
    }
    queue.scheduled = true;
    queue.running += 1;
    inFlight += 1;
    // After the current turn of the event loop, so requests arriving together share a transaction.
    setImmediate(() => void flush(workspaceId, queue));
  };

  const flush = async (workspaceId: string, queue: WorkspaceQueue) => {
    queue.scheduled = false;
    // Alone when it starts with an identity (schedule saw to that); else up to the first identity.
    const alone = queue.waiters[0]?.identifies === true;
    queue.identifying = alone;
    const taken: Waiter[] = [];
    let count = 0;
    for (const next of queue.waiters) {
      if (taken.length > 0 && count + next.events.length > maxEventsPerFlush) break;
      if (next.identifies && !alone) break;
      taken.push(next);
      count += next.events.length;
    }
    queue.waiters.splice(0, taken.length);
    queue.queued -= count;
    // Another transaction of this workspace may start on what is left.
    schedule(workspaceId);
    try {
      await write(
        workspaceId,
        taken.flatMap((waiter) => waiter.events),
      );
      for (const waiter of taken) waiter.resolve();
    } catch (error) {
      for (const waiter of taken) waiter.reject(error);
    } finally {
      queue.running -= 1;
      if (alone) queue.identifying = false;
      inFlight -= 1;
      if (queue.waiters.length === 0 && queue.running === 0 && !queue.scheduled) queues.delete(workspaceId);
      else schedule(workspaceId);
      for (const waiting of ready) {
        if (inFlight >= maxInFlight) break;
        ready.delete(waiting);
        schedule(waiting);
      }
      if (inFlight === 0 && queues.size === 0) idle?.();
    }
  };

  return {
    /** Resolves once `events` are committed; rejects if their transaction failed. */
    submit(workspaceId: string, events: readonly TrackedEvent[]): Promise<void> {
      let queue = queues.get(workspaceId);
      if (!queue) {
        queue = { waiters: [], queued: 0, running: 0, identifying: false, scheduled: false };
        queues.set(workspaceId, queue);
      }
      if (queue.queued + events.length > maxQueuedEvents) return Promise.reject(new IngestBusyError());
      const committed = new Promise<void>((resolve, reject) => {
        queue.waiters.push({ events, identifies: events.some(identifies), resolve, reject });
      });
      queue.queued += events.length;
      schedule(workspaceId);
      return committed;
    },
    /** Resolves when nothing is waiting or being written (a closing server waits for it). */
    drain(): Promise<void> {
      if (inFlight === 0 && queues.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const previous = idle;
        idle = () => {
          idle = null;
          previous?.();
          resolve();
        };
      });
    },
  };
}
export type GroupCommit = ReturnType<typeof createGroupCommit>;

/** The group commit of the product: each workspace's events in a transaction under its row-level security. */
export function createIngest(
  database: Database,
  options: Omit<GroupCommitOptions, 'write'> & { onStored?: (workspaceId: string, people: string[]) => void } = {},
) {
  const { onStored, ...limits } = options;
  return createGroupCommit({
    ...limits,
    write: async (workspaceId, events) => {
      const { people } = await database.inWorkspace(workspaceId, (tx) => writeTrackedEvents(tx, workspaceId, events));
      onStored?.(workspaceId, people);
    },
  });
}

/** Rows deleted per statement: a first purge of a large backlog never holds long locks. */
const PURGE_CHUNK = 10_000;

/**
 * Deletes the page views older than 30 days that count for nobody (never identified, no company),
 * workspace by workspace under each one's row-level security. Returns how many went. Meant to run
 * daily; idempotent.
 */
export async function purgeAnonymousVisits(database: Database): Promise<number> {
  let total = 0;
  for (const workspaceId of await listWorkspaceIds(database)) {
    for (;;) {
      const deleted = await database.inWorkspace(workspaceId, (tx) =>
        deleteAnonymousVisits(tx, workspaceId, ANONYMOUS_VISIT_DAYS, PURGE_CHUNK),
      );
      total += deleted;
      if (deleted < PURGE_CHUNK) break;
    }
  }
  return total;
}
