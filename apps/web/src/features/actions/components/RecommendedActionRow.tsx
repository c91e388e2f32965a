import { Button, Group, Table, Text } from '@mantine/core';
import { ACTION_TYPE_LABELS, ENGAGEMENT_LABELS, type TRecommendedAction } from '@warmpath/shared';
import { SignalChips } from '../../network/components/SignalChips.tsx';
import { actionTarget, introConnector } from '../actionsDisplay.ts';
import { CompanyCell, PersonCell, TextCell } from './ActionCells.tsx';
import { ACTION_ROW_HEIGHT } from './ActionsTable.tsx';

export type RecommendedActionRowProps = {
  action: TRecommendedAction;
  /** The signed-in user is among those the action is for: only they see its buttons (spec section 6). */
  isMine: boolean;
  /** A skip or complete of this action is on its way. */
  isBusy: boolean;
  onEngage: (action: TRecommendedAction) => void;
  onSkip: (actionId: string) => void;
  onComplete: (actionId: string) => void;
};

/** A recommended action: SIGNALS, WARM LEAD, JOB TITLE, COMPANY, SIZE, ALLY, ACTION. */
export function RecommendedActionRow({
  action,
  isMine,
  isBusy,
  onEngage,
  onSkip,
  onComplete,
}: RecommendedActionRowProps) {
  const { person, company } = actionTarget(action);
  const isAsk = action.actionType === 'ask-intro';
  return (
    <Table.Tr h={ACTION_ROW_HEIGHT}>
      <Table.Td>
        <SignalChips signals={action.signals} />
      </Table.Td>
      <Table.Td>
        <PersonCell fullName={person.fullName} avatar={person.avatar} linkedInUrl={person.linkedInUrl}>
          <Text size="xs" c="dimmed">
            {ENGAGEMENT_LABELS[person.engagement]}
          </Text>
        </PersonCell>
      </Table.Td>
      <Table.Td>
        <TextCell text={person.jobTitle} />
      </Table.Td>
      <Table.Td>
        <CompanyCell company={company} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{company?.companySize ?? ''}</Text>
      </Table.Td>
      <Table.Td>
        <AllyCell action={action} />
      </Table.Td>
      <Table.Td>
        {isMine ? (
          <Group gap={6} wrap="nowrap">
            <Button
              size="xs"
              onClick={() => onEngage(action)}
              aria-label={isAsk ? `Ask intro to ${person.fullName}` : `Engage with ${person.fullName}`}
            >
              {isAsk ? 'Ask intro' : 'Engage'}
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={isBusy}
              onClick={() => onComplete(action.actionId)}
              aria-label={`Complete the action for ${person.fullName}`}
            >
              Complete
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              disabled={isBusy}
              onClick={() => onSkip(action.actionId)}
              aria-label={`Skip the action for ${person.fullName}`}
            >
              Skip
            </Button>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            For a teammate
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function AllyCell({ action }: { action: TRecommendedAction }) {
  const connector = introConnector(action);
  if (!connector) {
    return (
      <Text size="sm" c="dimmed">
        {ACTION_TYPE_LABELS.DIRECT_MESSAGE}
      </Text>
    );
  }
  const detail = connector.owner
    ? `Through ${connector.owner.fullName}`
    : action.source === 'client'
      ? 'Client ally'
      : (connector.ally.jobTitle ?? 'Colleague');
  return (
    <PersonCell fullName={connector.ally.fullName} avatar={connector.ally.avatar}>
      <Text size="xs" c="dimmed" truncate maw={180}>
        {detail}
      </Text>
    </PersonCell>
  );
}
