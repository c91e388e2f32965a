import { Button } from '@mantine/core';
import { HIDDEN_INDUSTRIES, VISIBLE_INDUSTRIES } from '@warmpath/shared';
import { useState } from 'react';
import { ChoiceGroup } from '../../../components/ChoiceGroup.tsx';
import { withChosen } from '../targetingForm.ts';

export type IndustriesFieldProps = { value: readonly string[]; onChange: (industries: string[]) => void };

const ALL_INDUSTRIES: readonly string[] = [...VISIBLE_INDUSTRIES, ...HIDDEN_INDUSTRIES];

/** The usual industries, and the rest behind 'Show more'; a chosen industry always stays in view. */
export function IndustriesField({ value, onChange }: IndustriesFieldProps) {
  const [showMore, setShowMore] = useState(false);
  const options = withChosen(showMore ? ALL_INDUSTRIES : VISIBLE_INDUSTRIES, value);

  return (
    <ChoiceGroup
      label="Industries"
      options={options}
      value={value}
      onChange={onChange}
      footer={
        <Button variant="subtle" size="compact-sm" aria-expanded={showMore} onClick={() => setShowMore(!showMore)}>
          {showMore ? 'Show less' : 'Show more'}
        </Button>
      }
    />
  );
}
