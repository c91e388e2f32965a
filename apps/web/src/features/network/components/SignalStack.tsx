import { Group, Stack } from '@mantine/core';
import { type TSignal, VISIBLE_SIGNALS } from '@warmpath/shared';
import { plural } from '../../../lib/format.ts';
import { signalsByScore, splitVisible } from '../networkDisplay.ts';
import { MorePopover } from './MorePopover.tsx';
import { SignalChip } from './SignalChips.tsx';

/**
 * The SIGNALS cell: the top 2 by proximityScore, the rest behind '+n' beside the second. The first
 * always reads whole (the column is as wide as the longest label); side by side when the column is
 * wide enough, else one above the other, the second then cut first if it must be, whole on hover.
 */
export function SignalStack({ signals }: { signals: readonly TSignal[] }) {
  const { shown, rest } = splitVisible(signalsByScore(signals), VISIBLE_SIGNALS);
  const [first, ...others] = shown;
  if (!first) return null;
  return (
    <Group gap={4} wrap="wrap" align="center">
      <SignalChip signal={first} />
      {others.length > 0 || rest.length > 0 ? (
        <Group gap={4} wrap="nowrap" maw="100%">
          {others.map((signal) => (
            <SignalChip key={signal.id} signal={signal} shrink />
          ))}
          <MorePopover count={rest.length} label={`Show ${plural(rest.length, 'more signal', 'more signals')}`}>
            <Stack gap={4} align="flex-start">
              {rest.map((signal) => (
                <SignalChip key={signal.id} signal={signal} />
              ))}
            </Stack>
          </MorePopover>
        </Group>
      ) : null}
    </Group>
  );
}
