import { Alert, Button, Group, Text } from '@mantine/core';
import { isInDemo, switchWorkspace } from '../../lib/demoMode.ts';
import { useRemoveDemo } from './api.ts';

/** Across the top of every page while this tab is in the demo workspace: what it is, and the ways out. */
export function DemoBanner() {
  const remove = useRemoveDemo();
  if (!isInDemo()) return null;
  return (
    <Alert color="grape" variant="light" mb="md" title="Demo workspace" role="status">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          Made-up companies, people and relationships to explore the product with. Nothing here reaches your own
          workspace, and nothing is sent to anyone.
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => switchWorkspace('own', '/')}>
            Back to my workspace
          </Button>
          <Button size="xs" color="red" variant="light" loading={remove.isPending} onClick={() => remove.mutate()}>
            Remove the demo
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
