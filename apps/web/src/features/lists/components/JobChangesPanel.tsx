import { Badge, Button, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { TJobChange } from '@warmpath/shared';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { useDecideJobChange, useJobChanges } from '../api.ts';

/** Spec section 1's claim: why these changes matter. */
export const PAST_CLIENT_CLAIM = 'Former clients convert 3 times more than cold outbound.';
const RECENT_DAYS = 30;
const SOURCE_LABELS: Record<TJobChange['source'], string> = {
  linkedin: 'LinkedIn export',
  import: 'CSV import',
  manual: 'Edited by hand',
  mail: 'Mail (new address)',
};
const COLUMNS = ['Contact', 'From', 'To', 'Seen on', 'Source', 'Confidence', 'Decision'] as const;

/** The job changes seen in the workspace, above the tracked contacts: who moved, where to, and how we know. */
export function JobChangesPanel() {
  const [recentOnly, setRecentOnly] = useState(true);
  const changes = useJobChanges(recentOnly ? RECENT_DAYS : null);
  const decide = useDecideJobChange();
  return (
    <Stack gap="sm" component="section" aria-labelledby="job-changes-title">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h4" id="job-changes-title">
            Detected job changes
          </Title>
          <Text size="sm" c="dimmed">
            {PAST_CLIENT_CLAIM}
          </Text>
        </div>
        <Checkbox
          label={`Changed in the last ${RECENT_DAYS} days`}
          checked={recentOnly}
          onChange={(event) => setRecentOnly(event.currentTarget.checked)}
        />
      </Group>
      {changes.isError ? (
        <ErrorAlert message={changes.error.message} onRetry={() => void changes.refetch()} />
      ) : changes.data && changes.data.changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No job change seen{recentOnly ? ` in the last ${RECENT_DAYS} days` : ''}. They appear when a newer LinkedIn
          export shows a contact at another company, or when someone starts writing from a new company's address.
        </Text>
      ) : (
        <Table aria-label="Detected job changes" aria-busy={changes.isFetching}>
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.isPending ? (
              <TableSkeletonRows rows={3} columns={COLUMNS.length} />
            ) : (
              changes.data.changes.map((change) => (
                <Table.Tr key={change.id}>
                  <Table.Td>
                    {change.person.name}{' '}
                    {change.tracked ? (
                      <Badge size="xs" variant="light" tt="none">
                        Tracked client
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{change.pastCompanyName ?? 'Unknown'}</Table.Td>
                  <Table.Td>{change.newCompanyName}</Table.Td>
                  <Table.Td>{change.changedOn}</Table.Td>
                  <Table.Td>{SOURCE_LABELS[change.source]}</Table.Td>
                  <Table.Td>{change.confidence === 'certain' ? 'Certain' : 'Probable'}</Table.Td>
                  <Table.Td>
                    {change.status === 'detected' ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={`Confirm ${change.person.name} moved to ${change.newCompanyName}`}
                          loading={decide.isPending && decide.variables?.id === change.id}
                          onClick={() => decide.mutate({ id: change.id, confirmed: true })}
                        >
                          Confirm
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="gray"
                          aria-label={`Dismiss ${change.person.name} moved to ${change.newCompanyName}`}
                          onClick={() => decide.mutate({ id: change.id, confirmed: false })}
                        >
                          Dismiss
                        </Button>
                      </Group>
                    ) : (
                      'Confirmed'
                    )}
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
