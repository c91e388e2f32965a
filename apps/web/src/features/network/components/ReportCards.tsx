import { Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core';
import type { TReportCards } from '@warmpath/shared';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formatCount } from '../../../lib/format.ts';
import { useReportCards } from '../api.ts';
import { formatPercentage } from '../networkDisplay.ts';

const CARDS: readonly { key: Exclude<keyof TReportCards, 'updating'>; label: string }[] = [
  { key: 'networkRelationships', label: 'Contacts' },
  { key: 'networkConnections', label: 'Allies' },
  { key: 'networkCompanies', label: 'Companies' },
];
const CARD_HEIGHT = 92;

/** Contacts, Allies and Companies of the network, each with its amount and its change. */
export function ReportCards() {
  const cards = useReportCards();
  if (cards.isError) return <ErrorAlert message={cards.error.message} onRetry={() => void cards.refetch()} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {CARDS.map(({ key, label }) => (
        <Card key={key} withBorder radius="md" padding="md" h={CARD_HEIGHT} component="section" aria-label={label}>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          {cards.data ? (
            <Group gap="sm" align="baseline">
              <Text fz={28} fw={700}>
                {formatCount(cards.data[key].amount)}
              </Text>
              <Text size="sm" fw={600} c={cards.data[key].percentage < 0 ? 'red.9' : 'teal.9'}>
                {formatPercentage(cards.data[key].percentage)}
              </Text>
            </Group>
          ) : (
            <Skeleton height={28} width="50%" mt={8} />
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
