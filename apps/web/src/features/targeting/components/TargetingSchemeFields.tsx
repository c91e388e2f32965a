import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text } from '@mantine/core';
import {
  COMPANY_SIZES,
  COMPANY_TYPES,
  DOMAIN_TAG_LIMITS,
  JOB_DEPARTMENTS,
  LAYOUT,
  ONBOARDING_JOB_DEPARTMENTS,
  SENIORITIES,
  type TCountry,
  type TTargetingScheme,
  type TTargetingSchemeInput,
  ZTargetingScheme,
} from '@warmpath/shared';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { ChoiceGroup } from '../../../components/ChoiceGroup.tsx';
import { FormDomainTags } from '../../../components/FormDomainTags.tsx';
import { useSaveTargetingScheme } from '../api.ts';
import {
  missingChoicesSentence,
  missingTargetingChoices,
  type TargetingContext,
  toTargetingPayload,
  withChosen,
} from '../targetingForm.ts';
import { CountriesSelect } from './CountriesSelect.tsx';
import { CustomJobTitlesInput } from './CustomJobTitlesInput.tsx';
import { IndustriesField } from './IndustriesField.tsx';
import { PagedOptionsSelect } from './PagedOptionsSelect.tsx';

export type TargetingSchemeFieldsProps = {
  context: TargetingContext;
  countries: readonly TCountry[];
  defaultValues: TTargetingSchemeInput;
  onSaved?: () => void;
  busy: boolean;
};

/** The fields of a targeting scheme, in the spec's order, and Continue (onboarding) or Save. */
export function TargetingSchemeFields({
  context,
  countries,
  defaultValues,
  onSaved,
  busy,
}: TargetingSchemeFieldsProps) {
  const save = useSaveTargetingScheme();
  const form = useForm<TTargetingSchemeInput, unknown, TTargetingScheme>({
    resolver: zodResolver(ZTargetingScheme),
    defaultValues,
  });
  const { errors } = form.formState;
  const [countriesChosen, companySize, companyType, jobDepartments] = useWatch({
    control: form.control,
    name: ['countries', 'companySize', 'companyType', 'jobDepartments'],
  });
  const missing = missingTargetingChoices({ countries: countriesChosen, companySize, companyType, jobDepartments });
  const missingId = useId();

  const onboarding = context === 'onboarding';
  const maxDropdownHeight = onboarding ? LAYOUT.onboardingDropdownMaxHeightPx : LAYOUT.filterDropdownMaxHeightPx;
  const departments: readonly string[] = onboarding ? ONBOARDING_JOB_DEPARTMENTS : JOB_DEPARTMENTS;

  const submit = form.handleSubmit((values) => save.mutate(toTargetingPayload(values), { onSuccess: onSaved }));

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Controller
          control={form.control}
          name="countries"
          render={({ field }) => (
            <CountriesSelect
              countries={countries}
              value={field.value}
              onChange={field.onChange}
              maxDropdownHeight={maxDropdownHeight}
              error={errors.countries?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="companySize"
          render={({ field }) => (
            <ChoiceGroup
              label="Company size"
              options={COMPANY_SIZES}
              value={field.value}
              onChange={field.onChange}
              error={errors.companySize?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="companyType"
          render={({ field }) => (
            <ChoiceGroup
              label="Company type"
              options={COMPANY_TYPES}
              value={field.value}
              onChange={field.onChange}
              error={errors.companyType?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="jobDepartments"
          render={({ field }) => (
            <ChoiceGroup
              label="Job departments"
              options={withChosen(departments, field.value)}
              value={field.value}
              onChange={field.onChange}
              error={errors.jobDepartments?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="industries"
          render={({ field }) => <IndustriesField value={field.value} onChange={field.onChange} />}
        />
        <Controller
          control={form.control}
          name="seniorities"
          render={({ field }) => (
            <ChoiceGroup label="Seniorities" options={SENIORITIES} value={field.value} onChange={field.onChange} />
          )}
        />
        <Controller
          control={form.control}
          name="customJobTitles"
          render={({ field }) => <CustomJobTitlesInput value={field.value} onChange={field.onChange} />}
        />
        <FormDomainTags
          control={form.control}
          name="competitorDomainsToExclude"
          label="Competitor domains to exclude"
          max={DOMAIN_TAG_LIMITS.exclusions}
        />
        <Controller
          control={form.control}
          name="technologies"
          render={({ field }) => (
            <PagedOptionsSelect
              kind="technologies"
              label="Technologies"
              value={field.value}
              onChange={field.onChange}
              maxDropdownHeight={maxDropdownHeight}
            />
          )}
        />
        <Controller
          control={form.control}
          name="specificIndustries"
          render={({ field }) => (
            <PagedOptionsSelect
              kind="specificIndustries"
              label="Specific industries"
              value={field.value.map((industry) => ({ value: industry, name: industry }))}
              onChange={(options) => field.onChange(options.map((option) => option.value))}
              maxDropdownHeight={maxDropdownHeight}
            />
          )}
        />
        <Group justify="flex-end">
          {missing.length > 0 ? (
            <Text id={missingId} size="sm" c="dimmed">
              {missingChoicesSentence(missing, onboarding ? 'continue' : 'save')}
            </Text>
          ) : null}
          <Button
            type="submit"
            disabled={missing.length > 0}
            aria-describedby={missing.length > 0 ? missingId : undefined}
            loading={save.isPending || busy}
          >
            {onboarding ? 'Continue' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
