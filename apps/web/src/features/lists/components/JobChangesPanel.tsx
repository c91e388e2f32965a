import { Badge, Button, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { TDeparture, TJobChange, TJobChanges } from '@warmpath/shared';
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

/** A row of the table: a move to a known company, or a departure for an unknown one. */
type Row = {
  id: string;
  person: TJobChange['person'];
  tracked: boolean;
  from: string;
  seenOn: string;
  source: string;
  confidence: TJobChange['confidence'];
  status: TJobChange['status'];
  /** Says what a decision is about, for the buttons' accessible names. */
  what: string;
  to: { departure: TDeparture } | { company: string };
};

/** Moves and departures in one list, newest first. */
function rowsOf(data: TJobChanges): Row[] {
  const moves = data.changes.map(
    (change): Row => ({
      ...change,
      from: change.pastCompanyName ?? 'Unknown',
      seenOn: change.changedOn,
      source: SOURCE_LABELS[change.source],
      what: `moved to ${change.newCompanyName}`,
      to: { company: change.newCompanyName },
    }),
  );
  const departures = data.departures.map(
    (departure): Row => ({
      ...departure,
      from: departure.pastCompanyName ?? 'Unknown',
      seenOn: departure.bouncedOn,
      source: departure.source === 'mail' ? 'Mail (address bounced)' : SOURCE_LABELS[departure.source],
      what: `left ${departure.pastCompanyName ?? 'their company'}`,
      to: { departure },
    }),
  );
  return [...moves, ...departures].sort((a, b) => b.seenOn.localeCompare(a.seenOn));
}

/**
 * The job changes seen in the workspace, above the tracked contacts: who moved, where to, and how we
 * know; and who may have left (mail to their company address bounced), where to unknown.
 */
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
      ) : changes.data && changes.data.changes.length + changes.data.departures.length === 0 ? (
        <Text size="sm" c="dimmed">
          No job change seen{recentOnly ? ` in the last ${RECENT_DAYS} days` : ''}. They appear when a newer LinkedIn
          export shows a contact at another company, when someone starts writing from a new company's address, or when
          mail to a contact's company address bounces.
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
              rowsOf(changes.data).map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>
                    {row.person.name}{' '}
                    {row.tracked ? (
                      <Badge size="xs" variant="light" tt="none">
                        Tracked client
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{row.from}</Table.Td>
                  <Table.Td>
                    {'company' in row.to ? (
                      row.to.company
                    ) : (
                      <>
                        May have left
                        <Text size="xs" c="dimmed">
                          Mail to {row.to.departure.address} bounced
                        </Text>
                      </>
                    )}
                  </Table.Td>
                  <Table.Td>{row.seenOn}</Table.Td>
                  <Table.Td>{row.source}</Table.Td>
                  <Table.Td>{row.confidence === 'certain' ? 'Certain' : 'Probable'}</Table.Td>
                  <Table.Td>
                    {row.status === 'detected' ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={`Confirm ${row.person.name} ${row.what}`}
                          loading={decide.isPending && decide.variables?.id === row.id}
                          onClick={() => decide.mutate({ id: row.id, confirmed: true })}
                        >
                          Confirm
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="gray"
                          aria-label={`Dismiss ${row.person.name} ${row.what}`}
                          onClick={() => decide.mutate({ id: row.id, confirmed: false })}
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
