import {
  CONNECTION_SOURCES,
  type ConnectionSource,
  EMPTY_STATE,
  EXPORT_FILE_PREFIX,
  PROXIMITY_BANDS,
  type ProximityBandName,
  SIGNAL_LABELS,
  type TSignal,
} from '@warmpath/shared';

// How the network page shows its data (spec sections 2, 3 and 9), as pure functions.

/** The first `visible` items, and the rest behind '+n'. */
export function splitVisible<T>(items: readonly T[], visible: number): { shown: T[]; rest: T[] } {
  return { shown: items.slice(0, visible), rest: items.slice(visible) };
}

/** Signals by proximityScore, highest first; equal scores keep the server's order. */
export function signalsByScore(signals: readonly TSignal[]): TSignal[] {
  return [...signals].sort((a, b) => b.proximityScore - a.proximityScore);
}

/** The signal's label, with its custom tag when it has one. */
export function signalLabel(signal: TSignal): string {
  const label = SIGNAL_LABELS[signal.type];
  const tag = signal.metadata.customTag?.trim();
  return tag ? `${label} (${tag})` : label;
}

/** Low 0-24, Medium 25-74, High 75-100; scores outside 0-100 take the nearest band. */
export function proximityBand(score: number): ProximityBandName {
  const band = PROXIMITY_BANDS.find((candidate) => score >= candidate.min && score <= candidate.max);
  if (band) return band.name;
  return score < 0 ? 'Low' : 'High';
}

export const CONNECTION_SOURCE_LABELS: Record<ConnectionSource, string> = {
  GOOGLE_MEETING: 'Google meeting',
  GOOGLE_MAIL: 'Google mail',
  SHARED_EXPERIENCE: 'Shared experience',
  LINKEDIN_CONNECTION: 'LinkedIn connection',
};

/** The team's trust in an ally (0-1) as a percentage: '50%', '62.5%'. */
export function formatTrust(trust: number): string {
  return `${Math.round(trust * 1000) / 10}%`;
}

/** Connection sources in the spec's order (meeting, mail, shared experience, LinkedIn), each once. */
export function orderedSources(sources: readonly ConnectionSource[]): ConnectionSource[] {
  return CONNECTION_SOURCES.filter((source) => sources.includes(source));
}

/** A report card's change, '+12%' (a fall keeps its sign). */
export function formatPercentage(percentage: number): string {
  const rounded = Math.round(percentage);
  return rounded < 0 ? `${rounded}%` : `+${rounded}%`;
}

/** '<prefix>-export-2025-01-31T09-05-00.csv': the product's name, 'export', and when, safe in any file system. */
export function exportFileName(now: Date): string {
  const timestamp = now.toISOString().slice(0, 19).replaceAll(':', '-');
  return `${EXPORT_FILE_PREFIX}-export-${timestamp}.csv`;
}

const NAMED_IN_SUMMARY = 2;

/**
 * What a filter shows in its field: All, None, the one or two names chosen, or how many. A choice
 * whose name is not loaded (a link to one company or person beyond the first page of options) is
 * counted, never shown as its id.
 */
export function filterSummary(selected: readonly string[], nameOf: (key: string) => string | undefined): string {
  if (selected.length === 0) return 'All';
  if (selected.length === 1 && selected[0] === EMPTY_STATE) return 'None';
  const names = selected.map(nameOf);
  if (selected.length <= NAMED_IN_SUMMARY && names.every((name) => name !== undefined)) return names.join(', ');
  return `${selected.length} selected`;
}

/** The letter an avatar shows without a picture. */
export function initialOf(name: string): string {
  return name.trim().charAt(0).toUpperCase();
}
