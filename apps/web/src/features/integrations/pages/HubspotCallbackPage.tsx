import { Center, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { GATEWAY_ERRORS, MESSAGES } from '@warmpath/shared';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PATHS } from '../../../lib/paths.ts';
import { toast } from '../../../lib/toasts.tsx';
import { userKeys } from '../../users/api.ts';
import { integrateHubspot, integrationKeys } from '../api.ts';

/**
 * `/hubspot-oauth-callback` (spec section 7): HubSpot's return. The code and state go to
 * `POST /hubspot/integrate` once; then the main page, with the spec's message. A refusal at HubSpot, or
 * a code the server cannot use, goes back to the Integrations page with the reason.
 */
export function HubspotCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The code is single use: a second effect run (React's strict mode, a re-render) must not send it again.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = params.get('code');
    const state = params.get('state');
    if (!code || !state) {
      toast.error(
        params.get('error') === 'access_denied' ? 'HubSpot was not connected.' : GATEWAY_ERRORS.saveHubspotToken,
      );
      void navigate(PATHS.admin.integrations, { replace: true });
      return;
    }
    integrateHubspot({ code, state }).then(
      async (connection) => {
        queryClient.setQueryData(integrationKeys.hubspot(), connection);
        await queryClient.invalidateQueries({ queryKey: userKeys.me() });
        toast.success(MESSAGES.hubspotIntegrationStarted);
        void navigate(PATHS.root, { replace: true });
      },
      (error: Error) => {
        toast.error(error.message);
        void navigate(PATHS.admin.integrations, { replace: true });
      },
    );
  }, [params, navigate, queryClient]);

  return (
    <Center h="60vh">
      <Stack align="center" gap="sm" role="status">
        <Loader />
        <Text>Connecting HubSpot…</Text>
      </Stack>
    </Center>
  );
}
