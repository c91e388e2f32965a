import { is, Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';

// COPY takes no parameters, so a COPY of a query has its values written into its text; so does a
// simple query of several statements (Database.selectInWorkspace: a transaction, its workspace and one
// read in one round trip). This is the one place that happens, as drizzle assembles the statement
// from its parts: each value is quoted whole by pg's `escapeLiteral`, once, and the finished text is never read again, so
// a value holding `$1`, a quote or a backslash is only ever text. Everything else binds its values.

/** A PostgreSQL array literal's text: every element double-quoted, so any value survives. */
function arrayText(values: readonly unknown[]): string {
  const element = (value: unknown) =>
    value === null || value === undefined
      ? 'NULL'
      : `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return `{${values.map(element).join(',')}}`;
}

/**
 * A value as one SQL literal, arrays in PostgreSQL's array syntax. It is untyped, as a bound
 * parameter is: the fragment's cast (`::uuid`, `::text[]`) or its context types it.
 */
export function literalOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return pg.escapeLiteral(arrayText(value));
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  // A placeholder is filled when a prepared statement runs, which COPY's query never is.
  if (is(value, Placeholder)) throw new Error('A statement with its values inlined takes no placeholders');
  if (typeof value === 'object') return pg.escapeLiteral(JSON.stringify(value));
  return pg.escapeLiteral(String(value));
}

/** Writes each parameter as its literal where drizzle would write `$N`. */
class LiteralDialect extends PgDialect {
  override escapeParam(_index: number, value?: unknown): string {
    return literalOf(value);
  }
}

const dialect = new LiteralDialect();

/** The text of `query` with its values in it, for the statements that take no parameters (COPY). */
export const inlineSql = (query: SQL): string => dialect.sqlToQuery(query).sql;
