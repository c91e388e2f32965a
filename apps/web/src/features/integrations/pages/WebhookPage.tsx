import { Alert, Button, Code, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TWebhookEndpoint } from '@warmpath/shared';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useSaveWebhookUrl, useWebhook } from '../api.ts';
import { DeliveryLog } from '../components/DeliveryLog.tsx';
import { WebhookSecret } from '../components/WebhookSecret.tsx';

/**
 * Admin › Integrations › Webhook (spec section 2): the endpoint URL and Save; once saved, the page is
 * the configured endpoint's: its signing secret, how to verify a delivery, and the delivery log.
 */
export function WebhookPage() {
  const webhook = useWebhook();
  // The whole secret, when the save that created it just answered it.
  const [createdSecret, setCreatedSecret] = useState<string | null>(null);

  return (
    <>
      <PageHeader title="Webhook" />
      {webhook.isPending ? (
        <Stack maw={640} role="status" aria-busy="true" aria-label="Loading the webhook">
          <Skeleton height={60} />
          <Skeleton height={36} width={120} />
        </Stack>
      ) : webhook.isError ? (
        <ErrorAlert message={webhook.error.message} onRetry={() => void webhook.refetch()} />
      ) : (
        <Stack gap="xl" maw={960}>
          <EndpointForm endpoint={webhook.data} onCreatedSecret={setCreatedSecret} />
          {webhook.data ? (
            <>
              {webhook.data.disabledReason ? (
                <Alert color="orange" title="Deliveries stopped">
                  {webhook.data.disabledReason} Save the URL again to resume them.
                </Alert>
              ) : null}
              <WebhookSecret endpoint={webhook.data} createdSecret={createdSecret} />
              <VerificationSnippet />
              <DeliveryLog />
            </>
          ) : null}
        </Stack>
      )}
    </>
  );
}

function EndpointForm({
  endpoint,
  onCreatedSecret,
}: {
  endpoint: TWebhookEndpoint | null;
  onCreatedSecret: (secret: string) => void;
}) {
  const saved = endpoint?.url ?? '';
  const [url, setUrl] = useState(saved);
  const save = useSaveWebhookUrl();
  // Spec section 5: a blank value cannot be saved, and Save is disabled while it equals the saved one.
  const unchanged = url.trim() === saved;
  const canSave = url.trim() !== '' && !unchanged;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!canSave) return;
        save.mutate(
          { webhookUrl: url.trim() },
          {
            onSuccess: (answer) => {
              setUrl(answer.endpoint.url);
              if (answer.secret) onCreatedSecret(answer.secret);
            },
          },
        );
      }}
    >
      <Group align="flex-end" wrap="nowrap" maw={640}>
        <TextInput
          flex={1}
          type="url"
          label="Endpoint URL"
          description="A public http or https address of yours; private and local addresses are refused."
          placeholder={`e.g ${window.location.origin}/webhook`}
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
        />
        <Button type="submit" disabled={!canSave} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </form>
  );
}

const SNIPPET = `import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WARMPATH_WEBHOOK_SECRET);

// In your endpoint, with the request's raw body (before any JSON parsing):
const event = webhook.verify(rawBody, {
  'webhook-id': request.headers['webhook-id'],
  'webhook-timestamp': request.headers['webhook-timestamp'],
  'webhook-signature': request.headers['webhook-signature'],
});
// event is { type, timestamp, data }. A retry carries the same webhook-id: keep the ids you have
// handled and skip a repeat.`;

function VerificationSnippet() {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Verify a delivery
      </Title>
      <Text size="sm" c="dimmed">
        Deliveries follow the Standard Webhooks specification: any of its libraries verifies them. In Node.js:
      </Text>
      <Code block>{SNIPPET}</Code>
    </Stack>
  );
}
