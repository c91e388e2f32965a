import { Avatar, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { type ConnectionSource, type TNetworkRow, VISIBLE_AVATARS, type WarmIntroSource } from '@warmpath/shared';
import { DeferredTooltip } from '../../../components/DeferredTooltip.tsx';
import { plural } from '../../../lib/format.ts';
import type { WarmIntroRequest } from '../../intros/api.ts';
import { initialOf, splitVisible } from '../networkDisplay.ts';
import { ConnectionSources } from './ConnectionSources.tsx';
import { MorePopover } from './MorePopover.tsx';

export type AlliesCellProps = { row: TNetworkRow; onAsk: (request: WarmIntroRequest) => void };

/** A colleague (connector) or a client ally who knows the prospect, as the cell shows them. */
type Ally = {
  source: WarmIntroSource;
  id: string;
  name: string;
  avatar: string | null;
  detail: string | null;
  sources: readonly ConnectionSource[];
  /** A client ally's account owner, who is the one asked. */
  ownerName: string | null;
  /** The user themself: shown among those who know the prospect, never asked. */
  isYou: boolean;
};

function alliesOf(row: TNetworkRow): { connectors: Ally[]; clients: Ally[] } {
  return {
    connectors: row.connectors.map((connector) => ({
      source: 'connector',
      id: connector.id,
      name: connector.fullName,
      avatar: connector.avatar,
      detail: connector.jobTitle,
      sources: connector.connectionSources,
      ownerName: null,
      isYou: connector.isCurrentUser,
    })),
    clients: row.clientsConnected.map((client) => ({
      source: 'client',
      id: client.id,
      name: client.name,
      avatar: client.linkedinProfileImageUrl,
      detail: [client.jobTitle, client.companyName].filter(Boolean).join(' at ') || null,
      sources: client.connectionSources,
      ownerName: client.contactOwner?.fullName ?? null,
      isYou: false,
    })),
  };
}

/** What the avatar button does, in words: 'Ask Jane Doe for an intro to John Smith'. */
export function askLabel(ally: Pick<Ally, 'name' | 'ownerName'>, prospectName: string): string {
  return ally.ownerName
    ? `Ask ${ally.ownerName}, account owner of ${ally.name}, for an intro to ${prospectName}`
    : `Ask ${ally.name} for an intro to ${prospectName}`;
}

/** The colleagues, then the client allies, who know the prospect: the first of each as avatars, the rest behind '+n'. */
export function AlliesCell({ row, onAsk }: AlliesCellProps) {
  const { connectors, clients } = alliesOf(row);
  const ask = (ally: Ally) =>
    onAsk({ source: ally.source, targetId: row.id, connectorId: ally.id, hasContactOwner: ally.ownerName !== null });

  return (
    // Colleagues above client allies when both know the prospect: each group fits the column's width.
    <Group gap={4} wrap="wrap">
      <AllyGroup allies={connectors} kind={['colleague', 'colleagues']} prospectName={row.name} onAsk={ask} />
      <AllyGroup allies={clients} kind={['client ally', 'client allies']} prospectName={row.name} onAsk={ask} />
    </Group>
  );
}

type AllyGroupProps = {
  allies: Ally[];
  /** What they are, singular and plural. */
  kind: readonly [string, string];
  prospectName: string;
  onAsk: (ally: Ally) => void;
};

function AllyGroup({ allies, kind, prospectName, onAsk }: AllyGroupProps) {
  if (allies.length === 0) return null;
  const { shown, rest } = splitVisible(allies, VISIBLE_AVATARS);
  return (
    <Group gap={4} wrap="nowrap">
      {shown.map((ally) => (
        <DeferredTooltip key={ally.id} label={<AllySummary ally={ally} />}>
          {ally.isYou ? (
            <span role="img" aria-label={`You know ${prospectName}`}>
              <AllyAvatar ally={ally} />
            </span>
          ) : (
            <UnstyledButton aria-label={askLabel(ally, prospectName)} onClick={() => onAsk(ally)}>
              <AllyAvatar ally={ally} />
            </UnstyledButton>
          )}
        </DeferredTooltip>
      ))}
      <MorePopover
        trapFocus
        count={rest.length}
        label={`Show ${plural(rest.length, `more ${kind[0]}`, `more ${kind[1]}`)}`}
      >
        <Stack gap="xs">
          {rest.map((ally) =>
            ally.isYou ? (
              <Group key={ally.id} gap="xs" wrap="nowrap" role="group" aria-label={`You know ${prospectName}`}>
                <AllyAvatar ally={ally} />
                <AllySummary ally={ally} />
              </Group>
            ) : (
              <UnstyledButton key={ally.id} aria-label={askLabel(ally, prospectName)} onClick={() => onAsk(ally)}>
                <Group gap="xs" wrap="nowrap">
                  <AllyAvatar ally={ally} />
                  <AllySummary ally={ally} />
                </Group>
              </UnstyledButton>
            ),
          )}
        </Stack>
      </MorePopover>
    </Group>
  );
}

function AllyAvatar({ ally }: { ally: Ally }) {
  return (
    <Avatar src={ally.avatar} alt="" size={24} radius="xl" color={ally.source === 'client' ? 'teal' : 'blue'}>
      {initialOf(ally.name)}
    </Avatar>
  );
}

function AllySummary({ ally }: { ally: Ally }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {ally.name}
      </Text>
      {ally.detail ? <Text size="xs">{ally.detail}</Text> : null}
      {ally.ownerName ? <Text size="xs">Account owner: {ally.ownerName}</Text> : null}
      <ConnectionSources sources={ally.sources} />
    </Stack>
  );
}
