import { Autocomplete } from '@mantine/core';
import { useDebouncedCallback, useDebouncedValue } from '@mantine/hooks';
import { CLIENT_TAG_MAX_LENGTH, DEBOUNCE_MS } from '@warmpath/shared';
import { useState } from 'react';
import { useClientTags } from '../api.ts';
import { tagSuggestions } from '../clientDisplay.ts';

export type TagFieldProps = {
  initialValue: string;
  /** The form's value, updated 500 ms after the last keystroke (spec section 5), or at once on leaving. */
  onChange: (tag: string) => void;
  error?: string;
};

/** Select an existing tag or type a new one; suggestions are the spec's tags and the workspace's. */
export function TagField({ initialValue, onChange, error }: TagFieldProps) {
  const [draft, setDraft] = useState(initialValue);
  const [searchTerm] = useDebouncedValue(draft, DEBOUNCE_MS.tagInput);
  const workspaceTags = useClientTags(searchTerm);
  const update = useDebouncedCallback(onChange, DEBOUNCE_MS.tagInput);

  const change = (value: string) => {
    setDraft(value);
    update(value);
  };

  return (
    <Autocomplete
      label="Tag"
      description="Optional: pick a tag or type a new one"
      value={draft}
      onChange={change}
      // Leaving the field (Submit's click) must not lose the last keystrokes to the debounce.
      onBlur={update.flush}
      onOptionSubmit={(value) => {
        change(value);
        update.flush();
      }}
      data={tagSuggestions(workspaceTags.data?.tags ?? [], draft)}
      maxLength={CLIENT_TAG_MAX_LENGTH}
      error={error}
      comboboxProps={{ withinPortal: false }}
    />
  );
}
