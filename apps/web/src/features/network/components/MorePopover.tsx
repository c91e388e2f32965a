import { Button, Popover } from '@mantine/core';
import type { ReactNode } from 'react';

export type MorePopoverProps = {
  /** How many items are behind the button: it reads '+n'. */
  count: number;
  /** The button's accessible name, e.g. 'Show 3 more signals'. */
  label: string;
  /** Keep the keyboard inside while open, for lists of buttons (the popover opens at the end of the page). */
  trapFocus?: boolean;
  children: ReactNode;
};

/** The '+n' after the first few items of a cell; a click (or Enter) shows the rest, Escape hides them. */
export function MorePopover({ count, label, trapFocus = false, children }: MorePopoverProps) {
  if (count <= 0) return null;
  return (
    <Popover position="bottom-start" shadow="md" withArrow returnFocus trapFocus={trapFocus}>
      <Popover.Target>
        {/* Never squeezed by the chips or avatars before it: '+n' always reads whole. */}
        <Button size="compact-xs" variant="light" radius="xl" aria-label={label} style={{ flexShrink: 0 }}>
          +{count}
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label={label}>{children}</Popover.Dropdown>
    </Popover>
  );
}
