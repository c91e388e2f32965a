import { Checkbox, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export type ChoiceGroupProps<T extends string> = {
  label: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (value: T[]) => void;
  error?: ReactNode;
  /** Shown after the options, e.g. a 'Show more' toggle. */
  footer?: ReactNode;
};

/** A labelled group of checkboxes; the chosen values keep the order of the options. */
export function ChoiceGroup<T extends string>({ label, options, value, onChange, error, footer }: ChoiceGroupProps<T>) {
  return (
    <Checkbox.Group
      label={label}
      value={[...value]}
      onChange={(next) => onChange(options.filter((option) => next.includes(option)))}
      error={error}
    >
      <Group gap="md" mt="xs">
        {options.map((option) => (
          <Checkbox key={option} value={option} label={option} />
        ))}
        {footer}
      </Group>
    </Checkbox.Group>
  );
}
