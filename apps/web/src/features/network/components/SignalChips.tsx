import { Badge, Group, Stack } from '@mantine/core';
import { SIGNAL_TEMPERATURE, type SignalTemperature, type TSignal, VISIBLE_SIGNALS } from '@warmpath/shared';
import { plural } from '../../../lib/format.ts';
import { signalLabel, signalsByScore, splitVisible } from '../networkDisplay.ts';
import { MorePopover } from './MorePopover.tsx';

export type SignalChipsProps = {
  signals: readonly TSignal[];
  /** How many to show before '+n'; the panels show them all. */
  visible?: number;
};

const TEMPERATURE_COLORS: Record<SignalTemperature, string> = { warm: 'red', medium: 'orange', cold: 'blue' };

/** The strongest signals first as chips, the rest behind '+n'. */
export function SignalChips({ signals, visible = VISIBLE_SIGNALS }: SignalChipsProps) {
  const { shown, rest } = splitVisible(signalsByScore(signals), visible);
  return (
    <Group gap={4} wrap="nowrap">
      {shown.map((signal) => (
        <SignalChip key={signal.id} signal={signal} />
      ))}
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

export function SignalChip({ signal }: { signal: TSignal }) {
  return (
    <Badge variant="light" color={TEMPERATURE_COLORS[SIGNAL_TEMPERATURE[signal.type]]} tt="none" radius="sm">
      {signalLabel(signal)}
    </Badge>
  );
}
