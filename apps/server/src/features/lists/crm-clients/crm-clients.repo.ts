import type { TCrmClient } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';

export async function listCrmClients(
  tx: Tx,
  workspaceId: string,
  options: { pattern: string | null; page: number; pageSize: number },
) {
  const matches = sql`workspace_id = ${workspaceId}
    and (${options.pattern}::text is null or company_name ilike ${options.pattern} or company_domain ilike ${options.pattern})`;
  const total = await tx.execute<{ n: number }>(sql`select count(*)::int as n from crm_clients where ${matches}`);
  const rows = await tx.execute<{ id: string; company_name: string; company_domain: string }>(sql`
    select id, company_name, company_domain from crm_clients where ${matches}
     order by lower(company_name), id
     limit ${options.pageSize} offset ${(options.page - 1) * options.pageSize}`);
  const clients: TCrmClient[] = rows.rows.map((row) => ({
    id: row.id,
    companyName: row.company_name,
    companyDomain: row.company_domain,
  }));
  return { totalCount: total.rows[0]?.n ?? 0, rows: clients };
}
