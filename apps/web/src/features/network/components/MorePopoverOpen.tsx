import { Popover } from '@mantine/core';
import { useOpenedOnMount } from '../../../components/useFocusOnMount.ts';
import { MoreButton, type MorePopoverProps } from './MorePopover.tsx';

/** The popover itself: loaded on the button's first click (MorePopover), so it opens as it mounts. */
export function MorePopoverOpen({ count, label, trapFocus = false, children }: MorePopoverProps) {
  const popover = useOpenedOnMount<HTMLButtonElement>();
  return (
    <Popover
      position="bottom-start"
      shadow="md"
      withArrow
      returnFocus
      trapFocus={trapFocus}
      opened={popover.opened}
      onChange={popover.setOpened}
    >
      <Popover.Target>
        <MoreButton
          ref={popover.ref}
          count={count}
          label={label}
          onClick={() => popover.setOpened((current) => !current)}
        />
      </Popover.Target>
      <Popover.Dropdown aria-label={label}>{children}</Popover.Dropdown>
    </Popover>
  );
}
