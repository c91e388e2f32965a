import { Button, Menu, Modal, Skeleton, Stack, Table, Text } from '@mantine/core';
import { allyMatchKey, type TClient } from '@warmpath/shared';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useAllySharedConnections, useSendAllyShareLink } from '../api.ts';

/**
 * An ally's row on Admin › Allies: e-mail them a share link (they upload their LinkedIn connections and
 * keep only people at our accounts), and see what they confirmed.
 */
export function AllyShareActions({ client }: { client: TClient }) {
  const name = client.detailedClientData.clientFullName;
  const send = useSendAllyShareLink();
  const [viewing, setViewing] = useState(false);
  // One menu rather than two buttons: the row's Edit and Delete stay whole in the Actions column.
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-sm" variant="subtle" loading={send.isPending} aria-label={`Share with ${name}`}>
            Share
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => send.mutate(client.id)}>Send a share link</Menu.Item>
          <Menu.Item onClick={() => setViewing(true)}>See what they shared</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={viewing} onClose={() => setViewing(false)} title={`Connections ${name} shared`} size="lg">
        {viewing ? <SharedConnections clientId={client.id} /> : null}
      </Modal>
    </>
  );
}

function SharedConnections({ clientId }: { clientId: string }) {
  const shared = useAllySharedConnections(clientId, true);
  if (shared.isPending) {
    return (
      <Stack role="status" aria-busy="true" aria-label="Loading shared connections">
        <Skeleton height={24} />
        <Skeleton height={24} />
      </Stack>
    );
  }
  if (shared.isError) return <ErrorAlert message={shared.error.message} onRetry={() => void shared.refetch()} />;
  if (shared.data.rows.length === 0) {
    return (
      <Text c="dimmed" py="md">
        Nothing shared yet. Send a share link: the ally chooses which of their connections at your accounts to share.
      </Text>
    );
  }
  return (
    <Table aria-label="Shared connections">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Company</Table.Th>
          <Table.Th>Position</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {shared.data.rows.map((row) => (
          <Table.Tr key={allyMatchKey(row)}>
            <Table.Td>{row.fullName}</Table.Td>
            <Table.Td>{row.company ?? ''}</Table.Td>
            <Table.Td>{row.position ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
