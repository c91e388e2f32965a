import { Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import type { TWebhookEndpoint } from '@warmpath/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { useRevealWebhookSecret, useRotateWebhookSecret } from '../api.ts';

/**
 * The signing secret: its start by default; the whole of it when just created, on Reveal, or after a
 * rotation. Rotating signs every later attempt with the new secret, so it asks first.
 */
export function WebhookSecret({
  endpoint,
  createdSecret,
}: {
  endpoint: TWebhookEndpoint;
  createdSecret: string | null;
}) {
  const reveal = useRevealWebhookSecret();
  const rotate = useRotateWebhookSecret();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const shown = rotate.data?.secret ?? reveal.data?.secret ?? createdSecret;

  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Signing secret
      </Title>
      <Group gap="sm">
        <Code aria-label="Signing secret">{shown ?? endpoint.secretPreview}</Code>
        {shown ? (
          <CopyButton value={shown}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        ) : (
          <Button size="xs" variant="default" onClick={() => reveal.mutate()} loading={reveal.isPending}>
            Reveal
          </Button>
        )}
        <Button size="xs" variant="subtle" color="red" onClick={() => setConfirmRotate(true)}>
          Rotate
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Keep it on your server only. Every delivery is signed with it.
      </Text>
      <ConfirmDialog
        opened={confirmRotate}
        message="Rotate the signing secret? Deliveries are signed with the new one at once."
        onCancel={() => setConfirmRotate(false)}
        confirming={rotate.isPending}
        onConfirm={() => rotate.mutate(undefined, { onSettled: () => setConfirmRotate(false) })}
      />
    </Stack>
  );
}
