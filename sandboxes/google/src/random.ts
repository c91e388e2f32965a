/**
 * A small seeded pseudo-random generator (sfc32 seeded by cyrb128), so the same e-mail address always
 * yields the same world. Never use Math.random in generation.
 */
export type Random = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An item chosen with the given relative weights. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** A normally distributed number (Box-Muller). */
  normal(mean: number, deviation: number): number;
  /** Lowercase hexadecimal digits. */
  hex(length: number): string;
  /** Characters drawn from an alphabet. */
  chars(alphabet: string, length: number): string;
  /** Decimal digits, the first one not 0. */
  digits(length: number): string;
  /** A copy of `items`, shuffled. */
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct items (fewer if `items` is shorter). */
  sample<T>(items: readonly T[], count: number): T[];
  /** A child generator, independent of later draws from this one. */
  fork(label: string): Random;
};

function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export function createRandom(seed: string): Random {
  let [a, b, c, d] = cyrb128(seed);
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();

  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(next() * items.length)] as T;
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      const held = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = held;
    }
    return copy;
  };
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick,
    weighted<T>(items: readonly (readonly [T, number])[]): T {
      let total = 0;
      for (const [, weight] of items) total += weight;
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      const last = items[items.length - 1];
      if (!last) throw new Error('weighted pick from an empty list');
      return last[0];
    },
    normal(mean, deviation) {
      const u = 1 - next();
      const v = next();
      return mean + deviation * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    hex(length) {
      let out = '';
      while (out.length < length)
        out += Math.floor(next() * 4294967296)
          .toString(16)
          .padStart(8, '0');
      return out.length === length ? out : out.slice(0, length);
    },
    chars(alphabet, length) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    digits(length) {
      let out = String(int(1, 9));
      for (let i = 1; i < length; i++) out += String(int(0, 9));
      return out;
    },
    shuffle,
    sample: (items, count) => shuffle(items).slice(0, Math.max(0, count)),
    fork: (label) => createRandom(`${seed}/${label}/${a}.${b}`),
  };
}
