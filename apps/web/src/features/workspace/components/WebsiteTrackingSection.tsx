import { Button, Code, CopyButton, Group, NumberInput, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { TTrackingSettings, TTrackingSettingsUpdate } from '@warmpath/shared';
import { useId, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { TagInput } from '../../../components/TagInput.tsx';
import { useSaveTracking, useTrackedEvents, useTracking } from '../api.ts';

/**
 * Admin › Workspace › Website tracking: the snippet to paste on the team's site (a public key, no
 * secret), the sites allowed to send, the pricing-page paths and the many-pages rule, and the last
 * visits received, so the admin sees the installation work.
 */
export function WebsiteTrackingSection() {
  const headingId = useId();
  const tracking = useTracking();
  return (
    <Stack component="section" aria-labelledby={headingId} maw={720} mt="xl">
      <Title order={2} size="h4" id={headingId}>
        Website tracking
      </Title>
      <Text size="sm" c="dimmed">
        Visits of your site by people in your network become signals: pricing page, many pages, website. Only visitors
        who identify themselves (your own forms, or a link from an e-mail sent through Warmpath) are counted; Do Not
        Track and Global Privacy Control are honoured.
      </Text>
      {tracking.isPending ? (
        <Stack role="status" aria-busy="true" aria-label="Loading website tracking">
          <Skeleton height={40} />
          <Skeleton height={120} />
        </Stack>
      ) : tracking.isError ? (
        <ErrorAlert message={tracking.error.message} onRetry={() => void tracking.refetch()} />
      ) : (
        <>
          <Snippet settings={tracking.data} />
          <TrackingForm key={JSON.stringify(tracking.data)} settings={tracking.data} />
          <LiveView />
        </>
      )}
    </Stack>
  );
}

function Snippet({ settings }: { settings: TTrackingSettings }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text fw={600} size="sm" id="tracking-snippet-label">
          Snippet: paste it before &lt;/head&gt; on every page of your site
        </Text>
        <CopyButton value={settings.snippet}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy snippet'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {/* The tag wraps rather than running off the card: it is read, then copied with the button. */}
      <Code block aria-labelledby="tracking-snippet-label" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {settings.snippet}
      </Code>
      <Text size="xs" c="dimmed">
        On your own forms, call <Code>warmpath.identify(email)</Code> once the visitor gives their address.
      </Text>
    </Stack>
  );
}

/** As the server takes them (ZTrackingSettingsUpdate): 20 sites or paths of 200 characters at most. */
const TAG_MAX = 20;
const TAG_LENGTH = 200;

function TrackingForm({ settings }: { settings: TTrackingSettings }) {
  const save = useSaveTracking();
  const [draft, setDraft] = useState<TTrackingSettingsUpdate>({
    origins: settings.origins,
    pricingPatterns: settings.pricingPatterns,
    manyPages: settings.manyPages,
    manyPagesDays: settings.manyPagesDays,
  });
  const invalidOrigin = draft.origins.find((origin) => !/^https?:\/\/[^/\s]+\/?$/.test(origin));
  const invalidPattern = draft.pricingPatterns.find((pattern) => !pattern.startsWith('/'));
  return (
    <Stack gap="sm">
      <TagInput
        label="Allowed sites"
        description="Where the snippet may send from, e.g. https://www.example.com. Press Enter after each."
        max={TAG_MAX}
        maxLength={TAG_LENGTH}
        value={draft.origins}
        onChange={(origins) => setDraft({ ...draft, origins })}
        error={invalidOrigin ? `${invalidOrigin} is not a site address (https://www.example.com)` : undefined}
      />
      <TagInput
        label="Pricing page paths"
        description="Paths of your pricing page; * stands for any characters, e.g. /pricing*. Press Enter after each."
        max={TAG_MAX}
        maxLength={TAG_LENGTH}
        value={draft.pricingPatterns}
        onChange={(pricingPatterns) => setDraft({ ...draft, pricingPatterns })}
        error={
          draft.pricingPatterns.length === 0
            ? 'At least one path is needed'
            : invalidPattern
              ? `${invalidPattern} must start with /`
              : undefined
        }
      />
      <Group grow>
        <NumberInput
          label="Many pages: page views"
          min={2}
          max={100}
          value={draft.manyPages}
          onChange={(value) => setDraft({ ...draft, manyPages: Number(value) || 2 })}
        />
        <NumberInput
          label="within days"
          min={1}
          max={30}
          value={draft.manyPagesDays}
          onChange={(value) => setDraft({ ...draft, manyPagesDays: Number(value) || 1 })}
        />
      </Group>
      <Group justify="flex-end">
        <Button
          onClick={() => save.mutate(draft)}
          loading={save.isPending}
          disabled={Boolean(invalidOrigin || invalidPattern) || draft.pricingPatterns.length === 0}
        >
          Save website tracking
        </Button>
      </Group>
    </Stack>
  );
}

function LiveView() {
  const events = useTrackedEvents();
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        Last visits received
      </Text>
      {events.isError ? (
        <ErrorAlert message={events.error.message} onRetry={() => void events.refetch()} />
      ) : (
        <Table aria-label="Last visits received" aria-busy={events.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Page</Table.Th>
              <Table.Th>Visitor</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.isPending ? (
              <TableSkeletonRows rows={3} columns={3} />
            ) : events.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={3}>
                  <Text c="dimmed" ta="center" py="md">
                    No visit received yet. Paste the snippet on your site, then open one of its pages.
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              events.data.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{new Date(event.occurredAt).toLocaleString()}</Table.Td>
                  <Table.Td>{event.path}</Table.Td>
                  <Table.Td>{event.visitor ?? 'Anonymous'}</Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
