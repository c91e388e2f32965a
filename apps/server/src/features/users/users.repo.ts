import type { OnboardingStep, Role, TMe } from '@warmpath/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Db, Tx } from '../../db/client.ts';
import {
  integrations,
  mailCorrespondents,
  personas,
  privacyBlocklist,
  targetingSchemes,
  userIdentities,
  users,
  workspaceDomains,
  workspaces,
} from '../../db/schema/index.ts';
import { markDirty, markNeighbourhoodDirty } from '../../graph/dirty.ts';
import { recordMember } from '../../graph/evidence.repo.ts';
import { containsPattern } from '../../lib/like-pattern.ts';

/**
 * The workspace and role behind an identity-provider subject, or null if it has not registered. Every
 * authenticated request asks this (unless plugins/session-cache.ts knows): two round trips, the global
 * identity and then the user's role read under row-level security in one.
 */
export async function findIdentity(
  database: Database,
  subject: string,
): Promise<{ workspaceId: string; userId: string; role: Role } | null> {
  const [identity] = await database.db
    .select({ workspaceId: userIdentities.workspaceId, userId: userIdentities.userId })
    .from(userIdentities)
    .where(eq(userIdentities.idpSubject, subject));
  if (!identity) return null;
  const [user] = await database.selectInWorkspace<{ role: Role }>(
    identity.workspaceId,
    sql`select role from users where workspace_id = ${identity.workspaceId}::uuid and id = ${identity.userId}::uuid`,
  );
  return user ? { ...identity, role: user.role } : null;
}

/**
 * Every workspace that has a user, from the global identity table: an operator's command may list
 * them without a workspace context.
 */
export async function listWorkspaceIds(database: Database) {
  const rows = await database.db
    .selectDistinct({ workspaceId: userIdentities.workspaceId })
    .from(userIdentities)
    .orderBy(userIdentities.workspaceId);
  return rows.map((row) => row.workspaceId);
}

/**
 * The users with this e-mail in any workspace (an operator's lookup): the workspaces come from the
 * global identity table, and each is searched under its own row-level-security context.
 */
export async function findUsersByEmail(database: Database, email: string) {
  const normalized = email.trim().toLowerCase();
  const found: { workspaceId: string; userId: string; role: Role }[] = [];
  for (const workspaceId of await listWorkspaceIds(database)) {
    const rows = await database.inWorkspace(workspaceId, (tx) =>
      tx
        .select({ userId: users.id, role: users.role })
        .from(users)
        .where(and(eq(users.workspaceId, workspaceId), sql`lower(${users.email}) = ${normalized}`)),
    );
    found.push(...rows.map((row) => ({ workspaceId, userId: row.userId, role: row.role as Role })));
  }
  return found;
}

// The member as `/me` shows them: PostgreSQL's read_me (migration 0058) sets the workspace for
// row-level security and reads the row in one statement, whose plan PL/pgSQL keeps per connection.
const meQuery = (workspaceId: string, userId: string) =>
  sql`select * from read_me(${workspaceId}::uuid, ${userId}::uuid)`;

type MeRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  avatar: string | null;
  role: Role;
  workspaceId: string;
  hasCompletedOnboarding: boolean;
  onboardingStep: OnboardingStep;
  linkedinConnected: boolean;
  targetingSet: boolean;
  googleConnected: boolean;
  googleSettings: string | null;
  hubspotConnected: boolean;
  slackConnected: boolean;
  webhookSettings: string | null;
};

function toMe(row: MeRow): TMe {
  const webhookUrl = row.webhookSettings ? ((JSON.parse(row.webhookSettings) as { url?: string }).url ?? null) : null;
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    avatar: row.avatar,
    role: row.role,
    workspaceId: row.workspaceId,
    hasCompletedOnboarding: row.hasCompletedOnboarding,
    onboardingStep: row.onboardingStep,
    isGoogleConnected: row.googleConnected,
    googleAccountEmail: row.googleConnected ? googleAccountEmail(row.googleSettings) : null,
    isLinkedinConnected: row.linkedinConnected,
    isHubspotConnected: row.hubspotConnected,
    isSlackConnected: row.slackConnected,
    isWebhookConnected: webhookUrl !== null,
    webhookUrl,
    isTargetedAccountsSet: row.targetingSet,
  };
}

export async function findMe(tx: Tx, workspaceId: string, userId: string): Promise<TMe | null> {
  const { rows } = await tx.execute<MeRow>(meQuery(workspaceId, userId));
  return rows[0] ? toMe(rows[0]) : null;
}

/**
 * The same as `findMe`, in one round trip and no transaction (`/me`, which every page asks first):
 * read_me scopes itself to the workspace. A named statement: each connection parses it once.
 */
export async function readMe(database: Database, workspaceId: string, userId: string): Promise<TMe | null> {
  const { rows } = await database.pool.query<MeRow>({
    name: 'read-me',
    text: 'select * from read_me($1::uuid, $2::uuid)',
    values: [workspaceId, userId],
  });
  return rows[0] ? toMe(rows[0]) : null;
}

/** The connected Google account's address, as the connection's settings keep it (google.repo.ts). */
function googleAccountEmail(settings: string | null): string | null {
  if (!settings) return null;
  const parsed = z.object({ email: z.string().nullable() }).safeParse(JSON.parse(settings));
  return parsed.success ? parsed.data.email : null;
}

/** Workspaces that already own any of these domains (global lookup, no tenant data). */
export async function findDomainOwners(db: Db, domains: string[]) {
  if (domains.length === 0) return [];
  return db.select().from(workspaceDomains).where(inArray(workspaceDomains.domain, domains));
}

/** The workspace that lets anyone with this domain join, if any. */
export async function findJoinableWorkspace(database: Database, domain: string) {
  const [owner] = await findDomainOwners(database.db, [domain]);
  if (!owner) return null;
  const [workspace] = await database.inWorkspace(owner.workspaceId, (tx) =>
    tx
      .select({ id: workspaces.id, name: workspaces.name, allowDomainJoin: workspaces.allowDomainJoin })
      .from(workspaces)
      .where(eq(workspaces.id, owner.workspaceId)),
  );
  return workspace?.allowDomainJoin ? { id: workspace.id, name: workspace.name } : null;
}

export async function insertWorkspace(
  tx: Tx,
  workspace: { id: string; name: string; domains: string[]; allowDomainJoin: boolean },
) {
  await tx.insert(workspaces).values(workspace);
  // A workspace may own no domain (a demo; `cli seed-demo` for a free mailbox address).
  if (workspace.domains.length === 0) return;
  await tx.insert(workspaceDomains).values(workspace.domains.map((domain) => ({ domain, workspaceId: workspace.id })));
}

export async function updateUserNames(
  tx: Tx,
  workspaceId: string,
  userId: string,
  names: { firstName: string; lastName: string },
) {
  await tx
    .update(users)
    .set(names)
    .where(and(eq(users.workspaceId, workspaceId), eq(users.id, userId)));
}

export async function insertUser(
  tx: Tx,
  user: {
    workspaceId: string;
    idpSubject: string;
    firstName: string;
    lastName: string;
    email: string;
    role: Role;
    joinedVia?: 'signup' | 'invite' | 'domain';
  },
) {
  const [created] = await tx.insert(users).values(user).returning({ id: users.id });
  if (!created) throw new Error('insert returned no row');
  await tx
    .insert(userIdentities)
    .values({ idpSubject: user.idpSubject, workspaceId: user.workspaceId, userId: created.id });
  await recordMember(tx, user.workspaceId, {
    email: user.email,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
  });
  return created.id;
}

const teammateColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  avatar: users.avatar,
  role: users.role,
  joinedVia: users.joinedVia,
  hasCompletedOnboarding: users.hasCompletedOnboarding,
  linkedinConnectedAt: users.linkedinConnectedAt,
  googleConnected: sql<boolean>`exists (select 1 from ${integrations} i where i.workspace_id = users.workspace_id and i.user_id = users.id and i.kind = 'google')`,
};

export type TeammateRow = Awaited<ReturnType<typeof findTeammates>>[number];

/** The workspace's users, optionally matching a search on name or e-mail, by name. */
export async function findTeammates(tx: Tx, workspaceId: string, searchTerm?: string) {
  const pattern = containsPattern(searchTerm);
  return tx
    .select(teammateColumns)
    .from(users)
    .where(
      and(
        eq(users.workspaceId, workspaceId),
        pattern
          ? sql`(${users.firstName} || ' ' || ${users.lastName} ilike ${pattern} or ${users.email} ilike ${pattern})`
          : undefined,
      ),
    )
    .orderBy(users.firstName, users.lastName, users.email);
}

export async function findTeammate(tx: Tx, workspaceId: string, userId: string) {
  const [row] = await tx
    .select(teammateColumns)
    .from(users)
    .where(and(eq(users.workspaceId, workspaceId), eq(users.id, userId)));
  return row ?? null;
}

/** Locks the workspace's admin rows, so two admins demoting each other cannot leave none. */
export async function lockAdmins(tx: Tx, workspaceId: string) {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.workspaceId, workspaceId), eq(users.role, 'admin')))
    .for('update');
  return rows.map((row) => row.id);
}

export async function setRole(tx: Tx, workspaceId: string, userId: string, role: Role) {
  await tx
    .update(users)
    .set({ role })
    .where(and(eq(users.workspaceId, workspaceId), eq(users.id, userId)));
}

/** Removes a user and everything that is only theirs; the sign-in account stays with the provider. */
export async function deleteUser(tx: Tx, workspaceId: string, userId: string) {
  await tx
    .delete(targetingSchemes)
    .where(and(eq(targetingSchemes.workspaceId, workspaceId), eq(targetingSchemes.userId, userId)));
  await tx.delete(personas).where(and(eq(personas.workspaceId, workspaceId), eq(personas.userId, userId)));
  await tx.delete(integrations).where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.userId, userId)));
  // Their blocklist and their record of who they corresponded with are theirs alone.
  await tx
    .delete(privacyBlocklist)
    .where(and(eq(privacyBlocklist.workspaceId, workspaceId), eq(privacyBlocklist.userId, userId)));
  await tx
    .delete(mailCorrespondents)
    .where(and(eq(mailCorrespondents.workspaceId, workspaceId), eq(mailCorrespondents.userId, userId)));
  await tx
    .delete(userIdentities)
    .where(and(eq(userIdentities.workspaceId, workspaceId), eq(userIdentities.userId, userId)));
  // A leaving member takes their evidence with them (issue 22): what their mailbox, calendar, contacts
  // and LinkedIn export said. Everyone it named is marked first, so their edges through it are rebuilt
  // without it; teammates' own copies of the same threads are their own evidence and stay.
  await markDirty(
    tx,
    workspaceId,
    sql`select ip.person_id from interaction_participants ip
          join interactions i on i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
         where i.workspace_id = ${workspaceId} and i.source_user_id = ${userId}
        union
        select person_id from linkedin_connections where workspace_id = ${workspaceId} and user_id = ${userId}
        union
        select person_id from address_book_entries where workspace_id = ${workspaceId} and user_id = ${userId}`,
  );
  await tx.execute(sql`
    delete from interaction_participants ip using interactions i
     where ip.workspace_id = ${workspaceId} and i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
       and i.source_user_id = ${userId}`);
  await tx.execute(sql`delete from interactions where workspace_id = ${workspaceId} and source_user_id = ${userId}`);
  await tx.execute(sql`delete from linkedin_connections where workspace_id = ${workspaceId} and user_id = ${userId}`);
  await tx.execute(sql`delete from address_book_entries where workspace_id = ${workspaceId} and user_id = ${userId}`);
  await tx.execute(sql`delete from dead_addresses where workspace_id = ${workspaceId} and source_user_id = ${userId}`);
  await tx.execute(sql`delete from google_sync_state where workspace_id = ${workspaceId} and user_id = ${userId}`);
  // The person stays (others may know them); their edges go with the next recompute of their neighbourhood.
  await markNeighbourhoodDirty(
    tx,
    workspaceId,
    sql`select u.person_id as id from users u
         where u.workspace_id = ${workspaceId} and u.id = ${userId} and u.person_id is not null`,
  );
  await tx.delete(users).where(and(eq(users.workspaceId, workspaceId), eq(users.id, userId)));
}

export async function setOnboarding(
  tx: Tx,
  workspaceId: string,
  userId: string,
  progress: { onboardingStep: OnboardingStep; hasCompletedOnboarding: boolean; recommendationsRanOn?: null },
) {
  await tx
    .update(users)
    .set(progress)
    .where(and(eq(users.workspaceId, workspaceId), eq(users.id, userId)));
}

/** Whether the user finished onboarding; null for no such user. */
export async function hasCompletedOnboarding(tx: Tx, workspaceId: string, userId: string) {
  const [row] = await tx
    .select({ done: users.hasCompletedOnboarding })
    .from(users)
    .where(and(eq(users.workspaceId, workspaceId), eq(users.id, userId)));
  return row ? row.done : null;
}
