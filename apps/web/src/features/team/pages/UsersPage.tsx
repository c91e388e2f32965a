import { Avatar, Badge, Button, Group, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { DEBOUNCE_MS, LAYOUT, MESSAGES, SKELETON, type TTeammate } from '@warmpath/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { useSession } from '../../../lib/useSession.ts';
import { ConnectionIcon } from '../../users/components/ConnectionIcon.tsx';
import { useChangeRole, useDeleteUser, useTeammates } from '../api.ts';
import { InviteUsersModal } from '../components/InviteUsersModal.tsx';
import { TeammateMenu } from '../components/TeammateMenu.tsx';
import { ROLE_LABELS, STATUS_COLORS } from '../teammateDisplay.ts';

const COLUMNS = ['Name', 'Connections', 'Status', 'Role'] as const;
// The four named columns and the row menu's.
const COLUMN_COUNT = COLUMNS.length + 1;
const TABLE_MIN_WIDTH = 720;

/** Admin, Users tab: the workspace's teammates, their connections, status and role. */
export function UsersPage() {
  const [search, setSearch] = useState('');
  const [searchTerm] = useDebouncedValue(search, DEBOUNCE_MS.search);
  const teammates = useTeammates(searchTerm);
  const [inviteOpened, inviteModal] = useDisclosure(false);

  return (
    <>
      <PageHeader title="Users" />
      <Stack>
        <Group justify="space-between" wrap="nowrap">
          <TextInput
            aria-label="Search users"
            placeholder="Search users..."
            type="search"
            maw={360}
            style={{ flex: 1 }}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <Button onClick={inviteModal.open}>Invite users</Button>
        </Group>
        {teammates.isError ? (
          <Text role="alert" c="red.9">
            {MESSAGES.teammatesFetchError}
            {teammates.error.message}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} maxHeight={LAYOUT.usersTableMaxHeight}>
            <Table stickyHeader verticalSpacing="sm" aria-busy={teammates.isPending}>
              <Table.Thead>
                <Table.Tr>
                  {COLUMNS.map((column) => (
                    <Table.Th key={column}>{column}</Table.Th>
                  ))}
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {teammates.isPending ? (
                  <TableSkeletonRows rows={SKELETON.tableRows} columns={COLUMN_COUNT} />
                ) : teammates.data.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={COLUMN_COUNT}>
                      <Text c="dimmed" ta="center" py="lg">
                        No users found.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  teammates.data.map((teammate) => <TeammateRow key={teammate.id} teammate={teammate} />)
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <InviteUsersModal opened={inviteOpened} onClose={inviteModal.close} />
    </>
  );
}

/** What removing a teammate does (issue 22): a pending invitation is only revoked. */
export function removalQuestion(teammate: TTeammate): string {
  return teammate.status === 'Invited'
    ? `Revoke the invitation of ${teammate.email}?`
    : `Remove ${teammate.fullName}? Their mail, calendar, contacts and LinkedIn connections leave with them: the people they know disappear from everyone's network.`;
}

function TeammateRow({ teammate }: { teammate: TTeammate }) {
  const { user } = useSession();
  const changeRole = useChangeRole();
  const deleteUser = useDeleteUser();
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Avatar src={teammate.avatar} name={teammate.fullName} alt={teammate.fullName} radius="xl" size="sm" />
          <div>
            <Text size="sm" fw={500}>
              {teammate.fullName}
            </Text>
            <Text size="xs" c="dimmed">
              {teammate.email}
            </Text>
          </div>
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <ConnectionIcon provider="LinkedIn" connected={teammate.isLinkedinConnected} />
          <ConnectionIcon provider="Google" connected={teammate.isGoogleConnected} />
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={STATUS_COLORS[teammate.status]}>
          {teammate.status}
        </Badge>
      </Table.Td>
      <Table.Td>{ROLE_LABELS[teammate.role]}</Table.Td>
      <Table.Td>
        <TeammateMenu
          teammate={teammate}
          disabled={teammate.id === user?.id || changeRole.isPending || deleteUser.isPending}
          onChangeRole={(role) => changeRole.mutate({ id: teammate.id, role, email: teammate.email })}
          onRemove={() => setConfirmingRemoval(true)}
        />
        <ConfirmDialog
          opened={confirmingRemoval}
          message={removalQuestion(teammate)}
          confirming={deleteUser.isPending}
          onCancel={() => setConfirmingRemoval(false)}
          onConfirm={() => deleteUser.mutate(teammate.id, { onSettled: () => setConfirmingRemoval(false) })}
        />
      </Table.Td>
    </Table.Tr>
  );
}
