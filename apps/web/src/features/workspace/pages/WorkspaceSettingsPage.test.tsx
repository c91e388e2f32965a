import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type TAuditEntry, type TTrackedEvent, type TWorkspace, ZWorkspaceUpdate } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { type ApiCall, errorAnswer, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

const workspace: TWorkspace = {
  id: admin.workspaceId,
  name: 'Analytical Engines',
  domains: ['engines.example'],
  allowDomainJoin: false,
  selectedHubspotExclusionLists: [],
  activeCrmClientExclusionLists: [],
  timeZone: 'UTC',
};

describe('Workspace settings', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('edits the name, domains and join flag, and says so', async () => {
    const api = stubApi({
      'GET /workspace/query': Response.json(workspace),
      'PUT /workspace/command/update': ({ body }) => Response.json({ ...workspace, ...ZWorkspaceUpdate.parse(body) }),
    });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const name = await screen.findByLabelText('Company name');
    expect(name).toHaveProperty('value', 'Analytical Engines');
    fireEvent.change(name, { target: { value: 'Difference Engines' } });
    const domains = screen.getByLabelText('Domain(s)');
    fireEvent.change(domains, { target: { value: 'difference.example' } });
    fireEvent.keyDown(domains, { key: 'Enter' });
    fireEvent.click(screen.getByLabelText('Allow anyone with domain name to join Workspace'));
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Workspace updated!')).toBeDefined();
    expect(api.callsTo('PUT /workspace/command/update')[0]?.body).toEqual({
      name: 'Difference Engines',
      domains: ['engines.example', 'difference.example'],
      allowDomainJoin: true,
      timeZone: 'UTC',
    });
  });

  it('picks the time zone from a searchable list, starting from the current one, and saves it', async () => {
    const api = stubApi({
      'GET /workspace/query': Response.json({ ...workspace, timeZone: 'Europe/London' }),
      'PUT /workspace/command/update': ({ body }) => Response.json({ ...workspace, ...ZWorkspaceUpdate.parse(body) }),
    });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveProperty('value', 'Europe/London');
    // Typed into, as a user does (Mantine ignores changes to an input without focus: autofill).
    zone.focus();
    fireEvent.click(zone);
    fireEvent.change(zone, { target: { value: 'tokyo' } });
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Asia/Tokyo']),
    );
    fireEvent.click(screen.getByRole('option', { name: 'Asia/Tokyo' }));
    expect(zone).toHaveProperty('value', 'Asia/Tokyo');
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Workspace updated!')).toBeDefined();
    expect(api.callsTo('PUT /workspace/command/update')[0]?.body).toMatchObject({ timeZone: 'Asia/Tokyo' });
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveProperty('value', 'Asia/Tokyo'),
    );
  });

  it("shows the server's refusal of a time zone", async () => {
    stubApi({
      'GET /workspace/query': Response.json(workspace),
      'PUT /workspace/command/update': errorAnswer(400, 'VALIDATION_FAILED', 'Unknown time zone'),
    });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveProperty('value', 'UTC');
    zone.focus();
    fireEvent.click(zone);
    fireEvent.change(zone, { target: { value: 'Paris' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Europe/Paris' }));
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Unknown time zone')).toBeDefined();
  });

  it('takes up to 10 domains', async () => {
    const ten = Array.from({ length: 10 }, (_, index) => `d${index}.example`);
    stubApi({ 'GET /workspace/query': Response.json({ ...workspace, domains: ten }) });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const domains = await screen.findByLabelText('Domain(s)');
    expect(domains).toHaveProperty('disabled', true);
    expect(domains.getAttribute('placeholder')).toBe('Max 10 tags');
  });

  it("shows the server's message when the update fails", async () => {
    stubApi({
      'GET /workspace/query': Response.json(workspace),
      'PUT /workspace/command/update': errorAnswer(409, 'DOMAIN_TAKEN', 'engines.example belongs to another workspace'),
    });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByText('engines.example belongs to another workspace')).toBeDefined();
  });

  it('is what an unknown admin path shows, and says when the workspace cannot be loaded', async () => {
    stubApi({ 'GET /workspace/query': errorAnswer(500, 'INTERNAL', 'boom'), ...trackingRoutes() });
    await renderApp('/admin/no-such-tab', { signedIn: true, me: admin });
    expect(await screen.findByRole('heading', { name: 'Workspace' })).toBeDefined();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Failed to fetch my workspace'));
    expect(screen.getByRole('tab', { name: 'Workspace' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows the website snippet, saves the sites and the rules, and lists the visits as they arrive', async () => {
    let events: TTrackedEvent[] = [];
    const api = stubApi({
      'GET /workspace/query': Response.json(workspace),
      ...trackingRoutes(() => events),
    });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const section = within(await screen.findByRole('region', { name: 'Website tracking' }));
    expect(await section.findByText(/data-key="wpk_test"/)).toBeDefined();
    expect(
      await section.findByText('No visit received yet. Paste the snippet on your site, then open one of its pages.'),
    ).toBeDefined();
    const sites = section.getByRole('textbox', { name: 'Allowed sites' });
    fireEvent.change(sites, { target: { value: 'https://www.engines.example' } });
    fireEvent.keyDown(sites, { key: 'Enter' });
    fireEvent.click(section.getByRole('button', { name: 'Save website tracking' }));
    expect(await screen.findByText('Website tracking saved.')).toBeDefined();
    expect(api.callsTo('PUT /workspace/command/set-tracking')[0]?.body).toEqual({
      origins: ['https://www.engines.example'],
      pricingPatterns: ['/pricing*'],
      manyPages: 5,
      manyPagesDays: 7,
    });
    events = [
      { id: crypto.randomUUID(), path: '/pricing', occurredAt: '2026-11-25T09:00:00.000Z', visitor: 'Ana Silva' },
    ];
    expect(await section.findByText('Ana Silva', {}, { timeout: 8000 })).toBeDefined();
  }, 15_000);

  it('lists the audit log newest first, says when it is empty, and when it cannot be loaded', async () => {
    const entries: TAuditEntry[] = [
      {
        id: '00000000-0000-4000-8000-000000000002',
        at: '2026-11-20T10:00:00.000Z',
        actorEmail: 'ada@engines.example',
        action: 'person.erased',
        subject: 'Eve Erased · eve@example.test',
        details: {},
      },
      {
        id: '00000000-0000-4000-8000-000000000001',
        at: '2026-11-19T10:00:00.000Z',
        actorEmail: 'ada@engines.example',
        action: 'source.connected',
        subject: 'Slack',
        details: {},
      },
    ];
    stubApi({
      'GET /workspace/query': Response.json(workspace),
      ...trackingRoutes(),
      'GET /workspace/query/audit-log': () => Response.json(auditPage(entries)),
    });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const section = within(await screen.findByRole('region', { name: 'Audit log' }));
    expect(await section.findByText('Erased a person')).toBeDefined();
    const rows = section.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Eve Erased · eve@example.test'),
      expect.stringContaining('Connected a sourceSlack'),
    ]);
    cleanup();

    stubApi({ 'GET /workspace/query': Response.json(workspace), ...trackingRoutes() });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const empty = within(await screen.findByRole('region', { name: 'Audit log' }));
    expect(await empty.findByText('Nothing recorded yet.')).toBeDefined();
    cleanup();

    stubApi({
      'GET /workspace/query': Response.json(workspace),
      ...trackingRoutes(),
      'GET /workspace/query/audit-log': errorAnswer(500, 'INTERNAL', 'boom'),
    });
    await renderApp('/admin/workspace', { signedIn: true, me: admin });
    const failed = within(await screen.findByRole('region', { name: 'Audit log' }));
    expect(await failed.findByRole('alert')).toBeDefined();
  });
});

function trackingRoutes(events: () => TTrackedEvent[] = () => []) {
  const settings = {
    key: 'wpk_test',
    snippet: '<script async src="http://localhost:3000/api/public/snippet.js" data-key="wpk_test"></script>',
    origins: [] as string[],
    pricingPatterns: ['/pricing*'],
    manyPages: 5,
    manyPagesDays: 7,
  };
  return {
    'GET /workspace/query/tracking': () => Response.json(settings),
    'PUT /workspace/command/set-tracking': (call: ApiCall) => Response.json({ ...settings, ...(call.body as object) }),
    'GET /workspace/query/tracked-events': () => Response.json(events()),
    // The audit log below the tracking section: empty unless a test says otherwise.
    'GET /workspace/query/audit-log': () => Response.json(auditPage([])),
  };
}

function auditPage(rows: TAuditEntry[], page = 1) {
  return { rows, pagination: { page, pageSize: 20, totalCount: rows.length, totalPages: 1 } };
}
