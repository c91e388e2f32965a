import { Group, Progress, Stack, Text } from '@mantine/core';
import type { TSyncRun } from '@warmpath/shared';
import { syncPercent } from '../features/sources/syncRun.ts';
import { formatCount } from '../lib/format.ts';

/**
 * A long job under way (a Google sync, a HubSpot lists sync): its phase, how far it got, and a bar;
 * a moving bar without a value while nothing can be counted yet.
 */
export function RunProgress({ run, label }: { run: TSyncRun; label: string }) {
  const percent = syncPercent(run);
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">{run.phase ?? (run.status === 'queued' ? 'Waiting to start' : 'Syncing')}</Text>
        {percent === null || run.total === null ? null : (
          <Text size="sm" c="dimmed">
            {formatCount(run.processed)} of {formatCount(run.total)}
          </Text>
        )}
      </Group>
      <Progress.Root size="md">
        {percent === null ? (
          <Progress.Section
            value={100}
            animated
            withAria={false}
            role="progressbar"
            aria-label={label}
            aria-valuetext={run.phase ?? 'In progress'}
          />
        ) : (
          <Progress.Section value={percent} aria-label={label} />
        )}
      </Progress.Root>
    </Stack>
  );
}
