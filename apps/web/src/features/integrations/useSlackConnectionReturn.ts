import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, OTHER_BROWSER_MESSAGES } from '@warmpath/shared';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toasts.tsx';
import { userKeys } from '../users/api.ts';
import { integrationKeys } from './api.ts';

/** The query parameter the server appends to the page it sends the browser back to after Slack. */
const SLACK_RETURN_PARAM = 'slack';
// One toast per return, even when the effect runs twice (React's strict mode in development).
const TOAST_ID = 'slack-connection-return';

/**
 * Back from Slack's install screen: say how it went ('Failed to connect Slack' unless connected, or
 * that the install was approved in another browser),
 * reload the user and the connection, and drop the parameter so a reload does not say it again.
 */
export function useSlackConnectionReturn(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const outcome = new URLSearchParams(location.search).get(SLACK_RETURN_PARAM);

  useEffect(() => {
    if (outcome === null) return;
    if (outcome === 'connected') toast.success('Slack connected', { toastId: TOAST_ID });
    else if (outcome === 'other-browser') toast.error(OTHER_BROWSER_MESSAGES.slack, { toastId: TOAST_ID });
    else toast.error(MESSAGES.slackConnectFailed, { toastId: TOAST_ID });
    void queryClient.invalidateQueries({ queryKey: userKeys.me() });
    void queryClient.invalidateQueries({ queryKey: integrationKeys.slack() });
    const search = new URLSearchParams(location.search);
    search.delete(SLACK_RETURN_PARAM);
    const rest = search.toString();
    navigate({ pathname: location.pathname, search: rest === '' ? '' : `?${rest}` }, { replace: true });
  }, [outcome, location.pathname, location.search, navigate, queryClient]);
}
