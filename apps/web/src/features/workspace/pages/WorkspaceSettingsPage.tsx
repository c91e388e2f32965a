import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Select, Skeleton, Stack, TextInput } from '@mantine/core';
import { DOMAIN_TAG_LIMITS, type TWorkspace, type TWorkspaceUpdate, ZWorkspaceUpdate } from '@warmpath/shared';
import { useMemo } from 'react';
import { type Control, useController, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FormCheckbox } from '../../../components/FormCheckbox.tsx';
import { FormDomainTags } from '../../../components/FormDomainTags.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useUpdateWorkspace, useWorkspace } from '../api.ts';
import { AuditLogSection } from '../components/AuditLogSection.tsx';
import { WebsiteTrackingSection } from '../components/WebsiteTrackingSection.tsx';

type WorkspaceFormInput = z.input<typeof ZWorkspaceUpdate>;

function formValuesOf(workspace: TWorkspace): WorkspaceFormInput {
  return {
    name: workspace.name,
    domains: workspace.domains,
    allowDomainJoin: workspace.allowDomainJoin,
    timeZone: workspace.timeZone,
  };
}

/** The browser's IANA zones, with UTC (which the list leaves out) and the workspace's current zone. */
function timeZoneOptions(current: string): string[] {
  return [...new Set(['UTC', current, ...Intl.supportedValuesOf('timeZone')])].sort((a, b) => a.localeCompare(b));
}

/**
 * Admin, Workspace tab: the workspace's name, domains, whether its domains may join freely, and its
 * time zone (the daily recommendations run at 06:00 there); then its website tracking and its audit log.
 */
export function WorkspaceSettingsPage() {
  const workspace = useWorkspace();

  return (
    <>
      <PageHeader title="Workspace" />
      {workspace.isPending ? (
        <Stack maw={560} role="status" aria-busy="true" aria-label="Loading workspace">
          <Skeleton height={60} />
          <Skeleton height={60} />
          <Skeleton height={24} width="70%" />
        </Stack>
      ) : workspace.isError ? (
        <ErrorAlert message={workspace.error.message} onRetry={() => void workspace.refetch()} />
      ) : (
        <WorkspaceSettingsForm workspace={workspace.data} />
      )}
      <WebsiteTrackingSection />
      <AuditLogSection />
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
        <TimeZoneSelect control={form.control} current={workspace.timeZone} error={errors.timeZone?.message} />
        <Group>
          <Button type="submit" loading={updateWorkspace.isPending}>
            Update
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type TimeZoneSelectProps = { control: Control<WorkspaceFormInput>; current: string; error: string | undefined };

function TimeZoneSelect({ control, current, error }: TimeZoneSelectProps) {
  const { field } = useController({ control, name: 'timeZone' });
  const zones = useMemo(() => timeZoneOptions(current), [current]);
  return (
    <Select
      label="Time zone"
      description="Recommended actions arrive every morning at 6:00 in this time zone."
      data={zones}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No time zone matches"
      value={field.value ?? current}
      onChange={(value) => field.onChange(value ?? current)}
      onBlur={field.onBlur}
      ref={field.ref}
      error={error}
    />
  );
}
