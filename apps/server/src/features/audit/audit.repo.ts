import type { AuditAction, TAuditEntry } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export type AuditRecord = {
  /** Null when no member acted (a job). */
  actorUserId: string | null;
  action: AuditAction;
  subject: string;
  details?: Record<string, unknown>;
};

/**
 * The one way to write the audit log, inside the transaction of what it records: an action that
 * commits is recorded, one that rolls back is not. The actor's address is copied, so an entry still
 * names a member after they leave.
 */
export async function recordAudit(tx: Tx, workspaceId: string, entry: AuditRecord) {
  await tx.execute(sql`
    insert into audit_log (workspace_id, actor_user_id, actor_email, action, subject, details)
    values (${workspaceId}::uuid, ${entry.actorUserId}::uuid,
            coalesce((select u.email from users u where u.workspace_id = ${workspaceId} and u.id = ${entry.actorUserId}::uuid),
                     'Warmpath'),
            ${entry.action}, ${entry.subject}, ${JSON.stringify(entry.details ?? {})}::jsonb)`);
}

type AuditRow = {
  id: string;
  at: Date | string;
  actor_email: string;
  action: string;
  subject: string;
  details: Record<string, unknown>;
};

/** A page of the log, newest first, and how many entries there are. */
export async function findAuditPage(
  tx: Tx,
  workspaceId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: TAuditEntry[]; totalCount: number }> {
  const result = await tx.execute<AuditRow>(sql`
    select id, at, actor_email, action, subject, details from audit_log
     where workspace_id = ${workspaceId}
     order by at desc, id desc
     limit ${page.limit} offset ${page.offset}`);
  const count = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from audit_log where workspace_id = ${workspaceId}`,
  );
  return {
    rows: result.rows.map((row) => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      actorEmail: row.actor_email,
      action: row.action,
      subject: row.subject,
      details: row.details,
    })),
    totalCount: count.rows[0]?.n ?? 0,
  };
}

/** Deletes the workspace's entries older than a year (through the owner's function: the app role cannot). */
export async function purgeOldAudit(tx: Tx): Promise<number> {
  const result = await tx.execute<{ n: number }>(sql`select purge_audit_log() as n`);
  return result.rows[0]?.n ?? 0;
}
