import { Badge, Button, Code, Group, Loader, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import type { TDeliveryAttempt } from '@warmpath/shared';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { plural } from '../../../lib/format.ts';
import { useDeliveryLog, useRetryDelivery, useSendTestWebhook } from '../api.ts';

const COLUMNS = ['Event', 'Result', 'Duration', 'Sent', 'Next retry', ''];

const dateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * The last 100 attempts to the endpoint, newest first, with a test event to send and failed ones to
 * retry; above them, how many deliveries are queued and not tried yet.
 */
export function DeliveryLog() {
  const log = useDeliveryLog();
  const sendTest = useSendTestWebhook();

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Deliveries
        </Title>
        <Button variant="default" onClick={() => sendTest.mutate()} loading={sendTest.isPending}>
          Send test event
        </Button>
      </Group>
      {log.data && log.data.waiting > 0 ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {plural(log.data.waiting, 'delivery', 'deliveries')} waiting to be sent
          </Text>
        </Group>
      ) : null}
      {log.isError ? (
        <ErrorAlert message={log.error.message} onRetry={() => void log.refetch()} />
      ) : (
        <ScrollArea type="auto">
          <Table striped aria-busy={log.isPending} aria-label="Webhook deliveries">
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.isPending ? (
                <TableSkeletonRows rows={5} columns={COLUMNS.length} />
              ) : log.data.attempts.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS.length}>
                    <Text size="sm" c="dimmed" ta="center" py="md">
                      No deliveries yet. Send a test event to try the endpoint.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                log.data.attempts.map((attempt) => <AttemptRow key={attempt.id} attempt={attempt} />)
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Stack>
  );
}

function AttemptRow({ attempt }: { attempt: TDeliveryAttempt }) {
  const retry = useRetryDelivery(attempt.deliveryId);
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  return (
    <Table.Tr>
      <Table.Td>
        <Code>{attempt.eventType}</Code>
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Badge color={ok ? 'green' : 'red'} variant="light">
            {attempt.statusCode ?? 'No answer'}
          </Badge>
          {attempt.error ? (
            <Text size="xs" c="dimmed" lineClamp={1} title={attempt.error}>
              {attempt.error}
            </Text>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>{attempt.durationMs} ms</Table.Td>
      <Table.Td>{dateTime(attempt.attemptedAt)}</Table.Td>
      <Table.Td>{attempt.nextAttemptAt ? dateTime(attempt.nextAttemptAt) : '—'}</Table.Td>
      <Table.Td>
        {attempt.deliveryStatus === 'failed' ? (
          <Button size="xs" variant="default" onClick={() => retry.mutate()} loading={retry.isPending}>
            Retry
          </Button>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}
