import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isSafeText, unsafeTextPaths, withSafeText } from './text.ts';

describe('the shared string rule', () => {
  it('refuses NUL and unpaired surrogates, keeps every well-formed text', () => {
    for (const bad of ['a\0b', '\0', '\uD800', 'x\uDC00', '\uDBFFa', 'a\uDC00\uD800'])
      expect(isSafeText(bad)).toBe(false);
    for (const good of ['', 'Vic$1', 'Zoë 😀', '\uD83D\uDE00', 'O\'Brien \\ "Q"', '\u200B', '\uFFFD'])
      expect(isSafeText(good)).toBe(true);
  });

  it('names every string that breaks it, keys and nested values alike', () => {
    expect(
      unsafeTextPaths({ searchTerm: 'a\0', filters: [{ name: 'x', values: ['ok', '\uD800'] }], 'k\0': 1 }),
    ).toEqual([['k\0'], ['searchTerm'], ['filters', 0, 'values', 1]]);
    expect(unsafeTextPaths([1, null, true, 'fine'])).toEqual([]);
  });

  it('walks a deeply nested body without recursion', () => {
    let deep: unknown = '\0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unsafeTextPaths(deep)).toHaveLength(1);
  });

  it('answers before the schema, with the field as the issue path', () => {
    const schema = withSafeText(z.object({ name: z.string().max(3) }));
    const result = schema.safeParse({ name: 'abcdef\0' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['name'], message: 'must not contain NUL characters or unpaired surrogates' }),
    ]);
    expect(schema.parse({ name: 'abc' })).toEqual({ name: 'abc' });
  });
});
