import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { NON_TENANT_TABLES } from './tenancy-tables.ts';

/**
 * Ready for Citus (issue 24, docs/citus.md): every tenant table can be distributed by workspace and
 * colocated with the others. Citus only enforces a primary key or unique constraint on a distributed
 * table when it includes the distribution column, and only accepts a foreign key between distributed
 * tables when both sides include it at the same place (so the referenced row lives on the same shard).
 * Read from PostgreSQL's catalog, so a migration that breaks the rule fails here, whatever the code.
 */

/** A reference table's foreign keys into tenant tables: Citus refuses them; docs/citus.md drops them. */
const REFERENCE_FOREIGN_KEYS_DROPPED_UNDER_CITUS = [
  'demo_workspaces -> workspaces',
  'tracking_sites -> workspaces',
  'user_identities -> workspaces',
  'workspace_domains -> workspaces',
];

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
});
afterAll(() => client.end());

/** `workspaces` is distributed by its own id; every other tenant table by its workspace_id. */
const distributionColumn = (table: string) => (table === 'workspaces' ? 'id' : 'workspace_id');

async function publicTables() {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `select c.relname as table_name, array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      group by c.relname`,
  );
  return rows;
}

/** Every table that is not listed as a reference table: the check below is what keeps that true. */
async function tenantTables() {
  return (await publicTables()).map((table) => table.table_name).filter((name) => !(name in NON_TENANT_TABLES));
}

/** Unique indexes (primary keys and unique constraints included) of tenant tables without the column. */
async function keyViolations() {
  const tenants = await tenantTables();
  const { rows } = await client.query<{ table_name: string; index_name: string; columns: string[] }>(
    `select t.relname as table_name, i.relname as index_name,
            array(select a.attname::text from unnest(x.indkey) k join pg_attribute a
                    on a.attrelid = t.oid and a.attnum = k) as columns
       from pg_index x
       join pg_class t on t.oid = x.indrelid
       join pg_class i on i.oid = x.indexrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and x.indisunique and t.relname = any($1::text[])
      order by i.oid`,
    [tenants],
  );
  expect(rows.length).toBeGreaterThanOrEqual(tenants.length);
  return rows
    .filter((row) => !row.columns.includes(distributionColumn(row.table_name)))
    .map((row) => `${row.table_name}.${row.index_name} (${row.columns.join(', ')})`);
}

describe('ready for Citus: the schema distributes by workspace', () => {
  it("docs/citus.md's DDL distributes every tenant table and copies every reference table, none forgotten", async () => {
    const ddl = fs.readFileSync(path.join(REPO_ROOT, 'docs/citus.md'), 'utf8');
    /** The table names of the `unnest(ARRAY[...])` after `call` in the document. */
    const listedAfter = (call: string) => {
      const from = ddl.indexOf(call);
      expect(from, call).toBeGreaterThanOrEqual(0);
      const list = /ARRAY\[([^\]]*)\]/.exec(ddl.slice(from))?.[1] ?? '';
      return [...list.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]).sort();
    };
    const tenants = (await tenantTables()).filter((name) => name !== 'workspaces').sort();
    expect(listedAfter("create_distributed_table(t, 'workspace_id'")).toEqual(tenants);
    expect(listedAfter('create_reference_table(t)')).toEqual(Object.keys(NON_TENANT_TABLES).sort());
  });

  it('knows every table: a tenant table (workspaces, or with a workspace_id) or a listed reference table', async () => {
    const tables = await publicTables();
    const unclassified = tables
      .filter((table) => !(table.table_name in NON_TENANT_TABLES))
      .filter((table) => table.table_name !== 'workspaces' && !table.columns.includes('workspace_id'))
      .map((table) => table.table_name);
    expect(unclassified).toEqual([]);
    const listedButMissing = Object.keys(NON_TENANT_TABLES).filter(
      (name) => !tables.some((table) => table.table_name === name),
    );
    expect(listedButMissing).toEqual([]);
    expect(tables.length).toBeGreaterThan(40);
  });

  it("includes the distribution column in every tenant table's primary key, unique constraint and unique index", async () => {
    expect(await keyViolations()).toEqual([]);
  });

  it('fails on a tenant table whose keys leave the workspace out (a table made and rolled back here)', async () => {
    await client.query('begin');
    try {
      await client.query(
        `create table citus_probe (workspace_id uuid not null, id uuid primary key, email text,
                                   constraint citus_probe_email_key unique (email))`,
      );
      expect(await keyViolations()).toEqual([
        'citus_probe.citus_probe_pkey (id)',
        'citus_probe.citus_probe_email_key (email)',
      ]);
    } finally {
      await client.query('rollback');
    }
  });

  it('makes every foreign key between tenant tables go from workspace_id to workspace_id, so both rows share a shard', async () => {
    const tenants = await tenantTables();
    const { rows } = await client.query<{
      constraint_name: string;
      from_table: string;
      to_table: string;
      from_columns: string[];
      to_columns: string[];
    }>(
      `select c.conname as constraint_name, f.relname as from_table, r.relname as to_table,
              array(select a.attname::text from unnest(c.conkey) with ordinality k(attnum, i)
                      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.i) as from_columns,
              array(select a.attname::text from unnest(c.confkey) with ordinality k(attnum, i)
                      join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum order by k.i) as to_columns
         from pg_constraint c
         join pg_class f on f.oid = c.conrelid
         join pg_class r on r.oid = c.confrelid
         join pg_namespace n on n.oid = f.relnamespace
        where c.contype = 'f' and n.nspname = 'public'`,
    );
    expect(rows.length).toBeGreaterThan(40);
    const isTenant = (table: string) => tenants.includes(table);
    const violations = rows
      .filter((row) => isTenant(row.from_table) && isTenant(row.to_table))
      .filter((row) => {
        const at = row.from_columns.indexOf(distributionColumn(row.from_table));
        return at < 0 || row.to_columns[at] !== distributionColumn(row.to_table);
      })
      .map(
        (row) =>
          `${row.from_table}.${row.constraint_name} (${row.from_columns.join(', ')}) -> ${row.to_table} (${row.to_columns.join(', ')})`,
      );
    expect(violations).toEqual([]);

    // A tenant table may point at a reference table (Citus allows distributed -> reference), but not
    // the other way: the reference tables' keys into `workspaces` are dropped when distributing.
    const fromReference = rows
      .filter((row) => !isTenant(row.from_table) && isTenant(row.to_table))
      .map((row) => `${row.from_table} -> ${row.to_table}`)
      .sort();
    expect(fromReference).toEqual(REFERENCE_FOREIGN_KEYS_DROPPED_UNDER_CITUS);
  });
});
