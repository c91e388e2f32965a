import { Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core';
import type { TReportCards } from '@warmpath/shared';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formatCount } from '../../../lib/format.ts';
import { useReportCards } from '../api.ts';
import { cardChange, trendLabel } from '../pictures.ts';
import { TrendLine } from './TrendLine.tsx';

const CARDS: readonly { key: Exclude<keyof TReportCards, 'updating'>; label: string }[] = [
  { key: 'networkRelationships', label: 'Contacts' },
  { key: 'networkConnections', label: 'Allies' },
  { key: 'networkCompanies', label: 'Companies' },
];
const CARD_HEIGHT = 92;

/** Contacts, Allies and Companies of the network, each with its amount, its change and its last 30 days. */
export function ReportCards() {
  const cards = useReportCards();
  if (cards.isError) return <ErrorAlert message={cards.error.message} onRetry={() => void cards.refetch()} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {CARDS.map(({ key, label }) => (
        <Card key={key} withBorder radius="md" padding="md" h={CARD_HEIGHT} component="section" aria-label={label}>
          {/* The change beside the label and the line beside the amount: both fit a third of 1280 px. */}
          <Group gap="sm" justify="space-between" wrap="nowrap">
            <Text size="sm" c="dimmed">
              {label}
            </Text>
            {cards.data ? (
              <Text size="sm" fw={600} c={cards.data[key].percentage < 0 ? 'red.9' : 'teal.9'}>
                {cardChange(cards.data[key])}
              </Text>
            ) : null}
          </Group>
          {cards.data ? (
            <Group gap="sm" align="center" justify="space-between" wrap="nowrap">
              <Text fz={28} fw={700}>
                {formatCount(cards.data[key].amount)}
              </Text>
              <TrendLine values={cards.data[key].trend} label={trendLabel(label, cards.data[key].trend)} />
            </Group>
          ) : (
            <Skeleton height={28} width="50%" mt={8} />
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
