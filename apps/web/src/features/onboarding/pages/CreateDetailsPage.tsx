import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, TextInput } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormCheckbox } from '../../../components/FormCheckbox.tsx';
import { FormDomainTags } from '../../../components/FormDomainTags.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { hasErrorCode } from '../../../lib/api.ts';
import { clearRegistration } from '../../../lib/auth.ts';
import { PATHS } from '../../../lib/paths.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useAuth } from '../../../lib/useAuth.ts';
import { useCreateWorkspaceAdmin } from '../../users/api.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import {
  createDetailsDefaults,
  type TCreateDetailsForm,
  type TCreateDetailsFormInput,
  toRegistration,
  ZCreateDetailsForm,
} from '../createDetailsForm.ts';
import { TERMS_LABEL } from '../terms.ts';
import type { DomainsNotWhitelistedState } from './DomainsNotWhitelistedPage.tsx';

/** Create account: the first admin names the workspace and its domains. */
export function CreateDetailsPage() {
  const profile = useAuth().user?.profile;
  const navigate = useNavigate();
  const createWorkspaceAdmin = useCreateWorkspaceAdmin();
  const form = useForm<TCreateDetailsFormInput, unknown, TCreateDetailsForm>({
    resolver: zodResolver(ZCreateDetailsForm),
    defaultValues: createDetailsDefaults(profile),
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) => {
    if (!profile) return;
    createWorkspaceAdmin.mutate(toRegistration(values, profile), {
      onSuccess: (me) => {
        clearRegistration();
        navigate(me.isGoogleConnected ? PATHS.signUp.importAccounts : PATHS.signUp.sync, { replace: true });
      },
      onError: (error) => {
        if (hasErrorCode(error, 'DOMAIN_NOT_WHITELISTED')) {
          const state: DomainsNotWhitelistedState = { message: error.message };
          navigate(PATHS.signUp.domainsNotWhitelisted, { state });
        } else {
          toast.error(error.message);
        }
      },
    });
  });

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.createDetails}>
      <PageHeader title="Create your account" />
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="First name"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <TextInput
            label="Last name"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...form.register('lastName')}
          />
          <TextInput
            label="Company name"
            autoComplete="organization"
            error={errors.companyName?.message}
            {...form.register('companyName')}
          />
          <FormDomainTags control={form.control} name="domains" label="Company domains" />
          <FormCheckbox
            control={form.control}
            name="termsAccepted"
            label={TERMS_LABEL}
            error={errors.termsAccepted?.message}
          />
          <Button type="submit" loading={createWorkspaceAdmin.isPending}>
            Create account
          </Button>
        </Stack>
      </form>
    </OnboardingLayout>
  );
}
