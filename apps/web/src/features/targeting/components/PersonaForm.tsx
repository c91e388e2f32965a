import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { JOB_DEPARTMENTS, SENIORITIES, type TPersonaInput, ZPersonaInput } from '@warmpath/shared';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { ChoiceGroup } from '../../../components/ChoiceGroup.tsx';
import { useCreatePersona } from '../api.ts';
import { canAddPersona, EMPTY_PERSONA } from '../personaForm.ts';
import { withChosen } from '../targetingForm.ts';
import { CustomJobTitlesInput } from './CustomJobTitlesInput.tsx';

type PersonaPayload = z.output<typeof ZPersonaInput>;

/** Creates a persona: a name, and custom job titles or job departments with seniorities. */
export function PersonaForm() {
  const createPersona = useCreatePersona();
  const form = useForm<TPersonaInput, unknown, PersonaPayload>({
    resolver: zodResolver(ZPersonaInput),
    defaultValues: EMPTY_PERSONA,
  });
  const [name, jobDepartments, seniorities, customJobTitles] = useWatch({
    control: form.control,
    name: ['name', 'jobDepartments', 'seniorities', 'customJobTitles'],
  });
  const canAdd = canAddPersona({ name, jobDepartments, seniorities, customJobTitles });

  const submit = form.handleSubmit((persona) =>
    createPersona.mutate(persona, { onSuccess: () => form.reset(EMPTY_PERSONA) }),
  );

  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={submit} noValidate aria-labelledby="create-persona-title">
        <Stack>
          <Title order={2} size="h4" id="create-persona-title">
            Create persona
          </Title>
          <TextInput label="Name" error={form.formState.errors.name?.message} {...form.register('name')} />
          <Controller
            control={form.control}
            name="jobDepartments"
            render={({ field }) => (
              <ChoiceGroup
                label="Job departments"
                options={withChosen(JOB_DEPARTMENTS, field.value)}
                value={field.value}
                onChange={field.onChange}
              />
            )}
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
          <Group justify="flex-end">
            <Button type="submit" disabled={!canAdd} loading={createPersona.isPending}>
              Add Persona
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
