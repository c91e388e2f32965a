import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen.tsx';
import { useSession } from '../lib/useSession.ts';
import type { RouteGuard } from './guards.ts';

/** Renders the child routes once the guard lets the visitor through, else redirects. */
export function GuardedOutlet({ guard }: { guard: RouteGuard }) {
  const session = useSession();
  const { pathname } = useLocation();
  if (session.isLoading) return <LoadingScreen />;
  const target = guard({ ...session, pathname });
  return target === null ? <Outlet /> : <Navigate to={target} replace />;
}
