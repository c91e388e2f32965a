import { Badge, Button, Group, List, Popover, Stack, Text } from '@mantine/core';
import type { TProximityExplanation } from '@warmpath/shared';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useProximityExplanation } from '../api.ts';
import { CONNECTION_SOURCE_LABELS, proximityBand } from '../networkDisplay.ts';

export type ProximityButtonProps = { prospectId: string; prospectName: string; proximity: number };

const BAND_COLORS = { Low: 'gray', Medium: 'yellow', High: 'green' } as const;
const EXPLANATION_WIDTH = 360;

/** The proximity as its band and score; a click shows why, the evidence loaded then. */
export function ProximityButton({ prospectId, prospectName, proximity }: ProximityButtonProps) {
  const [opened, setOpened] = useState(false);
  const band = proximityBand(proximity);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={EXPLANATION_WIDTH}
      shadow="md"
      withArrow
      returnFocus
    >
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="subtle"
          color="dark"
          aria-label={`${band} ${proximity}, why? (${prospectName})`}
          aria-expanded={opened}
          onClick={() => setOpened((current) => !current)}
        >
          <Group gap={6} wrap="nowrap">
            <Badge color={BAND_COLORS[band]} variant="light" tt="none">
              {band}
            </Badge>
            <Text span size="sm">
              {proximity}
            </Text>
          </Group>
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label={`Why ${prospectName}'s proximity is ${band}`}>
        {opened ? <Explanation prospectId={prospectId} /> : null}
      </Popover.Dropdown>
    </Popover>
  );
}

function Explanation({ prospectId }: { prospectId: string }) {
  const explanation = useProximityExplanation(prospectId);
  if (explanation.isPending) {
    return (
      <Text size="sm" role="status">
        Loading why...
      </Text>
    );
  }
  if (explanation.isError) {
    return <ErrorAlert message={explanation.error.message} onRetry={() => void explanation.refetch()} />;
  }
  return <ExplanationPaths explanation={explanation.data} />;
}

function ExplanationPaths({ explanation }: { explanation: TProximityExplanation }) {
  if (explanation.paths.length === 0) {
    return <Text size="sm">Nobody in your network knows this person yet.</Text>;
  }
  return (
    <Stack gap="sm">
      <Text size="sm" fw={600}>
        Proximity {proximityBand(explanation.proximity)} {explanation.proximity}
      </Text>
      {explanation.paths.map((path) => (
        <Stack key={`${path.connectorId}-${path.viaName ?? ''}`} gap={4}>
          <Text size="sm" fw={500}>
            {path.kind === 'colleague' ? 'Colleague' : 'Ally'} {path.connectorName}
            {path.viaName ? ` (via ${path.viaName})` : ''}: {proximityBand(path.proximity)} {path.proximity}
          </Text>
          <List size="xs" spacing={2}>
            {path.channels.map((channel) => (
              <List.Item key={channel.source}>
                {CONNECTION_SOURCE_LABELS[channel.source]} +{channel.contribution}: {channel.detail}
              </List.Item>
            ))}
          </List>
        </Stack>
      ))}
    </Stack>
  );
}
