import { AppShell, NavLink, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { isUnderPath } from '../lib/isUnderPath.ts';
import { useSession } from '../lib/useSession.ts';
import { ADMIN_SIDEBAR_LINK, SIDEBAR_LINKS } from './sidebarLinks.ts';
import { UserMenu } from './UserMenu.tsx';

export function Sidebar() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const links = user?.role === 'admin' ? [...SIDEBAR_LINKS, ADMIN_SIDEBAR_LINK] : SIDEBAR_LINKS;

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
