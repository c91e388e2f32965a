import { Avatar, Button, Drawer, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { TAccount, TAccountUser, TAssignableAccountUsers } from '@warmpath/shared';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { initialOf } from '../../network/networkDisplay.ts';
import { useAssignableUsers, useUpdateAssignees } from '../api.ts';

export type AssigneesDrawerProps = { account: TAccount | null; onClose: () => void };

/** Spec section 2's 'Edit assigned users for {account}': move users between assigned and assignable, then Save. */
export function AssigneesDrawer({ account, onClose }: AssigneesDrawerProps) {
  return (
    <Drawer
      opened={account !== null}
      onClose={onClose}
      position="right"
      title={account ? `Edit assigned users for ${account.name}` : ''}
      closeButtonProps={{ 'aria-label': 'Close assignments' }}
    >
      {account ? <AssigneesLoader account={account} onSaved={onClose} /> : null}
    </Drawer>
  );
}

function AssigneesLoader({ account, onSaved }: { account: TAccount; onSaved: () => void }) {
  const users = useAssignableUsers(account.id);
  if (users.isPending) {
    return (
      <Stack role="status" aria-busy="true" aria-label="Loading the users">
        <Skeleton height={32} />
        <Skeleton height={32} />
        <Skeleton height={32} />
      </Stack>
    );
  }
  if (users.isError) return <ErrorAlert message={users.error.message} onRetry={() => void users.refetch()} />;
  return <AssigneesEditor account={account} initial={users.data} onSaved={onSaved} />;
}

type EditorProps = { account: TAccount; initial: TAssignableAccountUsers; onSaved: () => void };

function AssigneesEditor({ account, initial, onSaved }: EditorProps) {
  const [assigned, setAssigned] = useState(initial.assignedTo);
  const [assignable, setAssignable] = useState(initial.assignable);
  const update = useUpdateAssignees();

  const assign = (user: TAccountUser) => {
    setAssignable((users) => users.filter((other) => other.id !== user.id));
    setAssigned((users) => [...users, user]);
  };
  const remove = (user: TAccountUser) => {
    setAssigned((users) => users.filter((other) => other.id !== user.id));
    setAssignable((users) => [...users, user]);
  };
  const save = () =>
    update.mutate({ accountId: account.id, assigneeIds: assigned.map((user) => user.id) }, { onSuccess: onSaved });

  return (
    <Stack gap="lg">
      <UserSection title="Current Assignees" users={assigned} action="Remove" onAction={remove} empty="Nobody yet." />
      <UserSection
        title="Assignable Users"
        users={assignable}
        action="Assign"
        onAction={assign}
        empty="Everybody is assigned."
      />
      <Button onClick={save} loading={update.isPending}>
        Save
      </Button>
    </Stack>
  );
}

type UserSectionProps = {
  title: string;
  users: readonly TAccountUser[];
  action: 'Assign' | 'Remove';
  onAction: (user: TAccountUser) => void;
  empty: string;
};

function UserSection({ title, users, action, onAction, empty }: UserSectionProps) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {users.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        users.map((user) => (
          <Group key={user.id} justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Avatar src={user.avatar} alt="" radius="xl" size="sm">
                {initialOf(user.name)}
              </Avatar>
              <Text size="sm">{user.name}</Text>
            </Group>
            <Button
              size="compact-sm"
              variant={action === 'Assign' ? 'light' : 'subtle'}
              color={action === 'Assign' ? undefined : 'red'}
              onClick={() => onAction(user)}
              aria-label={`${action} ${user.name}`}
            >
              {action}
            </Button>
          </Group>
        ))
      )}
    </Stack>
  );
}
