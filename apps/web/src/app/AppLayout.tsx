import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';
import { DemoBanner } from '../features/demo/DemoBanner.tsx';
import { WebhookDisabledNotice } from '../features/integrations/components/WebhookDisabledNotice.tsx';
import { useSession } from '../lib/useSession.ts';
import { Sidebar } from './Sidebar.tsx';

// With the page's padding (md, 16 px a side), what a 1280 px window leaves the tables is the width
// they are laid out for (FIT_TABLE_WIDTH): every spec column readable without scrolling.
const SIDEBAR_WIDTH = 220;

/** The main area: sidebar on the left, the page on the right. */
export function AppLayout() {
  const { user } = useSession();
  return (
    <AppShell navbar={{ width: SIDEBAR_WIDTH, breakpoint: 0 }} padding="md">
      <AppShell.Navbar p="md" aria-label="Main">
        <Sidebar />
      </AppShell.Navbar>
      <AppShell.Main>
        <DemoBanner />
        <WebhookDisabledNotice user={user} />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
