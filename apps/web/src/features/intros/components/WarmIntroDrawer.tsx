import { Drawer, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { TWarmIntroModalData } from '@warmpath/shared';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { plural } from '../../../lib/format.ts';
import { useSession } from '../../../lib/useSession.ts';
import { ConnectionSources } from '../../network/components/ConnectionSources.tsx';
import { PersonCard } from '../../network/components/PersonCard.tsx';
import { SignalChips } from '../../network/components/SignalChips.tsx';
import { WarmPathDrawing } from '../../network/components/WarmPathDrawing.tsx';
import { proximityBand } from '../../network/networkDisplay.ts';
import { introPath } from '../../network/pictures.ts';
import { ConnectGoogleAlert } from '../../sources/components/ConnectGoogleAlert.tsx';
import { useWarmIntroModalData, type WarmIntroRequest } from '../api.ts';
import { WarmIntroForm } from './WarmIntroForm.tsx';

export type WarmIntroDrawerProps = {
  /** The panel to show, or null when it is closed. */
  request: WarmIntroRequest | null;
  onClose: () => void;
};

const TITLES = { owner: 'Ask account owner', ally: 'Ask for an intro' } as const;

/**
 * The warm-intro side panel of the network page: ask a colleague, or a client ally (through their
 * account owner when they have one), for an introduction to a prospect.
 */
export function WarmIntroDrawer({ request, onClose }: WarmIntroDrawerProps) {
  return (
    <Drawer.Root opened={request !== null} onClose={onClose} position="right" size="md">
      <Drawer.Overlay />
      <Drawer.Content>
        {request ? (
          <WarmIntroPanel
            key={`${request.source}:${request.connectorId}:${request.targetId}`}
            request={request}
            onClose={onClose}
          />
        ) : null}
      </Drawer.Content>
    </Drawer.Root>
  );
}

function WarmIntroPanel({ request, onClose }: { request: WarmIntroRequest; onClose: () => void }) {
  const modalData = useWarmIntroModalData(request);
  const hasOwner = modalData.data ? modalData.data.contactOwner !== null : request.hasContactOwner;
  return (
    <>
      <Drawer.Header>
        <Drawer.Title fw={600}>{hasOwner ? TITLES.owner : TITLES.ally}</Drawer.Title>
        <Drawer.CloseButton aria-label="Close the panel" />
      </Drawer.Header>
      <Drawer.Body>
        {modalData.isPending ? (
          <Stack role="status" aria-label="Loading the intro request">
            <Skeleton height={88} />
            <Skeleton height={88} />
            <Skeleton height={160} />
          </Stack>
        ) : modalData.isError ? (
          <ErrorAlert message={modalData.error.message} onRetry={() => void modalData.refetch()} />
        ) : (
          <WarmIntroDetails data={modalData.data} request={request} onSent={onClose} />
        )}
      </Drawer.Body>
    </>
  );
}

type WarmIntroDetailsProps = { data: TWarmIntroModalData; request: WarmIntroRequest; onSent: () => void };

function WarmIntroDetails({ data, request, onSent }: WarmIntroDetailsProps) {
  const { user } = useSession();
  const { connector, contactOwner, target, signals } = data;
  const asked = contactOwner ?? connector;
  const capReached = data.introRequestsLast7Days >= data.weeklyCap;
  const connectorLink = (
    <Group gap="xs" wrap="nowrap">
      <ConnectionSources sources={connector.connectionSources} />
      <Text size="xs">
        Proximity {proximityBand(connector.proximity)} {connector.proximity}
      </Text>
    </Group>
  );

  return (
    <Stack gap="md">
      <WarmPathDrawing path={introPath(data)} />
      <PersonCard heading="Ask" person={asked}>
        {contactOwner ? null : connectorLink}
      </PersonCard>
      {contactOwner ? (
        <PersonCard heading={`Who knows ${target.firstName}`} person={connector}>
          {connectorLink}
        </PersonCard>
      ) : null}
      <PersonCard heading="Intro to" person={target} />
      <Stack gap={4}>
        <Text size="sm">
          {`${plural(data.introRequestsLast7Days, 'intro request', 'intro requests')} received in the last 7 days`}
          {` (weekly limit ${data.weeklyCap})`}
        </Text>
        {capReached ? (
          <Text size="sm" c="red.9" role="alert">
            {asked.fullName} has reached the weekly limit of {data.weeklyCap} intro requests.
          </Text>
        ) : null}
      </Stack>
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {plural(signals.length, 'signal', 'signals')}
        </Text>
        {signals.length > 0 ? <SignalChips signals={signals} visible={signals.length} /> : null}
      </Stack>
      {user?.isGoogleConnected ? (
        <WarmIntroForm data={data} request={request} blocked={capReached} onSent={onSent} />
      ) : (
        <ConnectGoogleAlert />
      )}
    </Stack>
  );
}
