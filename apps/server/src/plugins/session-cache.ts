import type { Role } from '@warmpath/shared';

/** Where PostgreSQL tells of a member's role change or removal (migration 0057): `workspaceId:userId`. */
export const MEMBERS_CHANNEL = 'warmpath_members';

export type Identity = { workspaceId: string; userId: string; role: Role };

type Verified = { subject: string; email: string | null; expiresAt: number };
type Known = { identity: Identity; expiresAt: number };

/**
 * What a request's authentication found, kept a few seconds so the next request of the same person
 * pays neither the token's signature check (80 µs of CPU for RS256) nor the database round trip of
 * their membership. Bounded: past `max` entries the oldest goes.
 *
 * - A verified token is kept until it expires, at most `tokenTtlMs`: a signature stays valid.
 * - A member's workspace and role are kept `memberTtlMs` (5 s by default) and forgotten at once when
 *   the database says they changed (`forgetMember`, from the NOTIFY of users' role changes and
 *   removals, migration 0057). So a removed member loses access when the notice arrives (milliseconds),
 *   and never later than `memberTtlMs` should the notice be lost. A caller who has not registered is
 *   never kept: their registration must show at once.
 */
export function createSessionCache(options: { max?: number; tokenTtlMs?: number; memberTtlMs?: number } = {}) {
  const max = options.max ?? 10_000;
  const tokenTtlMs = options.tokenTtlMs ?? 60_000;
  const memberTtlMs = options.memberTtlMs ?? 5_000;
  const tokens = new Map<string, Verified>();
  const members = new Map<string, Known>();

  const bounded = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > max) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  };
  const fresh = <V extends { expiresAt: number }>(map: Map<string, V>, key: string) => {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry;
    map.delete(key);
    return undefined;
  };

  return {
    /** The caller of a token verified before and not yet expired. */
    caller: (token: string) => {
      const entry = fresh(tokens, token);
      return entry && { subject: entry.subject, email: entry.email };
    },
    /** `expiresAtSeconds` is the token's `exp`. */
    verified: (token: string, caller: { subject: string; email: string | null }, expiresAtSeconds: number) => {
      bounded(tokens, token, { ...caller, expiresAt: Math.min(expiresAtSeconds * 1000, Date.now() + tokenTtlMs) });
    },
    identity: (subject: string) => fresh(members, subject)?.identity,
    remember: (subject: string, identity: Identity) => {
      bounded(members, subject, { identity, expiresAt: Date.now() + memberTtlMs });
    },
    /** The member's role changed or they were removed: their next request reads the database. */
    forgetMember: (workspaceId: string, userId: string) => {
      for (const [subject, entry] of members) {
        if (entry.identity.workspaceId === workspaceId && entry.identity.userId === userId) members.delete(subject);
      }
    },
    /** Notices may have been missed (the listening connection was lost): nobody is trusted from memory. */
    forgetMembers: () => members.clear(),
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
