import { Stack, Text } from '@mantine/core';
import type { TSignal } from '@warmpath/shared';
import { plural } from '../../../lib/format.ts';
import { SignalChips } from '../../network/components/SignalChips.tsx';

/** The signals behind an action, counted, every one as a chip (the panels show them all). */
export function ActionSignals({ signals }: { signals: readonly TSignal[] }) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {plural(signals.length, 'signal', 'signals')}
      </Text>
      {signals.length > 0 ? <SignalChips signals={signals} visible={signals.length} /> : null}
    </Stack>
  );
}
