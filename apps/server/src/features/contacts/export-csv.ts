import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { ENGAGEMENT_LABELS, ENGAGEMENTS, SIGNAL_LABELS, type TFilterItem } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { signalsOfMask } from '../../graph/graph.sql.ts';
import { proximityBand } from '../../graph/proximity.ts';
import { csvLine } from '../../lib/csv-write.ts';
import type { Member } from '../../plugins/auth.ts';
import { compileFilters } from './network-filters.ts';

export const EXPORT_COLUMNS = [
  'Name',
  'Email',
  'LinkedIn URL',
  'Job title',
  'Department',
  'Company',
  'Company size',
  'Industry',
  'Engagement',
  'Proximity',
  'Proximity band',
  'Allies',
  'Signals',
] as const;

/** Rows fetched per round trip: enough to amortise it, few enough to keep memory flat. */
const FETCH_SIZE = 5000;

type ExportRow = {
  full_name: string;
  email: string | null;
  linkedin_url: string | null;
  job_title: string | null;
  department: string | null;
  company_name: string | null;
  company_size: string | null;
  industry: string | null;
  engagement: number;
  proximity: number;
  connector_ids: string[];
  signal_mask: number;
};

/**
 * Streams the filtered network table as CSV into `out`, in the table's order, through a server-side
 * cursor: memory stays flat whatever the size, and a slow client slows the cursor (backpressure)
 * instead of filling memory. Connector names come from one small map rather than a join per row.
 */
export async function exportNetworkCsv(database: Database, member: Member, filters: TFilterItem[], out: Writable) {
  const ws = member.workspaceId;
  await database.inWorkspace(ws, async (tx) => {
    const compiled = await compileFilters(tx, member, filters);
    const names = await tx.execute<{ id: string; name: string }>(sql`
      select p.id, coalesce(u.first_name || ' ' || u.last_name, p.full_name) as name
        from people p
        left join users u on u.workspace_id = p.workspace_id and lower(u.email) = p.email
       where p.workspace_id = ${ws}
         and (u.id is not null or exists (select 1 from clients c where c.workspace_id = ${ws} and c.person_id = p.id and c.map_network))`);
    const connectorName = new Map(names.rows.map((row) => [row.id, row.name]));
    // The whole result is wanted, not its first rows fast: plan the cursor for total time, as COPY is.
    await tx.execute(sql`set local cursor_tuple_fraction = 1.0`);
    await tx.execute(sql`
      declare network_export no scroll cursor for
      select p.full_name, p.email, p.linkedin_url, r.job_title, r.department, co.name as company_name,
             r.company_size, r.industry, r.engagement, r.proximity, r.connector_ids, r.signal_mask
        from network_rows r
        join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
        left join companies co on co.workspace_id = r.workspace_id and co.id = r.company_id
       where ${compiled.where()}
       order by r.proximity desc, r.prospect_id`);
    const write = async (chunk: string) => {
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      // The client went away: stop reading, and let the transaction end.
      if (out.destroyed) throw new Error('export cancelled: the client closed the connection');
    };
    await write(csvLine(EXPORT_COLUMNS));
    for (;;) {
      const batch = await tx.execute<ExportRow>(sql.raw(`fetch ${FETCH_SIZE} from network_export`));
      if (batch.rows.length === 0) break;
      let chunk = '';
      for (const row of batch.rows) {
        const engagement = ENGAGEMENTS[row.engagement] ?? 'NEVER_MET';
        chunk += csvLine([
          row.full_name,
          row.email,
          row.linkedin_url,
          row.job_title,
          row.department,
          row.company_name,
          row.company_size,
          row.industry,
          ENGAGEMENT_LABELS[engagement],
          row.proximity,
          proximityBand(row.proximity),
          row.connector_ids
            .map((id) => connectorName.get(id) ?? '')
            .filter(Boolean)
            .join('; '),
          signalsOfMask(row.signal_mask)
            .map((type) => SIGNAL_LABELS[type])
            .join('; '),
        ]);
      }
      await write(chunk);
    }
  });
}
