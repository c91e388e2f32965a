import {
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { useWorkflows } from '../api.ts';

/** Why the toggle cannot be used: the provider activates workflows (spec section 2). */
export const ACTIVATION_TOOLTIP = 'Contact your provider to activate or deactivate this workflow.';

/** Spec section 2, Workflows list: the workspace's agents, read-only. */
export function WorkflowsPage() {
  const workflows = useWorkflows();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Agent running plays"
        description="Create your own workflow, start with a template or from scratch."
      />
      {workflows.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }} role="status" aria-busy="true" aria-label="Loading workflows">
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} height={140} radius="md" />
          ))}
        </SimpleGrid>
      ) : workflows.isError ? (
        <Text c="red" role="alert">
          Error: {workflows.error.message}
        </Text>
      ) : workflows.data.length === 0 ? (
        <Text c="dimmed">
          No agent runs for your workspace yet. Your provider sets them up: ask them for one, such as a Slack message
          when a past client changes jobs.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }}>
          {workflows.data.map((workflow) => (
            <Card
              key={workflow.id}
              withBorder
              radius="md"
              padding="lg"
              component="section"
              aria-labelledby={`workflow-${workflow.id}`}
            >
              <Stack gap="sm" h="100%">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Title order={2} size="h4" id={`workflow-${workflow.id}`}>
                    {workflow.name}
                  </Title>
                  <Tooltip label={ACTIVATION_TOOLTIP} withArrow>
                    {/* A disabled input gets no pointer events: its wrapper shows the tooltip; a screen reader reads it as the switch's description. */}
                    <div>
                      <Switch
                        checked={workflow.active}
                        disabled
                        readOnly
                        aria-label={`${workflow.name} active`}
                        aria-describedby={`workflow-${workflow.id}-activation`}
                      />
                      <VisuallyHidden id={`workflow-${workflow.id}-activation`}>{ACTIVATION_TOOLTIP}</VisuallyHidden>
                    </div>
                  </Tooltip>
                </Group>
                <Text size="sm" c="dimmed" style={{ flexGrow: 1 }}>
                  {workflow.description}
                </Text>
                <Group justify="flex-end">
                  <Button
                    variant="light"
                    size="xs"
                    onClick={() => navigate(`${PATHS.workflows}/${workflow.id}`)}
                    aria-label={`Edit ${workflow.name}`}
                  >
                    Edit
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
