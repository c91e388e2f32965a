import { Button, Group, Modal, Stack, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useSession } from '../../../lib/useSession.ts';
import { useHubspot, useSaveHubspotLists } from '../../integrations/api.ts';
import { HubspotSyncStatus } from '../../integrations/components/HubspotSyncStatus.tsx';
import { useWorkspace } from '../../workspace/api.ts';
import { CRM_CLIENTS_IMPORT, useCrmClients } from '../api.ts';
import { CompanyTable } from '../components/CompanyTable.tsx';
import { CsvImport } from '../components/CsvImport.tsx';
import { HubspotListsSection } from '../components/HubspotListsSection.tsx';
import { useListQuery } from '../useListQuery.ts';

/**
 * Admin, Clients & Exclusions: the CRM customers, never recommended, filled from CSV files; with HubSpot
 * connected, also from the portal's company lists ('Company lists'), and the 'Excluded companies' of
 * other lists.
 */
export function CrmClientsPage() {
  const { user } = useSession();
  const { search, setSearch, query, setPage, setPageSize } = useListQuery();
  const crmClients = useCrmClients(query);
  const [uploadOpened, uploadDialog] = useDisclosure(false);
  const hubspotConnected = Boolean(user?.isHubspotConnected);
  const hubspot = useHubspot(hubspotConnected);
  const workspace = useWorkspace();
  const saveLists = useSaveHubspotLists();
  const syncing = hubspot.data?.sync?.status === 'queued' || hubspot.data?.sync?.status === 'running';
  const syncedAt = hubspot.data?.sync?.finishedAt ?? null;
  const lists = hubspotConnected && workspace.data && hubspot.data && !hubspot.data.reconnectRequired;

  return (
    <>
      <PageHeader
        title="Clients & Exclusions"
        description="Your customers: the companies never recommended to your team."
      />
      {hubspotConnected ? <HubspotSyncStatus /> : null}
      <Stack component="section" aria-labelledby="crm-clients-title">
        <Title order={2} size="h4" id="crm-clients-title">
          Clients
        </Title>
        <Group justify="space-between" wrap="nowrap">
          <TextInput
            aria-label="Search clients"
            placeholder="Clients"
            type="search"
            maw={360}
            style={{ flex: 1 }}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <Button onClick={uploadDialog.open}>Add CRM customers</Button>
        </Group>
        <CompanyTable
          label="CRM clients"
          page={crmClients.data}
          loading={crmClients.isPending}
          fetching={crmClients.isFetching}
          error={crmClients.isError ? crmClients.error.message : null}
          onRetry={() => void crmClients.refetch()}
          empty={
            query.searchTerm === ''
              ? 'No CRM customers yet: add them from a CSV file.'
              : 'No CRM customers match your search.'
          }
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
        />
        {lists ? (
          <HubspotListsSection
            title={null}
            selectLabel="Company lists"
            searchLabel="Search companies of the company lists"
            saved={workspace.data.activeCrmClientExclusionLists}
            onSave={(ids) =>
              saveLists.mutate({ workspace: workspace.data, lists: { activeCrmClientExclusionLists: ids } })
            }
            saving={saveLists.isPending}
            syncing={syncing}
            syncedAt={syncedAt}
          />
        ) : null}
      </Stack>
      {lists ? (
        <HubspotListsSection
          title="Excluded companies"
          selectLabel="Company lists"
          searchLabel="Search excluded companies"
          saved={workspace.data.selectedHubspotExclusionLists}
          onSave={(ids) =>
            saveLists.mutate({ workspace: workspace.data, lists: { selectedHubspotExclusionLists: ids } })
          }
          saving={saveLists.isPending}
          syncing={syncing}
          syncedAt={syncedAt}
        />
      ) : null}
      <Modal
        opened={uploadOpened}
        onClose={uploadDialog.close}
        size="lg"
        title="Add CRM customers"
        closeButtonProps={{ 'aria-label': 'Close Add CRM customers' }}
      >
        <CsvImport title="Upload your CRM customers" target={CRM_CLIENTS_IMPORT} onBack={uploadDialog.close} />
      </Modal>
    </>
  );
}
