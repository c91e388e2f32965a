import { ActionIcon, Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { TMe, TSyncRun } from '@warmpath/shared';
import { useId } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { RunProgress } from '../../../components/RunProgress.tsx';
import { ConnectionIcon } from '../../users/components/ConnectionIcon.tsx';
import { useGoogleSyncStatus, useRequestGoogleSync } from '../api.ts';
import { isAccessRevoked, isSyncActive, syncCountsSummary } from '../syncRun.ts';
import { useConnectGoogleHere } from '../useConnectGoogleHere.ts';
import { UndeliveredEmails } from './UndeliveredEmails.tsx';

export type GoogleConnectionCardProps = { user: Pick<TMe, 'isGoogleConnected' | 'googleAccountEmail'> };

const PROGRESS_LABEL = 'Google sync progress';

/**
 * The Google connection: Connect (off to Google's consent page and back to this page) or Connected,
 * and once connected the latest sync, with a control to sync again.
 */
export function GoogleConnectionCard({ user }: GoogleConnectionCardProps) {
  const titleId = useId();
  const { connect: startConnect, connecting } = useConnectGoogleHere();
  const requestSync = useRequestGoogleSync();
  const status = useGoogleSyncStatus(user.isGoogleConnected);
  const connected = user.isGoogleConnected;

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <ConnectionIcon provider="Google" connected={connected} />
            <Title order={3} size="h5" id={titleId}>
              Google
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {connected ? (
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="Refresh Google sync"
                onClick={() => requestSync.mutate()}
                loading={requestSync.isPending}
                disabled={isSyncActive(status.data)}
              >
                <RefreshIcon />
              </ActionIcon>
            ) : null}
            <Button size="sm" onClick={startConnect} disabled={connected} loading={!connected && connecting}>
              {connected ? 'Connected' : 'Connect'}
            </Button>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          Your contacts, mail headers and meetings show who your team knows. Message contents are never read.
        </Text>
        {connected && user.googleAccountEmail ? <Text size="sm">Connected as {user.googleAccountEmail}</Text> : null}
        {!connected ? null : status.isPending ? (
          <Text size="sm" c="dimmed" role="status">
            Loading the latest sync...
          </Text>
        ) : status.isError ? (
          <ErrorAlert message={status.error.message} onRetry={() => void status.refetch()} />
        ) : (
          <SyncRunStatus run={status.data} onReconnect={startConnect} reconnecting={connecting} />
        )}
        <UndeliveredEmails enabled={connected} />
      </Stack>
    </Card>
  );
}

type SyncRunStatusProps = { run: TSyncRun | null; onReconnect: () => void; reconnecting: boolean };

function SyncRunStatus({ run, onReconnect, reconnecting }: SyncRunStatusProps) {
  if (run === null) {
    return (
      <Text size="sm" c="dimmed">
        Not synced yet. Use the refresh button to start.
      </Text>
    );
  }
  if (run.status === 'failed') {
    return (
      <Alert color="red" variant="light" role="alert" title="The last sync failed">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{run.error ?? 'The sync stopped before the end.'}</Text>
          {isAccessRevoked(run.error) ? (
            <Button size="xs" onClick={onReconnect} loading={reconnecting}>
              Reconnect
            </Button>
          ) : null}
        </Stack>
      </Alert>
    );
  }
  if (run.status === 'succeeded') {
    const summary = run.counts ? syncCountsSummary(run.counts) : '';
    return (
      <Text size="sm" role="status">
        {summary === '' ? 'Last sync finished.' : `Last sync: ${summary}`}
      </Text>
    );
  }
  return <RunProgress run={run} label={PROGRESS_LABEL} />;
}

function RefreshIcon() {
  return (
    <svg
      width={18}
      height={18}
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
    >
      <path d="M20 11a8 8 0 0 0-14.9-4M4 4v4h4" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M4 13a8 8 0 0 0 14.9 4M20 20v-4h-4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
