import { Skeleton, Stack } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useCountries } from '../../public/api.ts';
import { useTargetingScheme } from '../api.ts';
import { type TargetingContext, targetingFormDefaults } from '../targetingForm.ts';
import { TargetingSchemeFields } from './TargetingSchemeFields.tsx';

export type TargetingSchemeFormProps = {
  context: TargetingContext;
  /** After a successful save (and its toast). */
  onSaved?: () => void;
  /** The caller is still acting on the save (the onboarding step moving on). */
  busy?: boolean;
};

/**
 * The targeting scheme editor of the onboarding step and of the Target Accounts tab. It waits for
 * the countries (the default ones are named, the scheme stores codes) and, on the tab, for the
 * saved scheme.
 */
export function TargetingSchemeForm({ context, onSaved, busy = false }: TargetingSchemeFormProps) {
  const countries = useCountries();
  const loadsSaved = context === 'settings';
  const saved = useTargetingScheme(loadsSaved);

  if (countries.isError) {
    return <ErrorAlert message={countries.error.message} onRetry={() => void countries.refetch()} />;
  }
  if (loadsSaved && saved.isError) {
    return <ErrorAlert message={saved.error.message} onRetry={() => void saved.refetch()} />;
  }
  if (countries.isPending || (loadsSaved && saved.isPending)) {
    return (
      <Stack aria-busy="true" aria-label="Loading targeting scheme">
        <Skeleton height={60} />
        <Skeleton height={48} />
        <Skeleton height={48} />
        <Skeleton height={96} />
        <Skeleton height={96} />
      </Stack>
    );
  }

  return (
    <TargetingSchemeFields
      context={context}
      countries={countries.data}
      defaultValues={targetingFormDefaults(context, loadsSaved ? (saved.data ?? null) : null, countries.data)}
      onSaved={onSaved}
      busy={busy}
    />
  );
}
