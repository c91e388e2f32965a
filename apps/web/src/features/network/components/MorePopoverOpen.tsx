import { Popover } from '@mantine/core';
import { useFocusOnMount } from '../../../components/useFocusOnMount.ts';
import { MoreButton, type MorePopoverProps } from './MorePopover.tsx';

/** The popover itself: loaded on the button's first click (MorePopover), so it mounts open. */
export function MorePopoverOpen({ count, label, trapFocus = false, children }: MorePopoverProps) {
  const button = useFocusOnMount<HTMLButtonElement>();
  return (
    <Popover position="bottom-start" shadow="md" withArrow returnFocus trapFocus={trapFocus} defaultOpened>
      <Popover.Target>
        <MoreButton ref={button} count={count} label={label} />
      </Popover.Target>
      <Popover.Dropdown aria-label={label}>{children}</Popover.Dropdown>
    </Popover>
  );
}
