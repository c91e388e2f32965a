/**
 * One field of each entry of a registry, as a tuple of its literals in the registry's order: the type
 * `z.enum` and `(typeof X)[number]` need. `map` only knows it returns an array of the union, hence the
 * one cast, which the mapped type makes exact.
 */
export function fieldOf<const T extends readonly Record<K, string>[], K extends string>(entries: T, key: K) {
  return entries.map((entry) => entry[key]) as unknown as {
    readonly [I in keyof T]: T[I] extends Record<K, infer V> ? V : never;
  };
}
