import { Badge, Button, Card, Group, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/useSession.ts';
import {
  useConnectHubspot,
  useConnectSlack,
  useDeleteWebhookUrl,
  useDisconnectHubspot,
  useDisconnectSlack,
  useHubspot,
  useSetHubspotNotes,
  useSlack,
} from '../api.ts';
import { useSlackConnectionReturn } from '../useSlackConnectionReturn.ts';

/**
 * Admin › Integrations (spec section 2): the team chat, the CRM and the webhook, each with what it
 * does and whether it is connected. A connected card shows Disconnect while hovered or focused.
 */
export function IntegrationsPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const disconnectWebhook = useDeleteWebhookUrl();
  const connectSlack = useConnectSlack();
  const disconnectSlack = useDisconnectSlack();
  const slack = useSlack(Boolean(user?.isSlackConnected));
  const hubspot = useHubspot(Boolean(user?.isHubspotConnected));
  const connectHubspot = useConnectHubspot();
  const disconnectHubspot = useDisconnectHubspot();
  const setNotes = useSetHubspotNotes();
  useSlackConnectionReturn();

  return (
    <>
      <PageHeader title="Integrations" description="Connect the product to other tools that you use." />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md" maw={1100}>
        <IntegrationCard
          name="Slack"
          description="Post intro requests and replies, job changes and warm signals at your accounts to a channel."
          detail={
            slack.data
              ? slack.data.reconnectRequired
                ? `Slack refused our access to ${slack.data.teamName}: connect again to resume.`
                : `Posting to ${slack.data.channelName} in ${slack.data.teamName}.`
              : undefined
          }
          state={
            user?.isSlackConnected && !slack.data?.reconnectRequired
              ? {
                  kind: 'connected',
                  disconnect: () => disconnectSlack.mutate(),
                  disconnecting: disconnectSlack.isPending,
                }
              : {
                  kind: 'available',
                  label: user?.isSlackConnected ? 'Reconnect' : 'Connect',
                  connect: () => connectSlack.mutate(),
                  connecting: connectSlack.isPending,
                }
          }
        />
        <IntegrationCard
          name="HubSpot"
          description="Import your CRM customers and exclusion lists, and push notes back to HubSpot."
          detail={
            hubspot.data
              ? hubspot.data.reconnectRequired
                ? `HubSpot refused our access to ${hubspot.data.portal}: connect again to resume.`
                : `Connected to ${hubspot.data.portal}.`
              : undefined
          }
          extra={
            hubspot.data && !hubspot.data.reconnectRequired ? (
              <Switch
                label="Write intros, messages and replies as notes on the HubSpot contact"
                checked={hubspot.data.notesEnabled}
                disabled={setNotes.isPending}
                onChange={(event) => setNotes.mutate(event.currentTarget.checked)}
              />
            ) : null
          }
          state={
            user?.isHubspotConnected && !hubspot.data?.reconnectRequired
              ? {
                  kind: 'connected',
                  configure: () => navigate(PATHS.admin.crmClients),
                  disconnect: () => disconnectHubspot.mutate(),
                  disconnecting: disconnectHubspot.isPending,
                }
              : {
                  kind: 'available',
                  label: user?.isHubspotConnected ? 'Reconnect' : 'Connect',
                  connect: () => connectHubspot.mutate(),
                  connecting: connectHubspot.isPending,
                }
          }
        />
        <IntegrationCard
          name="Webhook"
          description="Send every event to your own endpoint, signed per the Standard Webhooks specification."
          state={
            user?.isWebhookConnected
              ? {
                  kind: 'connected',
                  configure: () => navigate(PATHS.admin.webhook),
                  disconnect: () => disconnectWebhook.mutate(),
                  disconnecting: disconnectWebhook.isPending,
                }
              : { kind: 'available', label: 'Connect', connect: () => navigate(PATHS.admin.webhook) }
          }
        />
      </SimpleGrid>
    </>
  );
}

type CardState =
  | { kind: 'available'; label: 'Connect' | 'Reconnect'; connect: () => void; connecting?: boolean }
  | { kind: 'connected'; configure?: () => void; disconnect: () => void; disconnecting: boolean };

function IntegrationCard({
  name,
  description,
  detail,
  extra,
  state,
}: {
  name: string;
  description: string;
  /** What the connection does now: the channel posted to, or why it stopped. */
  detail?: string | undefined;
  /** A setting of the connection, shown above its buttons. */
  extra?: ReactNode;
  state: CardState;
}) {
  const titleId = useId();
  const [hovered, setHovered] = useState(false);
  const showDisconnect = state.kind === 'connected' && (hovered || state.disconnecting);

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm" h="100%" justify="space-between">
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} size="h4" id={titleId}>
              {name}
            </Title>
            {state.kind === 'connected' ? <Badge color="green">Connected</Badge> : null}
          </Group>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
          {detail ? <Text size="sm">{detail}</Text> : null}
        </Stack>
        {extra}
        {state.kind === 'available' ? (
          <Group>
            <Button onClick={state.connect} loading={state.connecting} aria-label={`${state.label} ${name}`}>
              {state.label}
            </Button>
          </Group>
        ) : (
          <Group gap="xs">
            {/* One button: 'Connected' until hovered or focused, then 'Disconnect', so keyboard users
                reach it too and its name is always the text it shows. */}
            <Button
              color={showDisconnect ? 'red' : 'green'}
              variant="light"
              onMouseEnter={() => setHovered(true)}
              onMouseLeave={() => setHovered(false)}
              onFocus={() => setHovered(true)}
              onBlur={() => setHovered(false)}
              onClick={state.disconnect}
              loading={state.disconnecting}
            >
              {showDisconnect ? 'Disconnect' : 'Connected'}
            </Button>
            {state.configure ? (
              <Button variant="default" onClick={state.configure}>
                Configure
              </Button>
            ) : null}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
