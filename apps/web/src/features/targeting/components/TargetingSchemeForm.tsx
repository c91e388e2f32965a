import { Skeleton, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { clearInviteId, readInviteId } from '../../../lib/auth.ts';
import { useSession } from '../../../lib/useSession.ts';
import { useCountries } from '../../public/api.ts';
import { useAdminTargetingScheme, useTargetingScheme } from '../api.ts';
import { type TargetingContext, targetingFormDefaults, withAdminScheme } from '../targetingForm.ts';
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
 * the countries (the default ones are named, the scheme stores codes), on the tab for the saved
 * scheme, and on an invitee's onboarding for the inviting admin's scheme it starts from.
 */
export function TargetingSchemeForm({ context, onSaved, busy = false }: TargetingSchemeFormProps) {
  const countries = useCountries();
  const { user } = useSession();
  const loadsSaved = context === 'settings';
  const saved = useTargetingScheme(loadsSaved);
  // Read once: the stored invitation is dropped as soon as its scheme has been read.
  const [inviteId] = useState(() => (context === 'onboarding' ? readInviteId() : null));
  const adminScheme = useAdminTargetingScheme(inviteId);
  const prefilling = inviteId !== null && adminScheme.isPending;

  useEffect(() => {
    if (adminScheme.isSuccess) clearInviteId();
  }, [adminScheme.isSuccess]);

  if (countries.isError) {
    return <ErrorAlert message={countries.error.message} onRetry={() => void countries.refetch()} />;
  }
  if (loadsSaved && saved.isError) {
    return <ErrorAlert message={saved.error.message} onRetry={() => void saved.refetch()} />;
  }
  if (countries.isPending || (loadsSaved && saved.isPending) || prefilling) {
    return (
      <Stack role="status" aria-busy="true" aria-label="Loading targeting scheme">
        <Skeleton height={60} />
        <Skeleton height={48} />
        <Skeleton height={48} />
        <Skeleton height={96} />
        <Skeleton height={96} />
      </Stack>
    );
  }

  // Starting from the admin's scheme is a convenience: without it (none saved, or it failed) the usual defaults apply.
  const defaults = targetingFormDefaults(
    context,
    loadsSaved ? (saved.data ?? null) : null,
    countries.data,
    user?.email.split('@')[1] ?? null,
  );
  return (
    <TargetingSchemeFields
      context={context}
      countries={countries.data}
      defaultValues={adminScheme.data ? withAdminScheme(defaults, adminScheme.data) : defaults}
      onSaved={onSaved}
      busy={busy}
    />
  );
}
