import { describe, expect, it } from 'vitest';
import { ADMIN_TABS, activeAdminTab, activeProfileTab } from './navigationTabs.ts';

describe('activeAdminTab', () => {
  it('highlights the tab of each admin page', () => {
    expect(activeAdminTab('/admin/workspace')).toBe('/admin/workspace');
    expect(activeAdminTab('/admin/users')).toBe('/admin/users');
    expect(activeAdminTab('/admin/accounts')).toBe('/admin/accounts');
    expect(activeAdminTab('/admin/network-allies')).toBe('/admin/network-allies');
    expect(activeAdminTab('/admin/job-changes-tracking')).toBe('/admin/job-changes-tracking');
    expect(activeAdminTab('/admin/crm-clients')).toBe('/admin/crm-clients');
  });

  it('highlights Integrations on the webhook page too', () => {
    expect(activeAdminTab('/admin/integrations')).toBe('/admin/integrations');
    expect(activeAdminTab('/admin/integrations/webhook')).toBe('/admin/integrations');
  });

  it('highlights Workspace on an unknown admin path', () => {
    expect(activeAdminTab('/admin/unknown')).toBe('/admin/workspace');
    expect(activeAdminTab('/admin')).toBe('/admin/workspace');
    expect(activeAdminTab('/admin/users-archive')).toBe('/admin/workspace');
  });

  it('labels the tabs as the spec does, in its order', () => {
    expect(ADMIN_TABS.map((tab) => tab.label)).toEqual([
      'Workspace',
      'Integrations',
      'Users',
      'Assigned Accounts',
      'Allies to map network from',
      'Job changes tracking',
      'Clients & Exclusions',
    ]);
  });
});

describe('activeProfileTab', () => {
  it('highlights Target Personas or Target Accounts by path', () => {
    expect(activeProfileTab('/profile/personas')).toBe('/profile/personas');
    expect(activeProfileTab('/profile/targeted-accounts')).toBe('/profile/targeted-accounts');
  });
});
