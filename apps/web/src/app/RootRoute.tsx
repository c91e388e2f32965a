import { Outlet } from 'react-router';
import { useGoogleConnectionReturn } from '../features/sources/useGoogleConnectionReturn.ts';
import { useAnalytics } from './useAnalytics.ts';

/** Every route's parent: handles what applies on any page (the return from Google's consent page, analytics). */
export function RootRoute() {
  useGoogleConnectionReturn();
  useAnalytics();
  return <Outlet />;
}
