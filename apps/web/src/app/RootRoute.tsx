import { Progress } from '@mantine/core';
import { Outlet, useNavigation } from 'react-router';
import { useGoogleConnectionReturn } from '../features/sources/useGoogleConnectionReturn.ts';
import { useAnalytics } from './useAnalytics.ts';

/**
 * Every route's parent: handles what applies on any page (the return from Google's consent page,
 * analytics), and shows a bar along the top while the next page's code is fetched (the router's
 * lazy screens), the current page staying until it has arrived.
 */
export function RootRoute() {
  useGoogleConnectionReturn();
  useAnalytics();
  const navigation = useNavigation();
  return (
    <>
      {navigation.state === 'loading' && (
        <Progress
          value={100}
          animated
          size="xs"
          radius={0}
          aria-label="Loading page"
          pos="fixed"
          top={0}
          left={0}
          right={0}
          style={{ zIndex: 1000 }}
        />
      )}
      <Outlet />
    </>
  );
}
