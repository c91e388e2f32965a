/** A search term as an ILIKE "contains" pattern, its own `%`, `_` and `\` taken literally; null when empty. */
export function containsPattern(searchTerm: string | undefined): string | null {
  return searchTerm ? `%${searchTerm.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;
}
