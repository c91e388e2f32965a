import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ENGAGEMENT_DEFINITIONS, SIGNAL_LABELS, SIGNAL_TYPES, signalBit, type TFilterItem } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from '../../db/client.ts';
import { proximityBandSql } from '../../graph/graph.sql.ts';
import { FORMULA_START } from '../../lib/csv-write.ts';
import type { Member } from '../../plugins/auth.ts';
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

const dialect = new PgDialect();
const literal = (text: string) => sql.raw(pg.escapeLiteral(text));

/** A text cell a spreadsheet would run as a formula gets a leading quote (the same rule as lib/csv-write.ts). */
const defused = (cell: SQL) =>
  sql`case when left(${cell}, 1) = any(${literal(arrayText(FORMULA_START))}::text[]) then '''' || ${cell} else ${cell} end`;

const labelled = (value: SQL, labels: readonly (readonly [number | string, string])[]) =>
  sql`case ${value} ${sql.join(
    labels.map(([key, label]) => sql`when ${sql.raw(String(key))} then ${literal(label)}`),
    sql` `,
  )} end`;

const signalLabels = (mask: SQL) =>
  sql`concat_ws('; ', ${sql.join(
    SIGNAL_TYPES.map(
      (type) =>
        sql`case when ${mask} & ${sql.raw(String(signalBit(type)))} <> 0 then ${literal(SIGNAL_LABELS[type])} end`,
    ),
    sql`, `,
  )})`;

/** A PostgreSQL array literal's text: every element double-quoted, so any value survives. */
function arrayText(values: readonly unknown[]): string {
  const element = (value: unknown) =>
    value === null || value === undefined
      ? 'NULL'
      : `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return `{${values.map(element).join(',')}}`;
}

/**
 * The export's query with every parameter inlined as an escaped literal: COPY takes no parameters.
 * The filters' values are user input; `escapeLiteral` quotes them and the fragments' own casts type them.
 */
function inlined(query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_, index: string) => {
    const value = params[Number(index) - 1];
    if (value === null || value === undefined) return 'null';
    return pg.escapeLiteral(Array.isArray(value) ? arrayText(value) : String(value));
  });
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
  try {
    await client.query('begin');
    await client.query(`select set_config('app.workspace_id', $1, true)`, [ws]);
    const compiled = await database.inWorkspace(ws, (tx) => compileFilters(tx, member, filters));
    // The names of the workspace's connectors (members and mapped allies), as one hstore map the
    // statement looks each row's connectors up in, all of a row's ids in one call: a join per row to a
    // table of them cost 15 times COPY, a jsonb lookup per id 3 times the hstore's.
    const names = await client.query<{ names: string | null }>(
      `select hstore(array_agg(p.id::text), array_agg(coalesce(u.first_name || ' ' || u.last_name, p.full_name))) as names
         from people p
         left join users u on u.workspace_id = p.workspace_id and lower(u.email) = p.email
        where p.workspace_id = $1
          and (u.id is not null
               or exists (select 1 from clients c where c.workspace_id = p.workspace_id and c.person_id = p.id and c.map_network))`,
      [ws],
    );
    const connectorNames = literal(names.rows[0]?.names ?? '');
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
      defused(sql`array_to_string(${connectorNames}::hstore -> r.connector_ids::text[], '; ')`),
      signalLabels(sql`r.signal_mask`),
    ];
    const query = sql`
      select ${sql.join(
        cells.map((cell, index) => sql`${cell} as ${sql.raw(`"${EXPORT_COLUMNS[index]}"`)}`),
        sql`, `,
      )}
        from network_rows r
        join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
        left join companies co on co.workspace_id = r.workspace_id and co.id = r.company_id
       where ${compiled.where()}
       order by ${NETWORK_ORDER}`;
    await pipeline(client.query(copyTo(`copy (${inlined(query)}) to stdout with (format csv, header true)`)), out);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
