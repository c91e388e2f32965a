// The signal registry (DESIGN.md section 11): every signal type once, with what the product stores and
// shows of it. Everything else about signals (the type list, temperatures, labels, bits and masks)
// derives from it; the rule that raises each signal is on the server (apps/server/src/graph/signals.ts).

import { fieldOf } from './registry.ts';

/** Spec section 4's intro signal temperature groups, warmest first. */
export const SIGNAL_TEMPERATURES = ['warm', 'medium', 'cold'] as const;
export type SignalTemperature = (typeof SIGNAL_TEMPERATURES)[number];

type Definition = {
  readonly type: string;
  /**
   * The signal's bit in a stored `signal_mask` (network rows, the cube, the in-memory copy): pinned for
   * good, since stored masks keep it. A new signal takes a bit no signal ever had; below 31, as the
   * masks are PostgreSQL int4 and the sign bit stays clear.
   */
  readonly bit: number;
  readonly temperature: SignalTemperature;
  readonly label: string;
  /**
   * For a signal no relationship scores (website intent, a past client's move): the fixed
   * proximityScore that ranks it among the others (the two highest are shown), strongest intent first.
   */
  readonly score?: number;
};

/**
 * The signals in display order: spec section 4's temperature groups, warm, medium, then cold. Where an
 * entry is listed is its display order; its bit is what is stored, and never moves.
 */
export const SIGNALS = [
  { type: 'VISITED_MANY_PAGES', bit: 0, temperature: 'warm', label: 'Visited many pages', score: 70 },
  { type: 'VISITED_PRICING_PAGE', bit: 1, temperature: 'warm', label: 'Visited pricing page', score: 80 },
  { type: 'ALREADY_MET_COLLEAGUE', bit: 2, temperature: 'warm', label: 'Already met a colleague' },
  { type: 'VISITED_WEBSITE', bit: 3, temperature: 'warm', label: 'Visited website', score: 50 },
  { type: 'PAST_CLIENT', bit: 4, temperature: 'warm', label: 'Past client', score: 90 },
  { type: 'WORKED_WITH_COLLEAGUE', bit: 5, temperature: 'medium', label: 'Worked with a colleague' },
  { type: 'WORKED_WITH_CLIENT', bit: 6, temperature: 'medium', label: 'Worked with a client' },
  { type: 'CONNECTED_WITH_COLLEAGUE', bit: 7, temperature: 'cold', label: 'Connected with a colleague' },
  { type: 'CONNECTED_WITH_CLIENT', bit: 8, temperature: 'cold', label: 'Connected with a client' },
] as const satisfies readonly Definition[];

export const SIGNAL_TYPES = fieldOf(SIGNALS, 'type');
export type SignalType = (typeof SIGNAL_TYPES)[number];
export type SignalDefinition = Omit<Definition, 'type'> & { readonly type: SignalType };

const bySignal = <T>(value: (signal: SignalDefinition) => T) =>
  Object.fromEntries(SIGNALS.map((signal) => [signal.type, value(signal)])) as Record<SignalType, T>;

export const SIGNAL_DEFINITIONS = bySignal((signal) => signal);
export const SIGNAL_TEMPERATURE = bySignal((signal) => signal.temperature);
export const SIGNAL_LABELS = bySignal((signal) => signal.label);

/** Every stored mask's bits are below this one (the in-memory copy's tallies have this many). */
export const SIGNAL_BIT_LIMIT = Math.max(...SIGNALS.map((signal) => signal.bit)) + 1;

/** The signal's value in a mask (`1 << bit`). */
export const signalBit = (type: SignalType) => 1 << SIGNAL_DEFINITIONS[type].bit;
/** The mask holding exactly these signals. */
export const signalMaskOf = (types: readonly SignalType[]) => types.reduce((mask, type) => mask | signalBit(type), 0);
/** The signals a stored mask holds, in display order (bits no signal has are ignored). */
export const signalsOfMask = (mask: number) => SIGNAL_TYPES.filter((type) => (mask & signalBit(type)) !== 0);
/** The mask of a temperature group's signals. */
export const temperatureMask = (temperature: SignalTemperature) =>
  signalMaskOf(SIGNAL_TYPES.filter((type) => SIGNAL_TEMPERATURE[type] === temperature));
