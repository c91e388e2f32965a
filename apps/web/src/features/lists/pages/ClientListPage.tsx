import { Avatar, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { LAYOUT, MESSAGES, SKELETON, type TClient } from '@warmpath/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { type FitColumn, FitTable } from '../../../components/FitTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { TruncatedText } from '../../../components/TruncatedText.tsx';
import { initialOf } from '../../network/networkDisplay.ts';
import { CLIENT_LIST_FLAGS, type ClientList, clientsImport, useClients, useDeleteClient } from '../api.ts';
import { SOURCE_LABELS } from '../clientDisplay.ts';
import { AllyShareActions } from '../components/AllyShareActions.tsx';
import { ClientFormDrawer } from '../components/ClientFormDrawer.tsx';
import { ContactCard } from '../components/ContactCard.tsx';
import { CsvImport } from '../components/CsvImport.tsx';
import { JobChangesPanel } from '../components/JobChangesPanel.tsx';
import { TagBadge } from '../components/TagBadge.tsx';
import { useListQuery } from '../useListQuery.ts';

type ClientListTexts = {
  title: string;
  importButton: string;
  addButton: string;
  deleteConfirm: string;
  empty: string;
  paginationLabel: string;
};

/** Each list's words (spec section 2). */
const TEXTS: Record<ClientList, ClientListTexts> = {
  MAP_NETWORK: {
    title: 'Allies to map network from',
    importButton: 'Import allies to map network from',
    addButton: 'Add ally',
    deleteConfirm: MESSAGES.deleteAllyConfirm,
    empty: 'No allies yet: import a CSV file or add one.',
    paginationLabel: 'Allies pages',
  },
  TRACK_JOB_CHANGES: {
    title: 'Job changes tracking',
    importButton: 'Import contacts to track',
    addButton: 'Add',
    deleteConfirm: MESSAGES.deleteClientConfirm,
    empty: 'No contacts tracked yet: import a CSV file or add one.',
    paginationLabel: 'Tracked contacts pages',
  },
};

/**
 * Spec section 2's columns: the contact card and the row's buttons whole, names and e-mails cut if they
 * must. Allies have one more button (Share), so a wider Actions column.
 */
const columnsOf = (list: ClientList): readonly FitColumn[] => [
  { header: 'Contact', width: '25%' },
  { header: 'Company', width: '22%' },
  { header: 'Contact Owner' },
  { header: 'Tag', width: 120 },
  { header: 'Source', width: 124 },
  { header: 'Actions', width: list === 'MAP_NETWORK' ? 196 : 136 },
];

/** The panel opened over the list: adding a client, or editing one. */
type FormPanel = { editing: TClient | null } | null;

/**
 * An admin list of clients and allies: those to map the network from, or those tracked for job changes.
 * The table, or (importing) the CSV upload view in its place.
 */
export function ClientListPage({ list }: { list: ClientList }) {
  const texts = TEXTS[list];
  const [importing, setImporting] = useState(false);

  return (
    <>
      <PageHeader title={texts.title} />
      {importing ? (
        <CsvImport
          title={texts.importButton}
          target={clientsImport(CLIENT_LIST_FLAGS[list])}
          onBack={() => setImporting(false)}
        />
      ) : (
        <Stack gap="xl">
          {list === 'TRACK_JOB_CHANGES' ? <JobChangesPanel /> : null}
          <ClientTable list={list} texts={texts} onImport={() => setImporting(true)} />
        </Stack>
      )}
    </>
  );
}

function ClientTable({ list, texts, onImport }: { list: ClientList; texts: ClientListTexts; onImport: () => void }) {
  const { search, setSearch, query, setPage, setPageSize } = useListQuery();
  const clients = useClients(list, query);
  const deleteClient = useDeleteClient();
  const [panel, setPanel] = useState<FormPanel>(null);
  const [deleting, setDeleting] = useState<TClient | null>(null);
  const columns = columnsOf(list);

  const confirmDelete = () => {
    if (deleting) deleteClient.mutate(deleting.id, { onSettled: () => setDeleting(null) });
  };

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <TextInput
          aria-label="Search clients & allies"
          placeholder="Search clients & allies"
          type="search"
          maw={360}
          style={{ flex: 1 }}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Group gap="sm">
          <Button variant="default" onClick={onImport}>
            {texts.importButton}
          </Button>
          <Button onClick={() => setPanel({ editing: null })}>{texts.addButton}</Button>
        </Group>
      </Group>
      {clients.isError ? (
        <ErrorAlert message={clients.error.message} onRetry={() => void clients.refetch()} />
      ) : (
        <>
          <FitTable
            label={texts.title}
            columns={columns}
            maxHeight={LAYOUT.alliesTableMaxHeight}
            stickyHeader
            verticalSpacing="sm"
            aria-busy={clients.isFetching}
          >
            {clients.isPending ? (
              <TableSkeletonRows rows={SKELETON.tableRows} columns={columns.length} />
            ) : clients.data.rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" ta="center" py="lg">
                    {query.searchTerm === '' ? texts.empty : 'No clients or allies match your search.'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              clients.data.rows.map((client) => (
                <ClientRow
                  key={client.id}
                  client={client}
                  onEdit={() => setPanel({ editing: client })}
                  onDelete={() => setDeleting(client)}
                  shareable={list === 'MAP_NETWORK'}
                />
              ))
            )}
          </FitTable>
          {clients.data ? (
            <TablePagination
              pagination={clients.data.pagination}
              onPageChange={setPage}
              onPageSizeChange={setPageSize}
              label={texts.paginationLabel}
            />
          ) : null}
        </>
      )}
      <ClientFormDrawer
        opened={panel !== null}
        onClose={() => setPanel(null)}
        list={list}
        editing={panel?.editing ?? null}
        shown={query}
      />
      <ConfirmDialog
        opened={deleting !== null}
        message={texts.deleteConfirm}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
        confirming={deleteClient.isPending}
      />
    </Stack>
  );
}

type ClientRowProps = {
  client: TClient;
  onEdit: () => void;
  onDelete: () => void;
  /** An ally whose network is mapped: they may be sent a share link. */
  shareable: boolean;
};

function ClientRow({ client, onEdit, onDelete, shareable }: ClientRowProps) {
  const { clientFullName, clientCompanyName, clientCompanyImage } = client.detailedClientData;
  const companyName = clientCompanyName ?? client.companyName;
  return (
    <Table.Tr>
      <Table.Td>
        <ContactCard client={client} />
      </Table.Td>
      <Table.Td>
        {companyName ? (
          <Group gap="xs" wrap="nowrap">
            <Avatar src={clientCompanyImage} alt="" radius="sm" size="sm">
              {initialOf(companyName)}
            </Avatar>
            <TruncatedText text={companyName} size="sm" />
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Unknown
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <TruncatedText text={client.contactOwner ?? 'None'} size="sm" c={client.contactOwner ? undefined : 'dimmed'} />
      </Table.Td>
      <Table.Td>
        <TagBadge tag={client.tag} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{SOURCE_LABELS[client.source]}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          {shareable ? <AllyShareActions client={client} /> : null}
          <Button size="compact-sm" variant="subtle" onClick={onEdit} aria-label={`Edit ${clientFullName}`}>
            Edit
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={onDelete}
            aria-label={`Delete ${clientFullName}`}
          >
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
