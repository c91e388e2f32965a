import { Group } from '@mantine/core';
import type { ConnectionSource } from '@warmpath/shared';
import { BRAND_MARKS } from '../../users/components/ConnectionIcon.tsx';
import { CONNECTION_SOURCE_LABELS, orderedSources } from '../networkDisplay.ts';

export type ConnectionSourcesProps = { sources: readonly ConnectionSource[] };

const ICON_SIZE = 14;
// Outline icons drawn in a 24 by 24 box; LinkedIn is its brand mark.
const OUTLINES: Record<Exclude<ConnectionSource, 'LINKEDIN_CONNECTION'>, string> = {
  GOOGLE_MEETING: 'M4 6h16v14H4zM4 10h16M8 3v5M16 3v5',
  GOOGLE_MAIL: 'M3 6h18v12H3zM3 7l9 7 9-7',
  SHARED_EXPERIENCE: 'M3 8h18v11H3zM9 8V5h6v3M3 13h18',
};
const COLORS: Record<ConnectionSource, string> = {
  GOOGLE_MEETING: '#1a73e8',
  GOOGLE_MAIL: '#c5221f',
  SHARED_EXPERIENCE: '#5f3dc4',
  LINKEDIN_CONNECTION: '#0a66c2',
};

/** How someone knows the prospect: one icon per connection source, in the spec's order, each named. */
export function ConnectionSources({ sources }: ConnectionSourcesProps) {
  return (
    <Group gap={4} wrap="nowrap">
      {orderedSources(sources).map((source) => (
        <ConnectionSourceIcon key={source} source={source} />
      ))}
    </Group>
  );
}

function ConnectionSourceIcon({ source }: { source: ConnectionSource }) {
  const label = CONNECTION_SOURCE_LABELS[source];
  const color = COLORS[source];
  return (
    <svg role="img" aria-label={label} width={ICON_SIZE} height={ICON_SIZE} viewBox="0 0 24 24">
      <title>{label}</title>
      {source === 'LINKEDIN_CONNECTION' ? (
        <path d={BRAND_MARKS.LinkedIn} fill={color} />
      ) : (
        <path d={OUTLINES[source]} fill="none" stroke={color} strokeWidth={2} strokeLinejoin="round" />
      )}
    </svg>
  );
}
