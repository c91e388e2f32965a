import { Skeleton } from '@mantine/core';
import { useLocation } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { RouteTabs } from '../../../components/RouteTabs.tsx';
import { activeRouteTab, type RouteTab } from '../../../components/routeTabs.ts';
import { formatCount } from '../../../lib/format.ts';
import { PATHS } from '../../../lib/paths.ts';
import { type ActionsTab, useActionCounts } from '../api.ts';
import { useActionsAccess } from '../useActionsAccess.ts';

const TABS: readonly (RouteTab & { tab: ActionsTab })[] = [
  { tab: 'recommended', label: 'Recommended', path: PATHS.recommendedActions },
  { tab: 'past', label: 'Past', path: PATHS.pastActions },
  { tab: 'pending', label: 'Pending', path: PATHS.pendingActions },
  { tab: 'skipped', label: 'Skipped', path: PATHS.skippedActions },
];

/** The highlighted tab; /actions itself is the recommended one. */
export function activeActionsTab(pathname: string): string {
  return activeRouteTab(TABS, pathname, PATHS.recommendedActions);
}

/** The actions area: the welcome, and a tab per list with its count; the active list renders below. */
export function ActionsLayout() {
  const { user, canLoad, isAdmin } = useActionsAccess();
  const counts = useActionCounts(canLoad);
  const { pathname } = useLocation();
  const onRecommended = activeActionsTab(pathname) === PATHS.recommendedActions;

  const tabs = TABS.map(({ tab, label, path }) => ({
    path,
    label: counts.data ? `${label} (${formatCount(counts.data[tab])})` : label,
  }));
  const description = !canLoad ? undefined : !onRecommended ? (
    isAdmin ? (
      "Review your team's past actions"
    ) : (
      'Review your past actions'
    )
  ) : counts.data ? (
    `We recommended ${formatCount(counts.data.recommended)} actions to you today.`
  ) : counts.isPending ? (
    // A status names its placeholder: aria-label alone is not allowed on an element without a role.
    <Skeleton
      height={14}
      width={280}
      mt={4}
      component="span"
      display="block"
      role="status"
      aria-label="Loading the count"
    />
  ) : undefined;

  return (
    <>
      <PageHeader title={`Welcome ${user?.firstName ?? ''}!`} description={description} />
      <RouteTabs label="Actions" tabs={tabs} resolveActive={activeActionsTab} />
    </>
  );
}
