import { Badge } from '@mantine/core';
import { lazy, type Ref, Suspense, useState } from 'react';
import { proximityBand } from '../networkDisplay.ts';

export type ProximityButtonProps = { prospectId: string; prospectName: string; proximity: number };

export const BAND_COLORS = { Low: 'gray', Medium: 'yellow', High: 'green' } as const;

// The explanation (its popover, Mantine's floating layer, the path's drawing) is not part of the
// network page's first script (issue 26): it loads on a badge's first click and opens as it mounts.
const ProximityPopover = lazy(async () => ({
  default: (await import('./ProximityPopover.tsx')).ProximityPopover,
}));

/**
 * The proximity as a badge that says it opens something: its band and score, an info mark, a hand
 * pointer. A click (or Enter) shows why, the evidence loaded then. Its name starts with what it shows
 * ('High 82'), so a speech user can say what they see (WCAG 2.5.3).
 */
export function ProximityButton(props: ProximityButtonProps) {
  const [used, setUsed] = useState(false);
  const badge = (
    <ProximityBadge prospectName={props.prospectName} proximity={props.proximity} onClick={() => setUsed(true)} />
  );
  if (!used) return badge;
  return (
    <Suspense fallback={badge}>
      <ProximityPopover {...props} />
    </Suspense>
  );
}

type ProximityBadgeProps = {
  prospectName: string;
  proximity: number;
  onClick: () => void;
  ref?: Ref<HTMLButtonElement>;
};

/** The badge, the same before and after the explanation's code is there (the popover's target). */
export function ProximityBadge({ prospectName, proximity, ...others }: ProximityBadgeProps) {
  const band = proximityBand(proximity);
  return (
    <Badge
      component="button"
      type="button"
      className="mantine-focus-auto"
      color={BAND_COLORS[band]}
      variant="light"
      size="md"
      radius="sm"
      tt="none"
      rightSection={<InfoMark />}
      aria-label={`${band} ${proximity}, why? (${prospectName})`}
      // Outlined and with a hand pointer, unlike the badges that only say something.
      style={{
        cursor: 'pointer',
        border: '1px solid currentColor',
        flexShrink: 0,
        height: 24,
        paddingInline: 7,
        maxWidth: 'none',
      }}
      {...others}
    >
      {`${band} ${proximity}`}
    </Badge>
  );
}

/** A circled 'i': the badge opens an explanation. Drawn, so it adds no text to the button's content. */
function InfoMark() {
  return (
    <svg aria-hidden="true" width={14} height={14} viewBox="0 0 24 24" style={{ display: 'block' }}>
      <circle cx={12} cy={12} r={10} fill="none" stroke="currentColor" strokeWidth={2} />
      <path d="M12 11v6M12 7.5v.01" stroke="currentColor" strokeWidth={2.4} strokeLinecap="round" />
    </svg>
  );
}
