import { Anchor, Avatar, Badge, Group, Stack, Text } from '@mantine/core';
import { ENGAGEMENT_LABELS, type TClient } from '@warmpath/shared';
import { initialOf, proximityBand } from '../../network/networkDisplay.ts';

/** The name is cut at this width, with an ellipsis (spec section 2). */
const NAME_MAX_WIDTH = '8rem';
const BAND_COLORS = { Low: 'gray', Medium: 'yellow', High: 'green' } as const;

export type ContactCardProps = { client: TClient };

/**
 * A client or ally as the lists show them: picture or first letter, name, engagement and proximity.
 * A click opens their LinkedIn profile in a new tab.
 */
export function ContactCard({ client }: ContactCardProps) {
  const { clientFullName, clientImage } = client.detailedClientData;
  const band = proximityBand(client.proximity);
  const card = (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={clientImage} alt="" radius="xl" size="md">
        {initialOf(clientFullName)}
      </Avatar>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} truncate="end" maw={NAME_MAX_WIDTH} title={clientFullName}>
          {clientFullName}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Badge size="xs" variant="outline" color="gray" tt="none">
            {ENGAGEMENT_LABELS[client.engagement]}
          </Badge>
          <Badge size="xs" variant="light" color={BAND_COLORS[band]} tt="none">
            {band} {client.proximity}
          </Badge>
        </Group>
      </Stack>
    </Group>
  );
  if (!client.linkedinUrl) return card;
  return (
    <Anchor
      href={client.linkedinUrl}
      target="_blank"
      rel="noopener noreferrer"
      underline="never"
      c="inherit"
      aria-label={`${clientFullName}, ${ENGAGEMENT_LABELS[client.engagement]}, proximity ${band} ${client.proximity}: LinkedIn profile`}
    >
      {card}
    </Anchor>
  );
}
