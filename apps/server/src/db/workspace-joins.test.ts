import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTableName, isTable } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from './schema/index.ts';
import { NON_TENANT_TABLES } from './tenancy-tables.ts';

/**
 * No query joins two workspaces (issue 24, Citus readiness), the practical version: every join of a
 * tenant table written in the server's SQL, raw (`join people p on ...`) or through drizzle
 * (`.innerJoin(people, ...)`), names the joined table's workspace column in its condition. With Citus
 * that is what keeps a join on one shard (a colocated join); without it, the planner would have to
 * repartition. Row-level security already makes a cross-workspace join return nothing at runtime (every
 * tenant table's policy filters on app.workspace_id), so this is about the plan, not about leaks.
 *
 * Comma joins (`from people p, users u where ...`) count when their WHERE names each table's workspace
 * column, and `join t using (...)` when the list has workspace_id. What it cannot see: joins onto CTEs
 * or lateral subqueries (they read tenant tables, each filtered by the workspace where they are defined).
 */
const SERVER_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The tenant tables' SQL names, and their drizzle identifiers (`networkRows`) -> SQL names. */
function tenantTables() {
  const tables = new Set<string>();
  const identifiers = new Map<string, string>();
  for (const [identifier, value] of Object.entries(schema)) {
    if (!isTable(value)) continue;
    const name = getTableName(value);
    if (name in NON_TENANT_TABLES) continue;
    tables.add(name);
    identifiers.set(identifier, name);
  }
  return { tables, identifiers };
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The condition of a raw join runs to the next clause keyword, or the end of the template. */
const RAW_JOIN =
  /\bjoin\s+([a-z_]+)\s+(?:as\s+)?([a-z_][a-z0-9_]*)?\s*\bon\b([\s\S]*?)(?=\b(?:join|where|group|order|limit|union|returning|on conflict|window)\b|`|;|$)/gi;
const SQL_KEYWORDS = new Set(['on', 'using', 'lateral']);

export function joinsWithoutWorkspace(source: string, tenants: Set<string>, identifiers: Map<string, string>) {
  const violations: string[] = [];
  for (const match of source.matchAll(RAW_JOIN)) {
    const [, table = '', rawAlias, condition = ''] = match;
    if (!tenants.has(table.toLowerCase())) continue;
    const alias = rawAlias && !SQL_KEYWORDS.has(rawAlias.toLowerCase()) ? rawAlias : table;
    const column = table.toLowerCase() === 'workspaces' ? 'id' : 'workspace_id';
    if (!new RegExp(`\\b${alias}\\.${column}\\b`, 'i').test(condition)) {
      violations.push(`join ${table} ${alias} on ${condition.trim().replace(/\s+/g, ' ')}`);
    }
  }
  for (const match of source.matchAll(/\bjoin\s+([a-z_]+)\s+(?:as\s+)?(?:[a-z_][a-z0-9_]*\s+)?using\s*\(([^)]*)\)/gi)) {
    const [, table = '', columns = ''] = match;
    if (tenants.has(table.toLowerCase()) && !/\bworkspace_id\b/i.test(columns)) {
      violations.push(`join ${table} using (${columns})`);
    }
  }
  // Comma joins: every tenant table listed must have its workspace column named in what follows.
  for (const match of source.matchAll(
    /\bfrom\s+((?:[a-z_]+\s+(?:as\s+)?[a-z_][a-z0-9_]*\s*,\s*)+[a-z_]+\s+(?:as\s+)?[a-z_][a-z0-9_]*)\s+where\b([\s\S]*?)(?=`|;|$)/gi,
  )) {
    const [, list = '', where = ''] = match;
    for (const item of list.split(',')) {
      const [table = '', ...rest] = item.trim().split(/\s+/);
      const alias = rest.filter((word) => word.toLowerCase() !== 'as')[0] ?? table;
      if (!tenants.has(table.toLowerCase())) continue;
      const column = table.toLowerCase() === 'workspaces' ? 'id' : 'workspace_id';
      if (!new RegExp(`\\b${alias}\\.${column}\\b`, 'i').test(where)) {
        violations.push(`from ${list.replace(/\s+/g, ' ')} where ... (no ${alias}.${column})`);
      }
    }
  }
  // drizzle: .innerJoin(people, and(eq(people.workspaceId, ...), ...)): the condition names the table's workspace column.
  for (const match of source.matchAll(/\.(?:inner|left|right|full)Join\(\s*(\w+)\s*,([\s\S]*?)\)\s*\n/g)) {
    const [, identifier = '', condition = ''] = match;
    const table = identifiers.get(identifier);
    if (!table) continue;
    const column = table === 'workspaces' ? 'id' : 'workspaceId';
    if (!condition.includes(`${identifier}.${column}`)) violations.push(`.join(${identifier}, ${condition.trim()})`);
  }
  return violations;
}

describe('no query joins two workspaces', () => {
  it('joins every tenant table on its workspace column, in every SQL the server writes', () => {
    const { tables: tenants, identifiers } = tenantTables();
    expect(tenants.size).toBeGreaterThan(40);
    const files = sourceFiles(SERVER_SRC);
    const violations = files.flatMap((file) =>
      joinsWithoutWorkspace(fs.readFileSync(file, 'utf8'), tenants, identifiers).map(
        (violation) => `${path.relative(SERVER_SRC, file)}: ${violation}`,
      ),
    );
    expect(violations).toEqual([]);
  });

  it('catches a join that forgets the workspace, raw or through drizzle', () => {
    const { tables: tenants, identifiers } = tenantTables();
    const bad = `sql\`select * from people p join companies co on co.id = p.company_id where p.workspace_id = \${ws}\`;
      sql\`select * from people p, users u where p.workspace_id = \${ws} and u.id = p.id\`;
      sql\`select * from people p join edges e using (prospect_id)\`;
      db.select().from(users).innerJoin(people, eq(people.id, users.id))
    `;
    expect(joinsWithoutWorkspace(bad, tenants, identifiers)).toHaveLength(4);
    const good = `sql\`select * from people p join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id\``;
    expect(joinsWithoutWorkspace(good, tenants, identifiers)).toEqual([]);
  });
});
