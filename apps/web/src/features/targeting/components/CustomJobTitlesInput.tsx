import { Button, Group, Pill, Stack, TextInput } from '@mantine/core';
import { type KeyboardEvent, useState } from 'react';
import { addCustomJobTitle, CUSTOM_JOB_TITLE_MAX_LENGTH } from '../targetingForm.ts';

export type CustomJobTitlesInputProps = {
  value: readonly string[];
  onChange: (titles: string[]) => void;
};

/** Custom job titles, added with Enter or the Add button, trimmed and once each; each removable. */
export function CustomJobTitlesInput({ value, onChange }: CustomJobTitlesInputProps) {
  const [draft, setDraft] = useState('');

  const add = () => {
    const next = addCustomJobTitle(value, draft);
    if (next !== value) onChange([...next]);
    setDraft('');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter adds the title; it must not submit the surrounding form.
    event.preventDefault();
    add();
  };

  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label="Custom job titles"
          placeholder="e.g. Head of Partnerships"
          value={draft}
          maxLength={CUSTOM_JOB_TITLE_MAX_LENGTH}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={handleKeyDown}
          style={{ flex: 1 }}
        />
        <Button variant="default" onClick={add} disabled={draft.trim() === ''}>
          Add
        </Button>
      </Group>
      {value.length > 0 ? (
        <Pill.Group aria-label="Custom job titles added">
          {value.map((title) => (
            <Pill
              key={title}
              withRemoveButton
              onRemove={() => onChange(value.filter((existing) => existing !== title))}
              removeButtonProps={{ 'aria-label': `Remove ${title}`, 'aria-hidden': false, tabIndex: 0 }}
            >
              {title}
            </Pill>
          ))}
        </Pill.Group>
      ) : null}
    </Stack>
  );
}
