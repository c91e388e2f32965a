import { Badge, Group, Stack, Text } from '@mantine/core';
import {
  SIGNAL_TEMPERATURE,
  SIGNAL_TEMPERATURES,
  type SignalTemperature,
  type TSignal,
  VISIBLE_SIGNALS,
} from '@warmpath/shared';
import { plural } from '../../../lib/format.ts';
import { signalLabel, signalsByScore, splitVisible } from '../networkDisplay.ts';
import { MorePopover } from './MorePopover.tsx';

export type SignalChipsProps = {
  signals: readonly TSignal[];
  /** How many to show before '+n'; the panels show them all. */
  visible?: number;
};

/**
 * Signals read as temperature (spec section 4's groups), never as errors: red is the error colour, so
 * warm is orange, medium amber, cold blue, each with its own mark for those who do not tell colours apart.
 */
export const TEMPERATURE_COLORS: Record<SignalTemperature, string> = { warm: 'orange', medium: 'yellow', cold: 'blue' };
const TEMPERATURE_NAMES: Record<SignalTemperature, string> = { warm: 'Warm', medium: 'Medium', cold: 'Cold' };
// Drawn in a 24 by 24 box: a flame, a half-filled drop, a snowflake.
const TEMPERATURE_MARKS: Record<SignalTemperature, { d: string; filled: boolean }> = {
  warm: { d: 'M12 2c1 4 6 6.5 6 12a6 6 0 0 1-12 0c0-3 1.5-4.5 3-6 .5 2 1.5 3 3 3-1-3 0-6 0-9z', filled: true },
  medium: { d: 'M12 3s6 6.5 6 11a6 6 0 0 1-12 0c0-4.5 6-11 6-11zM6.2 14h11.6', filled: false },
  cold: { d: 'M12 2v20M3.3 7l17.4 10M3.3 17L20.7 7M9 4l3 2 3-2M9 20l3-2 3 2', filled: false },
};

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

export type SignalChipProps = {
  signal: TSignal;
  /**
   * May narrow, cut with an ellipsis (the whole label on hover), to keep a '+n' beside it in a
   * narrow cell; otherwise it takes its label's width, at most the cell's.
   */
  shrink?: boolean;
};

export function SignalChip({ signal, shrink = false }: SignalChipProps) {
  const temperature = SIGNAL_TEMPERATURE[signal.type];
  const label = signalLabel(signal);
  return (
    <Badge
      variant="light"
      color={TEMPERATURE_COLORS[temperature]}
      tt="none"
      radius="sm"
      leftSection={<TemperatureMark temperature={temperature} />}
      title={label}
      styles={{
        root: { flexShrink: shrink ? 1 : 0, minWidth: shrink ? 0 : undefined, maxWidth: '100%' },
        label: { overflow: 'hidden', textOverflow: 'ellipsis' },
      }}
    >
      {label}
    </Badge>
  );
}

/**
 * The temperature's mark in the chip's colour: named for assistive technologies ('Warm') on a signal,
 * decorative beside the legend's own word.
 */
export function TemperatureMark({ temperature, named = true }: { temperature: SignalTemperature; named?: boolean }) {
  const mark = TEMPERATURE_MARKS[temperature];
  const name = TEMPERATURE_NAMES[temperature];
  return (
    <svg
      role={named ? 'img' : undefined}
      aria-label={named ? name : undefined}
      aria-hidden={named ? undefined : true}
      width={11}
      height={11}
      viewBox="0 0 24 24"
    >
      {named ? <title>{name}</title> : null}
      <path
        d={mark.d}
        fill={mark.filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={2.2}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** What the signal colours mean: warm, medium, cold, as the chips show them. */
export function SignalLegend() {
  return (
    <Group gap="xs" wrap="nowrap" role="group" aria-label="Signal temperatures">
      <Text size="xs" c="dimmed">
        Signals:
      </Text>
      {SIGNAL_TEMPERATURES.map((temperature) => (
        <Badge
          key={temperature}
          size="sm"
          variant="light"
          color={TEMPERATURE_COLORS[temperature]}
          tt="none"
          radius="sm"
          leftSection={<TemperatureMark temperature={temperature} named={false} />}
        >
          {TEMPERATURE_NAMES[temperature]}
        </Badge>
      ))}
    </Group>
  );
}
