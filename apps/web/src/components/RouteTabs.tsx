import { Tabs } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from 'react-router';
import type { RouteTab } from './routeTabs.ts';

export type RouteTabsProps = {
  label: string;
  tabs: readonly RouteTab[];
  /** The path of the tab to highlight for the current path. */
  resolveActive: (pathname: string) => string;
};

/** A tab bar whose tabs are routes; the matched child route renders in the active panel. */
export function RouteTabs({ label, tabs, resolveActive }: RouteTabsProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = resolveActive(pathname);

  return (
    <Tabs value={active} onChange={(path) => path && navigate(path)}>
      <Tabs.List aria-label={label} mb="lg">
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.path} value={tab.path}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value={active}>
        <Outlet />
      </Tabs.Panel>
    </Tabs>
  );
}
