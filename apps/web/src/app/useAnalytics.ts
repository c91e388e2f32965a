import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { usePublicConfig } from '../features/public/api.ts';
import { capture, configureAnalytics, identifyAnalytics } from '../lib/analytics.ts';
import { useSession } from '../lib/useSession.ts';

/** Turns analytics on when the server configures PostHog, names the signed-in user, and records each navigation. */
export function useAnalytics(): void {
  // Loaded before the router renders (the sign-in needs it), so this reads the cache.
  const posthogKey = usePublicConfig().data?.posthogKey ?? null;
  const userId = useSession().user?.id ?? null;
  const { pathname } = useLocation();

  // Effects run in order: the key and the user are set before the page view is sent.
  useEffect(() => configureAnalytics(posthogKey), [posthogKey]);
  useEffect(() => identifyAnalytics(userId), [userId]);
  useEffect(() => {
    capture('$pageview', { path: pathname });
  }, [pathname]);
}
