import { Alert, Button, Card, Group, Stack, Text } from '@mantine/core';
import { RunProgress } from '../../../components/RunProgress.tsx';
import { formatCount } from '../../../lib/format.ts';
import { useHubspot, useSyncHubspot } from '../api.ts';

/** Where the HubSpot lists stand: the portal, the last sync or the one under way, and 'Sync now'. */
export function HubspotSyncStatus() {
  const hubspot = useHubspot(true);
  const sync = useSyncHubspot();
  const connection = hubspot.data;
  if (!connection) return null;
  const run = connection.sync;
  const running = run?.status === 'queued' || run?.status === 'running';
  return (
    <Card withBorder radius="md" padding="md" mb="lg" component="section" aria-label="HubSpot lists sync">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>HubSpot · {connection.portal}</Text>
          <Button
            variant="default"
            size="xs"
            onClick={() => sync.mutate()}
            loading={sync.isPending}
            disabled={running || connection.reconnectRequired}
          >
            Sync now
          </Button>
        </Group>
        {connection.reconnectRequired ? (
          <Alert color="red" variant="light" role="alert">
            HubSpot refused our access: connect it again from the Integrations page.
          </Alert>
        ) : run === null ? (
          <Text size="sm" c="dimmed">
            Not synced yet: choose company lists below.
          </Text>
        ) : running ? (
          <RunProgress run={run} label="HubSpot sync progress" />
        ) : run.status === 'failed' ? (
          <Alert color="red" variant="light" role="alert" title="The last sync failed">
            {run.error ?? 'The sync stopped before the end.'}
          </Alert>
        ) : (
          <Text size="sm" role="status">
            Last sync: {formatCount(run.counts?.companies ?? 0)} companies from {formatCount(run.counts?.lists ?? 0)}{' '}
            {run.counts?.lists === 1 ? 'list' : 'lists'},{' '}
            {run.finishedAt ? new Date(run.finishedAt).toLocaleString() : ''}. Lists are read again every 4 hours.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
