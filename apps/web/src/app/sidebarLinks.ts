import { PATHS } from '../lib/paths.ts';

/** A link of the sidebar: active on every path under `activeUnder`. */
export type SidebarLink = { label: string; to: string; activeUnder: string };

// Plain data, apart from the Sidebar component: the build draws the network page's frame from it too
// (pageFrameHtml.ts).
export const SIDEBAR_LINKS: readonly SidebarLink[] = [
  { label: 'Actions', to: PATHS.recommendedActions, activeUnder: PATHS.actions },
  { label: 'Leads', to: PATHS.network, activeUnder: PATHS.network },
  { label: 'Targeting', to: PATHS.personas, activeUnder: '/profile' },
  { label: 'Workflows', to: PATHS.workflows, activeUnder: PATHS.workflows },
];
export const ADMIN_SIDEBAR_LINK: SidebarLink = { label: 'Admin', to: PATHS.admin.workspace, activeUnder: '/admin' };
