import { Anchor, Avatar, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { ENGAGEMENT_LABELS, type TNetworkRow } from '@warmpath/shared';
import { memo } from 'react';
import type { WarmIntroRequest } from '../../intros/api.ts';
import { initialOf } from '../networkDisplay.ts';
import { AlliesCell } from './AlliesCell.tsx';
import { ProximityButton } from './ProximityButton.tsx';
import { SignalChips } from './SignalChips.tsx';

export type NetworkRowProps = { row: TNetworkRow; height: number; onAsk: (request: WarmIntroRequest) => void };

const TEXT_MAX_WIDTH = 180;
const ENGAGEMENT_COLORS = { MET: 'green', TOUCHED: 'yellow', NEVER_MET: 'gray' } as const;
const requestedAt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * A prospect of the network table, one cell per column of spec section 2. Memoized: the page
 * re-renders as its other parts load (filters, report cards), and the rows have not changed then.
 */
export const NetworkRow = memo(function NetworkRow({ row, height, onAsk }: NetworkRowProps) {
  return (
    <Table.Tr h={height}>
      <Table.Td>
        <ContactCell row={row} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {row.companyName ? (
            <Avatar src={row.companyLogo} alt="" size="sm" radius="sm">
              {initialOf(row.companyName)}
            </Avatar>
          ) : null}
          <Text size="sm" truncate maw={TEXT_MAX_WIDTH}>
            {row.companyName ?? ''}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{row.companySize ?? ''}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate maw={TEXT_MAX_WIDTH} title={row.jobTitle ?? undefined}>
          {row.jobTitle ?? ''}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={ENGAGEMENT_COLORS[row.engagement]} tt="none">
          {ENGAGEMENT_LABELS[row.engagement]}
        </Badge>
      </Table.Td>
      <Table.Td>
        <AlliesCell row={row} onAsk={onAsk} />
      </Table.Td>
      <Table.Td>
        <ProximityButton prospectId={row.id} prospectName={row.name} proximity={row.proximity} />
      </Table.Td>
      <Table.Td>
        <SignalChips signals={row.signals} />
      </Table.Td>
    </Table.Tr>
  );
});

function ContactCell({ row }: { row: TNetworkRow }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={row.avatar} alt="" radius="xl" size="md">
        {initialOf(row.name)}
      </Avatar>
      <Stack gap={2} style={{ minWidth: 0 }}>
        {row.linkedinUrl ? (
          <Anchor
            href={row.linkedinUrl}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            fw={600}
            truncate
            maw={TEXT_MAX_WIDTH}
          >
            {row.name}
          </Anchor>
        ) : (
          <Text size="sm" fw={600} truncate maw={TEXT_MAX_WIDTH}>
            {row.name}
          </Text>
        )}
        {row.introRequestedAt ? (
          <Badge
            size="xs"
            variant="light"
            color="blue"
            tt="none"
            title={`Requested on ${requestedAt.format(new Date(row.introRequestedAt))}`}
          >
            Intro requested
          </Badge>
        ) : null}
      </Stack>
    </Group>
  );
}
