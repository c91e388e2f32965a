import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { ACTION_TYPE_LABELS, type TPastAction } from '@warmpath/shared';
import { formatSentTime } from '../sentTime.ts';
import { CompanyCell, PersonCell, TextCell } from './ActionCells.tsx';
import { ACTION_ROW_HEIGHT } from './ActionsTable.tsx';

export type PastActionRowProps = {
  action: TPastAction;
  now: Date;
  /** The caller may thank the connector (their intro request got a reply, not thanked yet). */
  canThank: boolean;
  onThank: (action: TPastAction) => void;
};

const fullDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A past, pending or skipped action: USER, PROSPECT, JOB TITLE, COMPANY, CONNECTOR, DATE. */
export function PastActionRow({ action, now, canThank, onThank }: PastActionRowProps) {
  const actionDate = new Date(action.actionDate);
  // The outcome loop, under the connector: the note already sent, or the button that opens it.
  const thanks = action.thankedAt ? (
    <Badge size="xs" variant="light" color="teal" tt="none">
      Thanked
    </Badge>
  ) : canThank ? (
    <Button
      size="compact-xs"
      variant="light"
      aria-label={`Send thank-you to ${action.connectorUser?.fullName ?? action.clientConnector?.name ?? ''}`}
      onClick={() => onThank(action)}
    >
      Send thank-you
    </Button>
  ) : null;
  return (
    <Table.Tr h={ACTION_ROW_HEIGHT}>
      <Table.Td>
        {action.owner ? (
          <PersonCell fullName={action.owner.fullName} avatar={action.owner.avatar} />
        ) : (
          <Text size="sm" fw={600}>
            You
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <PersonCell
          fullName={action.contact.fullName}
          avatar={action.contact.avatar}
          linkedInUrl={action.contact.linkedInUrl}
        >
          <Group gap={4}>
            <Text size="xs" c="dimmed">
              {ACTION_TYPE_LABELS[action.actionType]}
            </Text>
            {action.replied ? (
              <Badge size="xs" variant="light" color="green" tt="none">
                Replied
              </Badge>
            ) : null}
          </Group>
        </PersonCell>
      </Table.Td>
      <Table.Td>
        <TextCell text={action.contact.jobTitle} />
      </Table.Td>
      <Table.Td>
        <CompanyCell company={action.company} />
      </Table.Td>
      <Table.Td>
        {action.connectorUser ? (
          <PersonCell fullName={action.connectorUser.fullName} avatar={action.connectorUser.avatar}>
            {thanks}
          </PersonCell>
        ) : action.clientConnector ? (
          <PersonCell fullName={action.clientConnector.name} avatar={action.clientConnector.linkedinProfileImageUrl}>
            {thanks}
          </PersonCell>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Text size="sm" title={fullDate.format(actionDate)} style={{ whiteSpace: 'nowrap' }}>
          {formatSentTime(actionDate, now)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
