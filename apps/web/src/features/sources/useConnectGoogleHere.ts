import { useLocation } from 'react-router';
import { useConnectGoogle } from './api.ts';

/** Connect (or reconnect) Google from the page the user is on, coming back to it after Google's consent. */
export function useConnectGoogleHere(): { connect: () => void; connecting: boolean } {
  const location = useLocation();
  const mutation = useConnectGoogle();
  return {
    connect: () => mutation.mutate(`${location.pathname}${location.search}`),
    // Still pending after success: the browser is on its way to Google.
    connecting: mutation.isPending || mutation.isSuccess,
  };
}
