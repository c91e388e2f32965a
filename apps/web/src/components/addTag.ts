export type TagLimits = { max: number; maxLength: number };

/**
 * Adds a typed tag (spec section 5): trimmed, not empty, not already there (case aside), at most
 * `maxLength` characters, at most `max` tags. A refused tag returns the same list.
 */
export function addTag(tags: readonly string[], typed: string, limits: TagLimits): readonly string[] {
  const tag = typed.trim();
  if (tag === '' || tag.length > limits.maxLength || tags.length >= limits.max) return tags;
  const lowerCased = tag.toLowerCase();
  if (tags.some((existing) => existing.toLowerCase() === lowerCased)) return tags;
  return [...tags, tag];
}
