import { ActionIcon, Avatar, Button, Drawer, Group, Menu, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { SKELETON, type TAccount } from '@warmpath/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { type FitColumn, FitTable } from '../../../components/FitTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { TruncatedText } from '../../../components/TruncatedText.tsx';
import { initialOf } from '../../network/networkDisplay.ts';
import { ACCOUNTS_IMPORT, useAccounts, useDeleteAccount } from '../api.ts';
import { formatActivity } from '../clientDisplay.ts';
import { AssigneesDrawer } from '../components/AssigneesDrawer.tsx';
import { CsvImport } from '../components/CsvImport.tsx';
import { useListQuery } from '../useListQuery.ts';

/** Spec section 2's columns, then the row menu's. */
const COLUMNS: readonly FitColumn[] = [
  { header: 'Name', width: '34%' },
  { header: 'Assigned to' },
  { header: 'Last activity', width: 150 },
  { header: 'Actions', width: 84 },
];
const COLUMN_COUNT = COLUMNS.length;
const SHOWN_ASSIGNEES = 3;

/** Admin, Assigned Accounts: the target companies, who owns each, and when something last happened there. */
export function AccountsPage() {
  const { search, setSearch, query, setPage, setPageSize } = useListQuery();
  const accounts = useAccounts(query);
  const deleteAccount = useDeleteAccount();
  const [importOpened, importPanel] = useDisclosure(false);
  const [assigning, setAssigning] = useState<TAccount | null>(null);
  const [removing, setRemoving] = useState<TAccount | null>(null);

  const confirmRemove = () => {
    if (removing) deleteAccount.mutate(removing.id, { onSettled: () => setRemoving(null) });
  };

  return (
    <>
      <PageHeader title="Assigned Accounts" />
      <Stack>
        <Group justify="space-between" wrap="nowrap">
          <TextInput
            aria-label="Search accounts"
            placeholder="Search accounts..."
            type="search"
            maw={360}
            style={{ flex: 1 }}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <Button onClick={importPanel.open}>Import accounts</Button>
        </Group>
        {accounts.isError ? (
          <ErrorAlert message={accounts.error.message} onRetry={() => void accounts.refetch()} />
        ) : (
          <>
            <FitTable label="Assigned Accounts" columns={COLUMNS} verticalSpacing="sm" aria-busy={accounts.isFetching}>
              {accounts.isPending ? (
                <TableSkeletonRows rows={SKELETON.tableRows} columns={COLUMN_COUNT} />
              ) : accounts.data.rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMN_COUNT}>
                    <Text c="dimmed" ta="center" py="lg">
                      {query.searchTerm === ''
                        ? 'No accounts yet: import a CSV file of the companies you target.'
                        : 'No accounts match your search.'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                accounts.data.rows.map((account) => (
                  <AccountRow
                    key={account.id}
                    account={account}
                    onChangeAssignments={() => setAssigning(account)}
                    onRemove={() => setRemoving(account)}
                  />
                ))
              )}
            </FitTable>
            {accounts.data ? (
              <TablePagination
                pagination={accounts.data.pagination}
                onPageChange={setPage}
                onPageSizeChange={setPageSize}
                label="Accounts pages"
              />
            ) : null}
          </>
        )}
      </Stack>
      <Drawer
        opened={importOpened}
        onClose={importPanel.close}
        position="right"
        size="lg"
        title="Add accounts"
        closeButtonProps={{ 'aria-label': 'Close Add accounts' }}
      >
        <CsvImport title="Import accounts" target={ACCOUNTS_IMPORT} onBack={importPanel.close} />
      </Drawer>
      <AssigneesDrawer account={assigning} onClose={() => setAssigning(null)} />
      <ConfirmDialog
        opened={removing !== null}
        message={`Are you sure you want to remove ${removing?.name ?? 'this account'}?`}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
        confirming={deleteAccount.isPending}
      />
    </>
  );
}

type AccountRowProps = { account: TAccount; onChangeAssignments: () => void; onRemove: () => void };

function AccountRow({ account, onChangeAssignments, onRemove }: AccountRowProps) {
  const shown = account.assignedTo.slice(0, SHOWN_ASSIGNEES);
  const more = account.assignedTo.length - shown.length;
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Avatar src={account.avatar} alt="" radius="sm" size="sm">
            {initialOf(account.name)}
          </Avatar>
          <div style={{ minWidth: 0 }}>
            <TruncatedText text={account.name} size="sm" fw={500} />
            <TruncatedText text={account.domain} size="xs" c="dimmed" />
          </div>
        </Group>
      </Table.Td>
      <Table.Td>
        {account.assignedTo.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody
          </Text>
        ) : (
          <Group gap={6} wrap="wrap">
            {shown.map((user) => (
              <Group key={user.id} gap={4} wrap="nowrap" style={{ minWidth: 0, maxWidth: '100%' }}>
                <Avatar src={user.avatar} alt="" radius="xl" size="xs">
                  {initialOf(user.name)}
                </Avatar>
                <TruncatedText text={user.name} size="sm" />
              </Group>
            ))}
            {more > 0 ? <Text size="sm">+{more}</Text> : null}
          </Group>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={account.lastActivity ? undefined : 'dimmed'}>
          {formatActivity(account.lastActivity)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${account.name}`}>
              <svg width={18} height={18} viewBox="0 0 24 24" aria-hidden="true">
                <circle cx={5} cy={12} r={2} fill="currentColor" />
                <circle cx={12} cy={12} r={2} fill="currentColor" />
                <circle cx={19} cy={12} r={2} fill="currentColor" />
              </svg>
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={onChangeAssignments}>Change assignments</Menu.Item>
            <Menu.Item color="red" onClick={onRemove}>
              Remove account
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}
