import { Stack, Table, Text, Title } from '@mantine/core';
import { AUDIT_ACTION_LABELS, type AuditAction, type TAuditEntry } from '@warmpath/shared';
import { useId, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { useAuditLog } from '../api.ts';

const COLUMNS = ['When', 'Who', 'Action', 'About'] as const;
const DEFAULT_PAGE_SIZE = 20;
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const actionLabel = (action: string) =>
  action in AUDIT_ACTION_LABELS ? AUDIT_ACTION_LABELS[action as AuditAction] : action;

/**
 * Admin › Workspace › Audit log: who exported or erased a person, connected or disconnected a source,
 * exported the network or removed a member, and when; newest first, kept one year, never editable.
 */
export function AuditLogSection() {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const log = useAuditLog(page, pageSize);
  return (
    <Stack component="section" aria-labelledby={headingId} maw={900} mt="xl">
      <Title order={2} size="h4" id={headingId}>
        Audit log
      </Title>
      <Text size="sm" c="dimmed">
        Exports, erasures, sources connected and disconnected, and members removed. Entries are kept for one year and
        cannot be changed.
      </Text>
      {log.isError ? (
        <ErrorAlert message={log.error.message} onRetry={() => void log.refetch()} />
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" aria-labelledby={headingId} aria-busy={log.isPending}>
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
                ) : log.data.rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={COLUMNS.length}>
                      <Text c="dimmed" ta="center" py="lg">
                        Nothing recorded yet.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  log.data.rows.map((entry) => <AuditRow key={entry.id} entry={entry} />)
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {log.data && log.data.pagination.totalCount > 0 ? (
            <TablePagination
              label="Audit log pages"
              pagination={log.data.pagination}
              onPageChange={setPage}
              onPageSizeChange={(size) => {
                setPageSize(size);
                setPage(1);
              }}
            />
          ) : null}
        </>
      )}
    </Stack>
  );
}

function AuditRow({ entry }: { entry: TAuditEntry }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {when.format(new Date(entry.at))}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{entry.actorEmail}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{actionLabel(entry.action)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{entry.subject}</Text>
      </Table.Td>
    </Table.Tr>
  );
}
