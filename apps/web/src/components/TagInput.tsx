import { Pill, PillsInput } from '@mantine/core';
import { DOMAIN_TAG_LIMITS, VALIDATION } from '@warmpath/shared';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { addTag } from './addTag.ts';

export type TagInputProps = {
  label: string;
  value: readonly string[];
  onChange: (tags: string[]) => void;
  /** How many tags are allowed: 5 at sign-up, 10 for workspace domains, 50 for exclusions. */
  max?: number;
  maxLength?: number;
  placeholder?: string;
  description?: ReactNode;
  error?: ReactNode;
  onBlur?: () => void;
};

/** Free-text tags added with Enter; at the maximum the field is disabled and says so. */
export function TagInput({
  label,
  value,
  onChange,
  max = DOMAIN_TAG_LIMITS.signUp,
  maxLength = DOMAIN_TAG_LIMITS.tagLength,
  placeholder,
  description,
  error,
  onBlur,
}: TagInputProps) {
  const [draft, setDraft] = useState('');
  const full = value.length >= max;

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter adds a tag; it must not submit the surrounding form.
    event.preventDefault();
    const next = addTag(value, draft, { max, maxLength });
    if (next !== value) onChange([...next]);
    setDraft('');
  };

  return (
    <PillsInput label={label} description={description} error={error}>
      <Pill.Group>
        {value.map((tag) => (
          <Pill
            key={tag}
            withRemoveButton
            onRemove={() => onChange(value.filter((existing) => existing !== tag))}
            removeButtonProps={{ 'aria-label': `Remove ${tag}`, 'aria-hidden': false, tabIndex: 0 }}
          >
            {tag}
          </Pill>
        ))}
        <PillsInput.Field
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={handleKeyDown}
          onBlur={onBlur}
          disabled={full}
          maxLength={maxLength}
          placeholder={full ? VALIDATION.maxTags(max) : placeholder}
        />
      </Pill.Group>
    </PillsInput>
  );
}
