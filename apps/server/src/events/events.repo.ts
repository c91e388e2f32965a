import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { deliveries, deliveryAttempts, events, integrations } from '../db/schema/index.ts';
import { membersCte } from '../graph/graph.sql.ts';

/** Where a delivery goes: an event's destinations, or a member's Gmail. */
export type DeliveryKind = (typeof deliveries.$inferSelect)['destination'];
/** The destinations that receive events, each connected by an admin. */
export const DESTINATIONS = ['webhook', 'slack', 'hubspot'] as const satisfies readonly DeliveryKind[];
export type Destination = (typeof DESTINATIONS)[number];

/** The workspace's connected destinations, with their settings as stored (JSON) and sealed tokens. */
export async function findDestinations(tx: Tx, workspaceId: string) {
  return tx
    .select({ kind: integrations.kind, settings: integrations.settings, sealedTokens: integrations.sealedTokens })
    .from(integrations)
    .where(and(eq(integrations.workspaceId, workspaceId), inArray(integrations.kind, DESTINATIONS)));
}

export async function insertEvent(tx: Tx, workspaceId: string, type: string, data: Record<string, unknown>) {
  const [row] = await tx
    .insert(events)
    .values({ workspaceId, type, data })
    .returning({ id: events.id, occurredAt: events.occurredAt });
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function insertDelivery(
  tx: Tx,
  workspaceId: string,
  subject: { eventId: string } | { emailId: string },
  destination: DeliveryKind,
) {
  const [row] = await tx
    .insert(deliveries)
    .values({ workspaceId, ...subject, destination, nextAttemptAt: sql`now()` })
    .returning({ id: deliveries.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/**
 * A delivery with its event (null for an e-mail); `lock` holds it until the transaction ends, so
 * attempts never cross.
 */
export async function findDelivery(tx: Tx, workspaceId: string, deliveryId: string, lock = false) {
  const query = tx
    .select({ delivery: deliveries, event: events })
    .from(deliveries)
    .leftJoin(events, and(eq(events.workspaceId, deliveries.workspaceId), eq(events.id, deliveries.eventId)))
    .where(and(eq(deliveries.workspaceId, workspaceId), eq(deliveries.id, deliveryId)));
  const [row] = lock ? await query.for('update', { of: deliveries }) : await query;
  return row ?? null;
}

export async function updateDelivery(
  tx: Tx,
  workspaceId: string,
  deliveryId: string,
  change: Partial<
    Pick<
      typeof deliveries.$inferInsert,
      'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'deliveredAt' | 'sendingSince'
    >
  >,
) {
  await tx
    .update(deliveries)
    .set(change)
    .where(and(eq(deliveries.workspaceId, workspaceId), eq(deliveries.id, deliveryId)));
}

export async function insertAttempt(tx: Tx, attempt: typeof deliveryAttempts.$inferInsert) {
  await tx.insert(deliveryAttempts).values(attempt);
}

/** The latest attempts to one destination, with their event's type: the webhook page's log. */
export async function findRecentAttempts(tx: Tx, workspaceId: string, destination: DeliveryKind, limit: number) {
  return tx
    .select({
      id: deliveryAttempts.id,
      deliveryId: deliveryAttempts.deliveryId,
      attemptedAt: deliveryAttempts.attemptedAt,
      statusCode: deliveryAttempts.statusCode,
      durationMs: deliveryAttempts.durationMs,
      error: deliveryAttempts.error,
      nextAttemptAt: deliveryAttempts.nextAttemptAt,
      eventType: sql<string>`coalesce(${events.type}, 'email')`,
      deliveryStatus: deliveries.status,
    })
    .from(deliveryAttempts)
    .innerJoin(
      deliveries,
      and(eq(deliveries.workspaceId, deliveryAttempts.workspaceId), eq(deliveries.id, deliveryAttempts.deliveryId)),
    )
    .leftJoin(events, and(eq(events.workspaceId, deliveries.workspaceId), eq(events.id, deliveries.eventId)))
    .where(and(eq(deliveryAttempts.workspaceId, workspaceId), eq(deliveryAttempts.destination, destination)))
    .orderBy(desc(deliveryAttempts.attemptedAt))
    .limit(limit);
}

/** Deliveries to a destination that are queued and have not been tried yet. */
export async function countWaitingDeliveries(tx: Tx, workspaceId: string, destination: DeliveryKind) {
  const [row] = await tx
    .select({ waiting: count() })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.workspaceId, workspaceId),
        eq(deliveries.destination, destination),
        eq(deliveries.status, 'pending'),
        eq(deliveries.attempts, 0),
      ),
    );
  return row?.waiting ?? 0;
}

export type EventPersonRow = {
  id: string;
  name: string;
  email: string | null;
  title: string | null;
  company_name: string | null;
  company_domain: string | null;
};

/**
 * People as events name them: a colleague by their user's name and address (as the product shows
 * them), anyone else by their own. Absent ids are left out.
 */
export async function findEventPeople(tx: Tx, workspaceId: string, personIds: readonly string[]) {
  if (personIds.length === 0) return [];
  const result = await tx.execute<EventPersonRow>(sql`
    with ${membersCte(workspaceId)}
    select p.id, coalesce(u.first_name || ' ' || u.last_name, p.full_name) as name,
           coalesce(u.email, p.email) as email, p.title, co.name as company_name,
           co.domain as company_domain
      from people p
      left join members m on m.person_id = p.id
      left join users u on u.workspace_id = p.workspace_id and u.id = m.user_id
      left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
     where p.workspace_id = ${workspaceId} and p.id = any(${sql.param([...personIds])}::uuid[])`);
  return result.rows;
}

/** A member of the workspace as events name them. */
export async function findEventUser(tx: Tx, workspaceId: string, userId: string) {
  const result = await tx.execute<{ id: string; name: string; email: string }>(sql`
    select id, first_name || ' ' || last_name as name, email from users
     where workspace_id = ${workspaceId} and id = ${userId}`);
  return result.rows[0] ?? null;
}
