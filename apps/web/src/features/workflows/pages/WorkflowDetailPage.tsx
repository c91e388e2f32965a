import { Anchor, Badge, Breadcrumbs, Group, Stack, Table, Text, Title } from '@mantine/core';
import { SIGNAL_LABELS, type TWorkflowPush } from '@warmpath/shared';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { useWorkflowRuns, useWorkflows } from '../api.ts';
import { WorkflowDiagram } from '../components/WorkflowDiagram.tsx';
import { ENGAGEMENT_LABELS } from '../labels.ts';

const PUSH_COLORS: Record<TWorkflowPush['status'], string> = {
  delivered: 'green',
  pending: 'blue',
  failed: 'red',
  skipped: 'gray',
};

/** Spec section 2, Workflow detail; and, beyond the spec, what the agent did lately. */
export function WorkflowDetailPage() {
  const { id = '' } = useParams();
  const workflows = useWorkflows();
  const workflow = workflows.data?.find((candidate) => candidate.id === id);
  if (workflows.isPending) return <Text>Loading workflow details...</Text>;
  if (workflows.isError)
    return <ErrorAlert message={`Error: ${workflows.error.message}`} onRetry={() => void workflows.refetch()} />;
  if (!workflow) return <Text>Workflow not found</Text>;
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to={PATHS.workflows}>
          All my Agents
        </Anchor>
        <Text>{workflow.name}</Text>
      </Breadcrumbs>
      <Title order={1} size="h2">
        {workflow.name}
      </Title>
      <Text c="dimmed">{workflow.description}</Text>
      <WorkflowDiagram workflow={workflow} />
      <LastRuns id={workflow.id} />
    </Stack>
  );
}

function LastRuns({ id }: { id: string }) {
  const runs = useWorkflowRuns(id, true);
  return (
    <section aria-labelledby="last-runs">
      <Title order={2} size="h4" id="last-runs" mb="sm">
        Last runs
      </Title>
      {runs.isError ? (
        <ErrorAlert message={runs.error.message} onRetry={() => void runs.refetch()} />
      ) : runs.data && runs.data.runs.length === 0 ? (
        <Text c="dimmed">
          This agent has not fired yet: it will when one of its signals is raised on a prospect it watches.
        </Text>
      ) : (
        <Table aria-label="Last runs" aria-busy={runs.isPending}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Prospect</Table.Th>
              <Table.Th>Signal</Table.Th>
              <Table.Th>Pushed to</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.isPending ? (
              <TableSkeletonRows rows={3} columns={4} />
            ) : (
              runs.data.runs.map((run) => (
                <Table.Tr key={run.id}>
                  <Table.Td>{new Date(run.firedAt).toLocaleString()}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`${PATHS.network}?personId=${run.prospect.id}`}>
                      {run.prospect.name}
                    </Anchor>
                    {run.prospect.companyName ? ` (${run.prospect.companyName})` : ''}
                  </Table.Td>
                  <Table.Td>{SIGNAL_LABELS[run.signalType]}</Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      {run.pushes.map((push) => (
                        <Badge
                          key={push.engagement}
                          color={PUSH_COLORS[push.status]}
                          variant="light"
                          tt="none"
                          title={push.detail ?? undefined}
                        >
                          {ENGAGEMENT_LABELS[push.engagement].replace('Push notification ', '')}: {push.status}
                          {push.detail ? ` (${push.detail})` : ''}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}
