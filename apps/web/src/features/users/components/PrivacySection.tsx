import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Checkbox,
  CloseButton,
  Group,
  NumberInput,
  Radio,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  SHARING_LEVEL_LABELS,
  SHARING_LEVELS,
  type TPrivacy,
  type TSharingLevel,
  type TUpdatePrivacy,
  ZBlocklistEntry,
  ZUpdatePrivacy,
} from '@warmpath/shared';
import { useEffect, useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { useBlockContact, usePrivacy, useUnblockContact, useUpdatePrivacy } from '../api.ts';

const SHARING_DESCRIPTIONS: Record<TSharingLevel, string> = {
  all: 'Teammates see whom you know, through which channels, and how strongly.',
  strength: 'Teammates see whom you know and how strongly, never channels, counts or dates.',
  private: 'Your evidence helps only you: teammates never see it, and you are never offered as a connector.',
};

const settingsOf = (privacy: TPrivacy): TUpdatePrivacy => ({
  sharingLevel: privacy.sharingLevel,
  acceptsIntros: privacy.acceptsIntros,
  weeklyIntroCap: privacy.weeklyIntroCap,
});

/** My Account › Privacy: what teammates see of the member's network, intro requests, and the blocklist. */
export function PrivacySection({ opened }: { opened: boolean }) {
  const privacy = usePrivacy(opened);
  if (!privacy.data) return <Skeleton height={240} role="status" aria-label="Loading privacy settings" />;
  return (
    <Stack gap="md">
      <Title order={4}>Privacy</Title>
      <PrivacyForm privacy={privacy.data} />
      <Blocklist entries={privacy.data.blocklist} />
    </Stack>
  );
}

function PrivacyForm({ privacy }: { privacy: TPrivacy }) {
  const update = useUpdatePrivacy();
  const form = useForm<TUpdatePrivacy>({ resolver: zodResolver(ZUpdatePrivacy), defaultValues: settingsOf(privacy) });
  const { reset, control } = form;
  useEffect(() => reset(settingsOf(privacy)), [privacy, reset]);
  const sharing = useController({ control, name: 'sharingLevel' }).field;
  const cap = useController({ control, name: 'weeklyIntroCap' }).field;
  const save = form.handleSubmit((settings) => update.mutate(settings));
  return (
    <form onSubmit={save}>
      <Stack gap="sm">
        <Radio.Group
          label="Sharing level"
          value={sharing.value}
          onChange={(value) => sharing.onChange(value as TSharingLevel)}
        >
          <Stack gap="xs" mt="xs">
            {SHARING_LEVELS.map((level) => (
              <Radio
                key={level}
                value={level}
                label={SHARING_LEVEL_LABELS[level]}
                description={SHARING_DESCRIPTIONS[level]}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Checkbox
          label="Don't ask me for intros"
          description="Teammates and recommendations never ask you to introduce anyone."
          checked={!form.watch('acceptsIntros')}
          onChange={(event) => form.setValue('acceptsIntros', !event.currentTarget.checked, { shouldDirty: true })}
        />
        <NumberInput
          label="My weekly intro cap"
          description={`Intro requests you take per week; empty follows the workspace's (${privacy.workspaceWeeklyIntroCap}).`}
          min={1}
          max={100}
          allowDecimal={false}
          value={cap.value ?? ''}
          onChange={(value) => cap.onChange(typeof value === 'number' ? value : null)}
          error={form.formState.errors.weeklyIntroCap?.message}
        />
        <Button type="submit" loading={update.isPending} disabled={!form.formState.isDirty}>
          Save privacy settings
        </Button>
      </Stack>
    </form>
  );
}

function Blocklist({ entries }: { entries: string[] }) {
  const block = useBlockContact();
  const unblock = useUnblockContact();
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const parsed = ZBlocklistEntry.safeParse(entry);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid entry');
      return;
    }
    setError(null);
    block.mutate(parsed.data, { onSuccess: () => setEntry('') });
  };
  return (
    <Stack gap="xs">
      <Text fw={500}>Blocklist</Text>
      <Text size="sm" c="dimmed">
        Nothing about these addresses and domains is synced or kept from your accounts; adding one erases what was.
      </Text>
      <Group align="flex-start" gap="xs">
        <TextInput
          aria-label="Address or domain to block"
          placeholder="name@example.com or example.com"
          value={entry}
          error={error}
          onChange={(event) => setEntry(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          style={{ flex: 1 }}
        />
        <Button variant="default" onClick={add} loading={block.isPending}>
          Block
        </Button>
      </Group>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          No one is blocked.
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {entries.map((blocked) => (
            <Group key={blocked} component="li" justify="space-between" gap="xs">
              <Text size="sm">{blocked}</Text>
              <CloseButton size="sm" aria-label={`Unblock ${blocked}`} onClick={() => unblock.mutate(blocked)} />
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
