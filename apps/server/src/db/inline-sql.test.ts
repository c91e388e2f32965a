import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inlineSql, literalOf } from './inline-sql.ts';

describe('inlineSql', () => {
  it('writes each value once, quoted whole, and never reads the text again', () => {
    const name = "Vic$1 O'Brien \\ $2";
    const text = inlineSql(
      sql`select ${name}::text as a, ${'$1'}::text as b where x = any(${sql.param(['a"b', null])}::text[])`,
    );
    expect(text).toBe(
      `select ${literalOf(name)}::text as a, '$1'::text as b where x = any( E'{"a\\\\"b",NULL}'::text[])`,
    );
    expect(literalOf(name)).toBe(` E'Vic$1 O''Brien \\\\ $2'`);
  });

  it('writes numbers, booleans, dates and null as literals too', () => {
    expect(inlineSql(sql`${1}, ${true}, ${new Date(0)}, ${null}`)).toBe(
      `'1', 'true', '1970-01-01T00:00:00.000Z', null`,
    );
  });

  it('refuses placeholders', () => {
    expect(() => inlineSql(sql`${sql.placeholder('x')}`)).toThrow(/placeholders/);
  });
});
