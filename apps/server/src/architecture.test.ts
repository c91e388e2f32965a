import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Repositories hold the SQL; services hold the rules and routes read requests. A `*.service.ts` or
// `*.routes.ts` under features/ that builds or runs SQL fails here, with where and what.

const FEATURES = fileURLToPath(new URL('./features/', import.meta.url));

/** An import from drizzle that brings a value (query builders, `sql`), not only types. */
const DRIZZLE_IMPORT = /^import\s+(type\s+)?([^;]*?)\s+from\s+['"](drizzle-orm(?:\/[^'"]*)?)['"]/gm;
/** A database or transaction handle's query builders, also when the chain starts on the next line. */
const QUERY_CALL =
  /\b(?:tx|db|trx|client|database(?:\.db)?)\s*\.\s*(?:select|insert|update|delete|query|transaction)\s*\(/g;
const EXECUTE_CALL = /\.\s*execute\s*\(/g;
const SQL_TEMPLATE = /\bsql\s*(?:<[^>]*>)?\s*`/g;

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

function valueSpecifiers(clause: string) {
  const named = /\{([^}]*)\}/.exec(clause)?.[1];
  const defaultOrNamespace = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  const values = (named ?? '')
    .split(',')
    .map((specifier) => specifier.trim())
    .filter((specifier) => specifier !== '' && !specifier.startsWith('type '));
  return defaultOrNamespace === '' ? values : [defaultOrNamespace, ...values];
}

/** The SQL a service or route holds: `line: what` for each finding. */
function sqlIn(source: string): string[] {
  const found: { line: number; what: string }[] = [];
  for (const match of source.matchAll(DRIZZLE_IMPORT)) {
    const [, typeOnly, clause = '', from] = match;
    const values = typeOnly ? [] : valueSpecifiers(clause);
    if (values.length > 0)
      found.push({ line: lineOf(source, match.index), what: `imports ${values.join(', ')} from ${from}` });
  }
  for (const pattern of [QUERY_CALL, EXECUTE_CALL, SQL_TEMPLATE]) {
    for (const match of source.matchAll(pattern)) {
      found.push({ line: lineOf(source, match.index), what: match[0].replace(/\s+/g, '') });
    }
  }
  return found.sort((a, b) => a.line - b.line).map(({ line, what }) => `${line}: ${what}`);
}

function servicesAndRoutes(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return servicesAndRoutes(full);
    return /\.(service|routes)\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('repositories hold the SQL', () => {
  it('finds no SQL in any service or route under features/', () => {
    const files = servicesAndRoutes(FEATURES);
    expect(files.length).toBeGreaterThan(20);
    const findings = files.flatMap((file) =>
      sqlIn(fs.readFileSync(file, 'utf8')).map((finding) => `${path.relative(FEATURES, file)}:${finding}`),
    );
    expect(findings).toEqual([]);
  });

  it('tells SQL from what only looks like it', () => {
    const planted = [
      "import { and, eq } from 'drizzle-orm';",
      "import { type SQL, sql } from 'drizzle-orm';",
      "import { drizzle } from 'drizzle-orm/node-postgres';",
      'const rows = await tx.execute(query);',
      'const names = await tx',
      '  .select({ email: users.email })',
      '  .from(users);',
      'await deps.database.db.delete(users);',
      'await client.query(text);',
      'const where = sql<boolean>`true`;',
    ].join('\n');
    expect(sqlIn(planted)).toEqual([
      '1: imports and, eq from drizzle-orm',
      '2: imports sql from drizzle-orm',
      '3: imports drizzle from drizzle-orm/node-postgres',
      '4: .execute(',
      '5: tx.select(',
      '8: database.db.delete(',
      '9: client.query(',
      '10: sql<boolean>`',
    ]);
    const innocent = [
      "import type { SQL } from 'drizzle-orm';",
      "import { type InferSelectModel } from 'drizzle-orm';",
      'seen.delete(key);',
      'hash.update(bytes);',
      'const sqlText = `select`;',
    ].join('\n');
    expect(sqlIn(innocent)).toEqual([]);
  });
});
