import { Outlet } from 'react-router';
import { useGoogleConnectionReturn } from '../features/connections/useGoogleConnectionReturn.ts';

/** Every route's parent: handles what applies on any page (the return from Google's consent page). */
export function RootRoute() {
  useGoogleConnectionReturn();
  return <Outlet />;
}
