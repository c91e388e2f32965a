import { Group, Stack, Text } from '@mantine/core';
import type { TSignal } from '@warmpath/shared';
import { plural } from '../../../lib/format.ts';
import { SignalChip } from '../../network/components/SignalChips.tsx';
import { signalsByScore } from '../../network/networkDisplay.ts';

/** The signals behind an action, counted, every one as a chip, wrapping in the panel's width. */
export function ActionSignals({ signals }: { signals: readonly TSignal[] }) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {plural(signals.length, 'signal', 'signals')}
      </Text>
      <Group gap={4}>
        {signalsByScore(signals).map((signal) => (
          <SignalChip key={signal.id} signal={signal} />
        ))}
      </Group>
    </Stack>
  );
}
