import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Skeleton, Stack, TextInput } from '@mantine/core';
import { DOMAIN_TAG_LIMITS, type TWorkspace, type TWorkspaceUpdate, ZWorkspaceUpdate } from '@warmpath/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FormCheckbox } from '../../../components/FormCheckbox.tsx';
import { FormDomainTags } from '../../../components/FormDomainTags.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useUpdateWorkspace, useWorkspace } from '../api.ts';

type WorkspaceFormInput = z.input<typeof ZWorkspaceUpdate>;

function formValuesOf(workspace: TWorkspace): WorkspaceFormInput {
  return { name: workspace.name, domains: workspace.domains, allowDomainJoin: workspace.allowDomainJoin };
}

/** Admin, Workspace tab: the workspace's name, domains and whether its domains may join freely. */
export function WorkspaceSettingsPage() {
  const workspace = useWorkspace();

  return (
    <>
      <PageHeader title="Workspace" />
      {workspace.isPending ? (
        <Stack maw={560} aria-busy="true" aria-label="Loading workspace">
          <Skeleton height={60} />
          <Skeleton height={60} />
          <Skeleton height={24} width="70%" />
        </Stack>
      ) : workspace.isError ? (
        <ErrorAlert message={workspace.error.message} onRetry={() => void workspace.refetch()} />
      ) : (
        <WorkspaceSettingsForm workspace={workspace.data} />
      )}
    </>
  );
}

function WorkspaceSettingsForm({ workspace }: { workspace: TWorkspace }) {
  const updateWorkspace = useUpdateWorkspace();
  const form = useForm<WorkspaceFormInput, unknown, TWorkspaceUpdate>({
    resolver: zodResolver(ZWorkspaceUpdate),
    defaultValues: formValuesOf(workspace),
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) =>
    updateWorkspace.mutate(values, { onSuccess: (saved) => form.reset(formValuesOf(saved)) }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={560}>
        <TextInput
          label="Company name"
          autoComplete="organization"
          error={errors.name?.message}
          {...form.register('name')}
        />
        <FormDomainTags control={form.control} name="domains" label="Domain(s)" max={DOMAIN_TAG_LIMITS.workspace} />
        <FormCheckbox
          control={form.control}
          name="allowDomainJoin"
          label="Allow anyone with domain name to join Workspace"
        />
        <Group>
          <Button type="submit" loading={updateWorkspace.isPending}>
            Update
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
