import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen.tsx';
import { useDrawnInBackground } from '../lib/useDrawnInBackground.ts';
import { useSession } from '../lib/useSession.ts';
import type { RouteGuard } from './guards.ts';

/** Renders the child routes once the guard lets the visitor through, else redirects. */
export function GuardedOutlet({ guard }: { guard: RouteGuard }) {
  const session = useSession();
  const { pathname } = useLocation();
  // The first page, the loading screen (and the page's frame) staying meanwhile: drawn in the task
  // that brought the member's session, it held the main thread for a quarter of a second on a phone.
  const drawn = useDrawnInBackground(!session.isLoading);
  if (session.isLoading || !drawn) return <LoadingScreen />;
  const target = guard({ ...session, pathname });
  return target === null ? <Outlet /> : <Navigate to={target} replace />;
}
