import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TWorkflow, TWorkflowRuns } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, member, renderApp } from '../../../testing/renderApp.tsx';
import { cardWidth } from '../components/WorkflowDiagram.tsx';
import { ACTIVATION_TOOLTIP } from './WorkflowsPage.tsx';

const jobChange: TWorkflow = {
  id: '0d9c3f4e-5a4b-4c3d-8e2f-1a2b3c4d5e6f',
  name: 'Past client changed jobs',
  description: 'A client we track moved to another company.',
  active: true,
  signals: ['PAST_CLIENT'],
  filters: {
    contactLevel: [[{ name: 'proximity', values: ['Medium', 'High'] }]],
    companyLevel: { filters: [{ name: 'idealCustomerProfile', values: ['true'] }], targetedAccounts: true },
  },
  engagements: ['PUSH_TO_SLACK', 'PUSH_TO_CRM', 'PUSH_TO_HUBSPOT'],
};
const empty: TWorkflow = {
  id: '1e0d4f5a-6b5c-4d4e-9f3a-2b3c4d5e6f70',
  name: 'Draft',
  description: 'Nothing yet.',
  active: false,
  signals: [],
  filters: { contactLevel: [], companyLevel: { filters: [], targetedAccounts: false } },
  engagements: [],
};
const runs: TWorkflowRuns = {
  runs: [
    {
      id: '2f1e5a6b-7c6d-4e5f-8a4b-3c4d5e6f7081',
      firedAt: '2026-11-23T09:00:00.000Z',
      signalType: 'PAST_CLIENT',
      prospect: { id: '3a2f6b7c-8d7e-4f6a-9b5c-4d5e6f708192', name: 'Grace Hopper', companyName: 'Globex' },
      pushes: [
        { engagement: 'PUSH_TO_SLACK', status: 'delivered', detail: null },
        { engagement: 'PUSH_TO_CRM', status: 'skipped', detail: 'No CRM is connected' },
      ],
    },
  ],
};

describe('Workflows', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(cleanup);

  it('lists the agents with a toggle only the provider can use, and opens one from Edit', async () => {
    stubApi({ 'GET /workflows/query': Response.json([jobChange, empty]) });
    const { router } = await renderApp('/network', { signedIn: true, me: member });
    fireEvent.click(await screen.findByRole('link', { name: 'Workflows' }));
    expect(await screen.findByRole('heading', { name: 'Agent running plays' })).toBeDefined();
    expect(screen.getByText('Create your own workflow, start with a template or from scratch.')).toBeDefined();
    const card = await screen.findByRole('region', { name: 'Past client changed jobs' });
    const toggle = within(card).getByRole('switch', { name: 'Past client changed jobs active' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect((toggle as HTMLInputElement).disabled).toBe(true);
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(card).getByText(ACTIVATION_TOOLTIP)).toBeDefined();
    fireEvent.click(within(card).getByRole('button', { name: 'Edit Past client changed jobs' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/workflows/${jobChange.id}`));
  });

  it("says 'Error: {message}' when the workflows cannot be read", async () => {
    stubApi({ 'GET /workflows/query': errorAnswer(500, 'INTERNAL', 'boom') });
    await renderApp('/workflows', { signedIn: true, me: member });
    expect(await screen.findByText('Error: Failed to fetch workflows')).toBeDefined();
  });

  it('draws a workflow as signals, filter and actions, and lists its last runs', async () => {
    stubApi({
      'GET /workflows/query': Response.json([jobChange, empty]),
      [`GET /workflows/query/${jobChange.id}/runs`]: Response.json(runs),
    });
    await renderApp(`/workflows/${jobChange.id}`, { signedIn: true, me: member });
    expect(await screen.findByRole('link', { name: 'All my Agents' })).toBeDefined();
    const diagram = screen.getByRole('figure', { name: 'How Past client changed jobs works' });
    expect(within(diagram).getByText('Past client')).toBeDefined();
    expect(within(diagram).getByText('Contact levels')).toBeDefined();
    expect(within(diagram).getByText('Proximities: Medium, High')).toBeDefined();
    expect(within(diagram).getByText('Ideal customer profile and Targeted accounts')).toBeDefined();
    expect(within(diagram).getByText('Push notification on Slack')).toBeDefined();
    // PUSH_TO_CRM and PUSH_TO_HUBSPOT are one line.
    expect(within(diagram).getAllByText('Push notification to CRM')).toHaveLength(1);
    expect(within(diagram).getByText('Add an Action')).toBeDefined();
    const table = await screen.findByRole('table', { name: 'Last runs' });
    expect(within(table).getByRole('link', { name: 'Grace Hopper' })).toBeDefined();
    expect(within(table).getByText('to CRM: skipped (No CRM is connected)')).toBeDefined();
  });

  it('says what an empty workflow lacks, and when a workflow does not exist', async () => {
    stubApi({
      'GET /workflows/query': Response.json([empty]),
      [`GET /workflows/query/${empty.id}/runs`]: Response.json({ runs: [] }),
    });
    await renderApp(`/workflows/${empty.id}`, { signedIn: true, me: member });
    expect(await screen.findByText('No signals configured')).toBeDefined();
    expect(screen.getByText('No filters configured')).toBeDefined();
    expect(screen.getByText('No actions configured')).toBeDefined();
    expect(await screen.findByText(/This agent has not fired yet/)).toBeDefined();
    cleanup();
    await renderApp('/workflows/4b3a7c8d-9e8f-4a7b-8c6d-5e6f708192a3', { signedIn: true, me: member });
    expect(await screen.findByText('Workflow not found')).toBeDefined();
  });

  it('sizes the cards by the number of columns', () => {
    expect([3, 4].map(cardWidth)).toEqual([320, 280]);
  });
});
