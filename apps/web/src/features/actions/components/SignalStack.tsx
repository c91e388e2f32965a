import { Group, Stack } from '@mantine/core';
import { type TSignal, VISIBLE_SIGNALS } from '@warmpath/shared';
import { plural } from '../../../lib/format.ts';
import { MorePopover } from '../../network/components/MorePopover.tsx';
import { SignalChip } from '../../network/components/SignalChips.tsx';
import { signalsByScore, splitVisible } from '../../network/networkDisplay.ts';

/**
 * The SIGNALS cell: the top 2 by proximityScore one above the other (their labels whole in a narrow
 * column), the rest behind '+n'.
 */
export function SignalStack({ signals }: { signals: readonly TSignal[] }) {
  const { shown, rest } = splitVisible(signalsByScore(signals), VISIBLE_SIGNALS);
  return (
    <Group gap={4} wrap="nowrap">
      <Stack gap={4} align="flex-start">
        {shown.map((signal) => (
          <SignalChip key={signal.id} signal={signal} />
        ))}
      </Stack>
      <MorePopover count={rest.length} label={`Show ${plural(rest.length, 'more signal', 'more signals')}`}>
        <Stack gap={4} align="flex-start">
          {rest.map((signal) => (
            <SignalChip key={signal.id} signal={signal} />
          ))}
        </Stack>
      </MorePopover>
    </Group>
  );
}
