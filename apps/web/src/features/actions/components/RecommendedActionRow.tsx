import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { ACTION_TYPE_LABELS, ENGAGEMENT_LABELS, type TRecommendedAction } from '@warmpath/shared';
import { STICKY_RIGHT } from '../../../components/FitTable.tsx';
import { TruncatedText } from '../../../components/TruncatedText.tsx';
import { SignalStack } from '../../network/components/SignalStack.tsx';
import { actionTarget, introConnector } from '../actionsDisplay.ts';
import { CompanyCell, PersonCell, TextCell } from './ActionCells.tsx';
import { ACTION_ROW_HEIGHT } from './ActionsTable.tsx';

export type RecommendedActionRowProps = {
  action: TRecommendedAction;
  userId: string;
  /** The signed-in user is among those the action is for: only they see its buttons (spec section 6). */
  isMine: boolean;
  /** A skip or complete of this action is on its way. */
  isBusy: boolean;
  onEngage: (action: TRecommendedAction) => void;
  onSkip: (actionId: string) => void;
  onComplete: (actionId: string) => void;
};

const ACTION_CELL_WIDTH = 124;
/** The line of why under each action. */
export const WHY_ROW_HEIGHT = 28;

/** A recommended action: SIGNALS, WARM LEAD, JOB TITLE, COMPANY, SIZE, ALLY, ACTION. */
export function RecommendedActionRow({
  action,
  userId,
  isMine,
  isBusy,
  onEngage,
  onSkip,
  onComplete,
}: RecommendedActionRowProps) {
  const { person, company } = actionTarget(action);
  const isAsk = action.actionType === 'ask-intro';
  const whyId = `why-${action.actionId}`;
  const why = action.why ? whyLine(action.why) : null;
  return (
    <>
      {/* The row and its line of why read as one: no rule between them. */}
      <Table.Tr h={ACTION_ROW_HEIGHT} style={why ? { borderBottom: 'none' } : undefined}>
        <Table.Td>
          <SignalStack signals={action.signals} />
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
          <TextCell text={company?.companySize ?? null} size="xs" />
        </Table.Td>
        <Table.Td>
          <AllyCell action={action} userId={userId} />
        </Table.Td>
        <Table.Td style={STICKY_RIGHT}>
          {isMine ? (
            <Stack gap={2} align="stretch" w={ACTION_CELL_WIDTH}>
              <Button
                size="compact-sm"
                onClick={() => onEngage(action)}
                aria-label={isAsk ? `Ask intro to ${person.fullName}` : `Engage with ${person.fullName}`}
                aria-describedby={why ? whyId : undefined}
              >
                {isAsk ? 'Ask intro' : 'Engage'}
              </Button>
              <Group gap={0} justify="space-between" wrap="nowrap">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  disabled={isBusy}
                  onClick={() => onComplete(action.actionId)}
                  aria-label={`Complete the action for ${person.fullName}`}
                >
                  Complete
                </Button>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="gray"
                  disabled={isBusy}
                  onClick={() => onSkip(action.actionId)}
                  aria-label={`Skip the action for ${person.fullName}`}
                >
                  Skip
                </Button>
              </Group>
            </Stack>
          ) : (
            <Text size="xs" c="dimmed" w={ACTION_CELL_WIDTH}>
              For a teammate
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
      {why ? (
        <Table.Tr h={WHY_ROW_HEIGHT}>
          <Table.Td colSpan={RECOMMENDED_COLUMN_COUNT} pt={0}>
            <TruncatedText id={whyId} text={why} size="xs" c="dimmed" />
          </Table.Td>
        </Table.Tr>
      ) : null}
    </>
  );
}

/** The spec's 7 columns: the line of why spans them all. */
const RECOMMENDED_COLUMN_COUNT = 7;

/** 'Why: warm (Visited pricing page): ask Jane Doe for an intro (proximity 70)', the run's own words. */
export function whyLine(why: string): string {
  return `Why: ${why}`;
}

function AllyCell({ action, userId }: { action: TRecommendedAction; userId: string }) {
  const connector = introConnector(action, userId);
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
      <TruncatedText text={detail} size="xs" c="dimmed" />
    </PersonCell>
  );
}
