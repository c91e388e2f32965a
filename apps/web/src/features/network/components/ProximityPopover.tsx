import { Button, Popover, Stack, Table, Text } from '@mantine/core';
import type { TProximityExplanation } from '@warmpath/shared';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useOpenedOnMount } from '../../../components/useFocusOnMount.ts';
import { useProximityExplanation } from '../api.ts';
import { CONNECTION_SOURCE_LABELS, formatTrust, proximityBand } from '../networkDisplay.ts';
import { explanationPath } from '../pictures.ts';
import { ProximityBadge, type ProximityButtonProps } from './ProximityButton.tsx';
import { WarmPathDrawing } from './WarmPathDrawing.tsx';

const EXPLANATION_WIDTH = 400;
/** The closest paths shown at first; the others one click away. */
const PATHS_SHOWN = 3;

/**
 * The badge with its explanation: loaded on the badge's first click (ProximityButton), so it mounts
 * open, the keyboard focus on the badge.
 */
export function ProximityPopover({ prospectId, prospectName, proximity }: ProximityButtonProps) {
  const { ref: badge, opened, setOpened } = useOpenedOnMount<HTMLButtonElement>();
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
        <ProximityBadge
          ref={badge}
          prospectName={prospectName}
          proximity={proximity}
          onClick={() => setOpened((current) => !current)}
        />
      </Popover.Target>
      {/* Named by its badge (Mantine's aria-labelledby): 'High 82, why? (John Smith)'. */}
      <Popover.Dropdown>
        {opened ? <Explanation prospectId={prospectId} prospectName={prospectName} /> : null}
      </Popover.Dropdown>
    </Popover>
  );
}

function Explanation({ prospectId, prospectName }: { prospectId: string; prospectName: string }) {
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
  return <ProximityExplanationView explanation={explanation.data} prospectName={prospectName} />;
}

/**
 * Each path and how its score is made. Channels combine as 1 - prod(1 - part) on the server: the
 * strongest counts in full, each next one closes its share of what is left. So the rows show what
 * each channel adds (they add up to the link), beside what it would give alone; an ally's link is
 * then scaled by the team's trust in the ally. The prospect's proximity is its closest path's.
 */
export function ProximityExplanationView({
  explanation,
  prospectName,
}: {
  explanation: TProximityExplanation;
  prospectName: string;
}) {
  const [showAll, setShowAll] = useState(false);
  if (explanation.paths.length === 0) {
    return <Text size="sm">Nobody in your network knows this person yet.</Text>;
  }
  const count = explanation.paths.length;
  const [closest] = explanation.paths;
  const paths = showAll ? explanation.paths : explanation.paths.slice(0, PATHS_SHOWN);
  return (
    // Scrolls when all the paths are shown: a tab stop, so the keyboard can scroll it too.
    <Stack gap="sm" mah="60vh" style={{ overflowY: 'auto' }} tabIndex={0}>
      <Stack gap={2}>
        <Text size="sm" fw={600}>
          Proximity {proximityBand(explanation.proximity)} {explanation.proximity}
        </Text>
        <Text size="xs" c="dimmed">
          {count === 1 ? 'Its one path' : `The closest of ${count} paths`}. Channels combine: the strongest counts in
          full, each next one adds its share of what is left, so the points below add up.
        </Text>
      </Stack>
      {/* The closest path, drawn: the one the proximity is. */}
      {closest ? <WarmPathDrawing path={explanationPath(closest, prospectName)} /> : null}
      {paths.map((path) => (
        <Stack
          key={`${path.connectorId}-${path.viaName ?? ''}`}
          gap={4}
          component="section"
          aria-label={path.connectorName}
        >
          <Text size="sm" fw={500}>
            {path.kind === 'colleague' ? 'Colleague' : 'Ally'} {path.connectorName}
            {path.viaName ? ` (via ${path.viaName})` : ''}: {proximityBand(path.proximity)} {path.proximity}
          </Text>
          <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={4} fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th fw={500}>Channel</Table.Th>
                <Table.Th fw={500} ta="right">
                  Adds
                </Table.Th>
                <Table.Th fw={500} ta="right">
                  Alone
                </Table.Th>
                <Table.Th fw={500}>Evidence</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {path.channels.map((channel) => (
                <Table.Tr key={channel.source}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{CONNECTION_SOURCE_LABELS[channel.source]}</Table.Td>
                  <Table.Td ta="right">+{channel.added}</Table.Td>
                  <Table.Td ta="right">{channel.alone}</Table.Td>
                  <Table.Td>{channel.detail}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" fw={500}>
            {path.trust === null
              ? `Link ${path.link}`
              : `Link ${path.link} × trust in the ally ${formatTrust(path.trust)} = ${path.proximity}`}
          </Text>
        </Stack>
      ))}
      {paths.length < count ? (
        <Button variant="subtle" size="compact-sm" onClick={() => setShowAll(true)}>
          Show all {count} paths
        </Button>
      ) : null}
    </Stack>
  );
}
