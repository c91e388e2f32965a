import { Avatar, Badge, Group, Stack, Table } from '@mantine/core';
import { ENGAGEMENT_LABELS, type TNetworkRow } from '@warmpath/shared';
import { memo } from 'react';
import { TruncatedText } from '../../../components/TruncatedText.tsx';
import type { WarmIntroRequest } from '../../intros/api.ts';
import { initialOf } from '../networkDisplay.ts';
import { AlliesCell } from './AlliesCell.tsx';
import { PersonDataMenu } from './PersonDataMenu.tsx';
import { ProximityButton } from './ProximityButton.tsx';
import { SignalStack } from './SignalStack.tsx';

export type NetworkRowProps = { row: TNetworkRow; height: number; onAsk: (request: WarmIntroRequest) => void };

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
        {row.companyName ? (
          <Group gap={6} wrap="nowrap">
            <Avatar src={row.companyLogo} alt="" size={24} radius="sm">
              {initialOf(row.companyName)}
            </Avatar>
            <TruncatedText text={row.companyName} size="sm" lines={2} />
          </Group>
        ) : null}
      </Table.Td>
      <Table.Td>
        <TruncatedText text={row.companySize ?? ''} size="xs" />
      </Table.Td>
      <Table.Td>
        <TruncatedText text={row.jobTitle ?? ''} size="sm" lines={2} />
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
        <SignalStack signals={row.signals} />
      </Table.Td>
    </Table.Tr>
  );
});

function ContactCell({ row }: { row: TNetworkRow }) {
  return (
    <Group gap={8} wrap="nowrap">
      <Avatar src={row.avatar} alt="" radius="xl" size={32}>
        {initialOf(row.name)}
      </Avatar>
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <TruncatedText text={row.name} href={row.linkedinUrl} size="sm" fw={600} lines={2} />
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
      <PersonDataMenu personId={row.id} name={row.name} />
    </Group>
  );
}
