import { useDeferredValue } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen.tsx';
import { useSession } from '../lib/useSession.ts';
import type { RouteGuard } from './guards.ts';

/** Renders the child routes once the guard lets the visitor through, else redirects. */
export function GuardedOutlet({ guard }: { guard: RouteGuard }) {
  const session = useSession();
  const { pathname } = useLocation();
  // Once the user is known, the pages behind the guard mount in a background render that yields to
  // the browser, instead of in one long task right after the answer.
  const isLoading = useDeferredValue(session.isLoading);
  if (isLoading) return <LoadingScreen />;
  const target = guard({ ...session, pathname });
  return target === null ? <Outlet /> : <Navigate to={target} replace />;
}
