import { Avatar, Badge, Group, Stack } from '@mantine/core';
import { ENGAGEMENT_LABELS, type TClient } from '@warmpath/shared';
import { TruncatedText } from '../../../components/TruncatedText.tsx';
import { initialOf, proximityBand } from '../../network/networkDisplay.ts';

/** The name is cut at this width, with an ellipsis (spec section 2). */
const NAME_MAX_WIDTH = '8rem';
const BAND_COLORS = { Low: 'gray', Medium: 'yellow', High: 'green' } as const;

export type ContactCardProps = { client: TClient };

/**
 * A client or ally as the lists show them: picture or first letter, name, engagement and proximity.
 * The name opens their LinkedIn profile in a new tab; the link holds the name alone, so its name is
 * what it shows (the avatar's letter and the badges beside it would not read as one name).
 */
export function ContactCard({ client }: ContactCardProps) {
  const { clientFullName, clientImage } = client.detailedClientData;
  const band = proximityBand(client.proximity);
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={clientImage} alt="" radius="xl" size="md">
        {initialOf(clientFullName)}
      </Avatar>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <TruncatedText
          text={clientFullName}
          href={client.linkedinUrl}
          aria-label={client.linkedinUrl ? `${clientFullName}, LinkedIn profile` : undefined}
          size="sm"
          fw={600}
          maw={NAME_MAX_WIDTH}
          c={client.linkedinUrl ? 'inherit' : undefined}
        />
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
}
