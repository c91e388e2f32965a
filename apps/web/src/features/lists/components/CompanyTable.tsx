import { Table, Text } from '@mantine/core';
import { SKELETON, type TPagination } from '@warmpath/shared';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';

const COLUMNS = ['Company name', 'Company domain'] as const;

type CompanyRow = { id: string; companyName: string; companyDomain: string | null };

export type CompanyTableProps = {
  label: string;
  /** The page shown, or undefined while it loads. */
  page: { rows: CompanyRow[]; pagination: TPagination } | undefined;
  loading: boolean;
  fetching: boolean;
  error: string | null;
  onRetry: () => void;
  /** What an empty page says (nothing yet, nothing matching, still syncing...). */
  empty: string;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
};

/** Companies by name and domain (CRM customers, HubSpot lists): skeleton, empty and error states, and pages. */
export function CompanyTable({
  label,
  page,
  loading,
  fetching,
  error,
  onRetry,
  empty,
  onPageChange,
  onPageSizeChange,
}: CompanyTableProps) {
  if (error !== null) return <ErrorAlert message={error} onRetry={onRetry} />;
  return (
    <>
      <Table verticalSpacing="sm" aria-busy={fetching} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading ? (
            <TableSkeletonRows rows={SKELETON.crmClients.rows} columns={SKELETON.crmClients.columns} />
          ) : !page || page.rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Text c="dimmed" ta="center" py="lg">
                  {empty}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            page.rows.map((company) => (
              <Table.Tr key={company.id}>
                <Table.Td>{company.companyName}</Table.Td>
                <Table.Td>{company.companyDomain ?? '—'}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      {page ? (
        <TablePagination
          pagination={page.pagination}
          onPageChange={onPageChange}
          onPageSizeChange={onPageSizeChange}
          label={`${label} pages`}
        />
      ) : null}
    </>
  );
}
