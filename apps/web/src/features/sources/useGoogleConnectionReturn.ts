import { useQueryClient } from '@tanstack/react-query';
import { OTHER_BROWSER_MESSAGES } from '@warmpath/shared';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toasts.tsx';
import { userKeys } from '../users/api.ts';
import { googleKeys } from './api.ts';

/** The query parameter the server appends to the page it sends the browser back to after Google's consent. */
export const GOOGLE_RETURN_PARAM = 'google';

export const GOOGLE_RETURN_MESSAGES = {
  connected: 'Google account connected.',
  denied: 'Google access was not granted.',
  'other-browser': OTHER_BROWSER_MESSAGES.google,
} as const;
type GoogleReturn = keyof typeof GOOGLE_RETURN_MESSAGES;
const isGoogleReturn = (outcome: string | null): outcome is GoogleReturn =>
  outcome !== null && Object.hasOwn(GOOGLE_RETURN_MESSAGES, outcome);

// One toast per return, even when the effect runs twice (React's strict mode in development).
const TOAST_ID = 'google-connection-return';

/**
 * Back from Google's consent page on any page of the app: say how it went, reload the user (and the
 * sync the server started), and drop the parameter so a reload does not say it again.
 */
export function useGoogleConnectionReturn(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const outcome = new URLSearchParams(location.search).get(GOOGLE_RETURN_PARAM);

  useEffect(() => {
    if (!isGoogleReturn(outcome)) return;
    if (outcome === 'connected') toast.success(GOOGLE_RETURN_MESSAGES.connected, { toastId: TOAST_ID });
    else toast.error(GOOGLE_RETURN_MESSAGES[outcome], { toastId: TOAST_ID });
    void queryClient.invalidateQueries({ queryKey: userKeys.me() });
    void queryClient.invalidateQueries({ queryKey: googleKeys.all });

    const search = new URLSearchParams(location.search);
    search.delete(GOOGLE_RETURN_PARAM);
    const rest = search.toString();
    navigate(
      { pathname: location.pathname, search: rest === '' ? '' : `?${rest}`, hash: location.hash },
      { replace: true },
    );
  }, [outcome, location.pathname, location.search, location.hash, navigate, queryClient]);
}
