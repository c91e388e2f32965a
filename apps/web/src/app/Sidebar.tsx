import { AppShell, NavLink, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { isUnderPath } from '../lib/isUnderPath.ts';
import { PATHS } from '../lib/paths.ts';
import { useSession } from '../lib/useSession.ts';
import { UserMenu } from './UserMenu.tsx';

type SidebarLink = { label: string; to: string; activeUnder: string };

const LINKS: readonly SidebarLink[] = [
  { label: 'Actions', to: PATHS.recommendedActions, activeUnder: PATHS.actions },
  { label: 'Leads', to: PATHS.network, activeUnder: PATHS.network },
  { label: 'Targeting', to: PATHS.personas, activeUnder: '/profile' },
  { label: 'Workflows', to: PATHS.workflows, activeUnder: PATHS.workflows },
];
const ADMIN_LINK: SidebarLink = { label: 'Admin', to: PATHS.admin.workspace, activeUnder: '/admin' };

export function Sidebar() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const links = user?.role === 'admin' ? [...LINKS, ADMIN_LINK] : LINKS;

  return (
    <>
      <AppShell.Section>
        <Text fw={700} size="xl" mb="lg">
          Warmpath
        </Text>
      </AppShell.Section>
      <AppShell.Section grow>
        {links.map((link) => {
          const active = isUnderPath(pathname, link.activeUnder);
          return (
            <NavLink
              key={link.to}
              component={Link}
              to={link.to}
              label={link.label}
              active={active}
              aria-current={active ? 'page' : undefined}
            />
          );
        })}
      </AppShell.Section>
      {user ? (
        <AppShell.Section>
          <UserMenu user={user} />
        </AppShell.Section>
      ) : null}
    </>
  );
}
