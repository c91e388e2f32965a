import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';
import { DemoBanner } from '../features/demo/DemoBanner.tsx';
import { WebhookDisabledNotice } from '../features/integrations/components/WebhookDisabledNotice.tsx';
import { useSession } from '../lib/useSession.ts';
import { Sidebar } from './Sidebar.tsx';

const SIDEBAR_WIDTH = 260;

/** The main area: sidebar on the left, the page on the right. */
export function AppLayout() {
  const { user } = useSession();
  return (
    <AppShell navbar={{ width: SIDEBAR_WIDTH, breakpoint: 0 }} padding="lg">
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
