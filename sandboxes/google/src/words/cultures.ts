/** The cultures people's names are drawn from, in the order the generators weigh them. */
import { EUROPEAN } from './cultures-europe.ts';
import { WESTERN } from './cultures-western.ts';
import { WORLD } from './cultures-world.ts';

export type Culture = {
  key: string;
  /** Given names; a pair is [display, ASCII form] for scripts an address cannot carry. */
  given: readonly (string | readonly [string, string])[];
  family: readonly (string | readonly [string, string])[];
  /** Family name first, no space (East Asian scripts). */
  familyFirst?: boolean;
  /** UTC offsets in minutes where such people often live (for Date headers). */
  offsets: readonly number[];
  weight: number;
};

export const CULTURES: readonly Culture[] = [...WESTERN, ...EUROPEAN, ...WORLD];
