import { Alert, Anchor } from '@mantine/core';
import type { TMe } from '@warmpath/shared';
import { Link, useLocation } from 'react-router';
import { PATHS } from '../../../lib/paths.ts';
import { useWebhook } from '../api.ts';

/**
 * Tells every admin, on every page, that the workspace's webhook stopped receiving events (410 Gone,
 * or five days of failures): systems downstream miss events until someone acts, and the webhook page
 * is not where anyone looks on an ordinary day. The webhook page says it itself.
 */
export function WebhookDisabledNotice({ user }: { user: TMe | null }) {
  const { pathname } = useLocation();
  const watching = user?.role === 'admin' && user.isWebhookConnected;
  const webhook = useWebhook(watching);
  const reason = watching ? webhook.data?.disabledReason : null;
  if (!reason || pathname === PATHS.admin.webhook) return null;
  return (
    <Alert color="orange" title="Webhook deliveries stopped" mb="md" role="alert">
      {reason} Events are no longer sent to {webhook.data?.url}.{' '}
      <Anchor component={Link} to={PATHS.admin.webhook}>
        Open the webhook page
      </Anchor>{' '}
      to save its URL again once the endpoint works.
    </Alert>
  );
}
