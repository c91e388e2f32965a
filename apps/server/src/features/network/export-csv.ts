import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ENGAGEMENT_DEFINITIONS, SIGNAL_LABELS, SIGNAL_TYPES, signalBit, type TFilterItem } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from '../../db/client.ts';
import { inlineSql } from '../../db/inline-sql.ts';
import { connectorsCte, membersCte, proximityBandSql } from '../../graph/graph.sql.ts';
import { FORMULA_START } from '../../lib/csv-write.ts';
import type { Member } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import { NETWORK_ORDER } from './network.repo.ts';
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

/** A text cell a spreadsheet would run as a formula gets a leading quote (the same rule as lib/csv-write.ts). */
const defused = (cell: SQL) =>
  sql`case when left(${cell}, 1) = any(${sql.param(FORMULA_START)}::text[]) then '''' || ${cell} else ${cell} end`;

const labelled = (value: SQL, labels: readonly (readonly [number, string])[]) =>
  sql`case ${value} ${sql.join(
    labels.map(([key, label]) => sql`when ${key}::int then ${label}::text`),
    sql` `,
  )} end`;

const signalLabels = (mask: SQL) =>
  sql`concat_ws('; ', ${sql.join(
    SIGNAL_TYPES.map(
      (type) => sql`case when ${mask} & ${signalBit(type)}::int <> 0 then ${SIGNAL_LABELS[type]}::text end`,
    ),
    sql`, `,
  )})`;

/**
 * The audit log's entry for an export, written before it starts (a download cut short has still shown
 * rows), on the primary: the export itself may read from the replica, which refuses writes.
 */
export function recordNetworkExport(database: Database, member: Member, filters: TFilterItem[]) {
  return database.inWorkspace(member.workspaceId, (tx) =>
    recordAudit(tx, member.workspaceId, {
      actorUserId: member.userId,
      action: 'network.exported',
      subject: 'Network table (CSV)',
      details: { filters: filters.length },
    }),
  );
}

/**
 * Streams the filtered network table as CSV into `out`, in the table's order. PostgreSQL writes the
 * CSV itself (COPY ... TO STDOUT: quoting, labels, formula defusing and ally names all in the one
 * statement), and the bytes are piped to the client with backpressure: memory stays flat whatever the
 * size, and the rate is close to a bare COPY of the same rows (bench/network.ts measures both).
 */
export async function exportNetworkCsv(database: Database, member: Member, filters: TFilterItem[], out: Writable) {
  const ws = member.workspaceId;
  const client = await database.pool.connect();
  // Closing the connection (below) fails what was in flight on it, which is handled there.
  client.on('error', () => {});
  let finished = false;
  try {
    await client.query('begin');
    // A download lasts as long as the client takes to read it: the requests' statement time-out would
    // cut a large export short. An abandoned one is ended below, so the connection is not held.
    await client.query(`select set_config('app.workspace_id', $1, true), set_config('statement_timeout', '0', true)`, [
      ws,
    ]);
    const compiled = await database.inWorkspace(ws, (tx) => compileFilters(tx, member, filters));
    // The names of the workspace's connectors (members and allies, `connectorsCte`), as one hstore map
    // the statement looks each row's connectors up in, all of a row's ids in one call: a join per row to
    // a table of them cost 15 times COPY, a jsonb lookup per id 3 times the hstore's. Read from the
    // connectors, a few hundred, by primary key: never a walk of the workspace's people.
    const names = await database.inWorkspace(ws, (tx) =>
      tx.execute<{ names: string | null }>(sql`
        with ${membersCte(ws)}, ${connectorsCte(ws)}
        select hstore(array_agg(p.id::text), array_agg(coalesce(u.first_name || ' ' || u.last_name, p.full_name))) as names
          from (select distinct person_id from connectors) c
          join people p on p.workspace_id = ${ws} and p.id = c.person_id
          left join users u on u.workspace_id = ${ws} and u.person_id = p.id`),
    );
    const connectorNames = sql`${names.rows[0]?.names ?? ''}::hstore`;
    const cells = [
      defused(sql`p.full_name`),
      defused(sql`p.email`),
      defused(sql`p.linkedin_url`),
      defused(sql`r.job_title`),
      defused(sql`r.department`),
      defused(sql`co.name`),
      defused(sql`r.company_size`),
      defused(sql`r.industry`),
      labelled(
        sql`r.engagement`,
        ENGAGEMENT_DEFINITIONS.map(({ code, label }) => [code, label] as const),
      ),
      sql`r.proximity`,
      proximityBandSql(sql`r.proximity`, 'name'),
      defused(sql`array_to_string(${connectorNames} -> r.connector_ids::text[], '; ')`),
      signalLabels(sql`r.signal_mask`),
    ];
    const query = sql`
      select ${sql.join(
        EXPORT_COLUMNS.map((column, index) => sql`${cells[index]} as ${sql.identifier(column)}`),
        sql`, `,
      )}
        from ${compiled.rows}
        join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
        left join companies co on co.workspace_id = r.workspace_id and co.id = r.company_id
       where ${compiled.where()}
       order by ${NETWORK_ORDER}`;
    await pipeline(client.query(copyTo(`copy (${inlineSql(query)}) to stdout with (format csv, header true)`)), out);
    await client.query('commit');
    finished = true;
  } finally {
    // A failed or cancelled download may leave the COPY running on the connection, and a rollback
    // would wait behind the rows still to come: closing the connection ends the statement and its
    // transaction at once, so nothing stays 'idle in transaction' and the pool can close.
    client.release(!finished);
  }
}
