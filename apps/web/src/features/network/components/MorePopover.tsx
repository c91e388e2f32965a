import { Button } from '@mantine/core';
import { lazy, type ReactNode, type Ref, Suspense, useState } from 'react';

export type MorePopoverProps = {
  /** How many items are behind the button: it reads '+n'. */
  count: number;
  /** The button's accessible name, e.g. 'Show 3 more signals'. */
  label: string;
  /** Keep the keyboard inside while open, for lists of buttons (the popover opens at the end of the page). */
  trapFocus?: boolean;
  children: ReactNode;
};

// The popover (Mantine's floating layer) is not part of the network page's first script (issue 26):
// it loads on a button's first click and opens as it mounts.
const MorePopoverOpen = lazy(async () => ({ default: (await import('./MorePopoverOpen.tsx')).MorePopoverOpen }));

/** The '+n' after the first few items of a cell; a click (or Enter) shows the rest, Escape hides them. */
export function MorePopover(props: MorePopoverProps) {
  const [used, setUsed] = useState(false);
  if (props.count <= 0) return null;
  const button = <MoreButton count={props.count} label={props.label} onClick={() => setUsed(true)} />;
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <MorePopoverOpen {...props} />
    </Suspense>
  );
}

type MoreButtonProps = { count: number; label: string; onClick?: () => void; ref?: Ref<HTMLButtonElement> };

/** The '+n' button, the same before and after the popover's code is there (the popover's target). */
export function MoreButton({ count, label, ...others }: MoreButtonProps) {
  return (
    // Never squeezed by the chips or avatars before it: '+n' always reads whole.
    <Button size="compact-xs" variant="light" radius="xl" aria-label={label} style={{ flexShrink: 0 }} {...others}>
      +{count}
    </Button>
  );
}
