import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TCountry, TMe, TOptionPage, TTargetingScheme } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { type ApiCall, errorAnswer, type FakeRoute, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

const countries: TCountry[] = [
  { name: 'France', flag: '🇫🇷', countryCode: 'FR' },
  { name: 'Germany', flag: '🇩🇪', countryCode: 'DE' },
  { name: 'Italy', flag: '🇮🇹', countryCode: 'IT' },
  { name: 'Spain', flag: '🇪🇸', countryCode: 'ES' },
  { name: 'Ukraine', flag: '🇺🇦', countryCode: 'UA' },
  { name: 'United Kingdom', flag: '🇬🇧', countryCode: 'GB' },
];

const onboardingAdmin: TMe = { ...admin, hasCompletedOnboarding: false, onboardingStep: 'EXTERNALS_DONE' };

const technologies = ['React', 'Rails', 'Redis'].map((name) => ({ name, value: name.toLowerCase() }));
/** The server's pages: page N holds the first N options of the matches (the real ones hold N * 100). */
function technologyPage({ search }: ApiCall): Response {
  const needle = (search.get('searchTerm') ?? '').toLowerCase();
  const matches = technologies.filter((option) => option.name.toLowerCase().includes(needle));
  const size = Number(search.get('page'));
  const page: TOptionPage = { options: matches.slice(0, size), hasMore: matches.length > size, total: matches.length };
  return Response.json(page);
}

/** The search field of a multi-select (its list of options bears the same name). */
function fieldOf(label: string): HTMLElement {
  const field = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT');
  if (!field) throw new Error(`No field labelled ${label}`);
  return field;
}

function pillsOf(label: string): string[] {
  const input = fieldOf(label);
  const group = input.closest('.mantine-PillsInput-root');
  if (!(group instanceof HTMLElement)) throw new Error(`No pills for ${label}`);
  return within(group)
    .queryAllByRole('button', { name: /^Remove / })
    .map((button) => button.getAttribute('aria-label')?.replace('Remove ', '') ?? '');
}

function tick(label: string) {
  fireEvent.click(screen.getByRole('checkbox', { name: label }));
}

function stub(extra: Record<string, FakeRoute> = {}) {
  return stubApi({
    'GET /public/countries': Response.json(countries),
    'GET /users/query/technologies-list': technologyPage,
    'GET /users/query/specific-industries-options': Response.json({ options: [], hasMore: false, total: 0 }),
    ...extra,
  });
}

describe('TargetingSchemeForm on onboarding', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('pre-selects the onboarding countries in order and enables Continue once the required choices are made', async () => {
    stub();
    await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: onboardingAdmin });
    expect(await screen.findByRole('heading', { name: 'Alright, no specific accounts' })).toBeDefined();
    await screen.findByRole('button', { name: 'Remove France' });
    expect(pillsOf('Countries')).toEqual(['France', 'United Kingdom', 'Germany', 'Spain', 'Ukraine']);
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('45');
    const proceed = screen.getByRole('button', { name: 'Continue' });
    expect(proceed).toHaveProperty('disabled', true);
    tick('11 - 50');
    tick('BtoB');
    expect(proceed).toHaveProperty('disabled', true);
    // The onboarding list of departments.
    expect(screen.queryByRole('checkbox', { name: 'Operation' })).toBeNull();
    tick('Operations');
    expect(proceed).toHaveProperty('disabled', false);
    for (const country of ['France', 'United Kingdom', 'Germany', 'Spain', 'Ukraine']) {
      fireEvent.click(screen.getByRole('button', { name: `Remove ${country}` }));
    }
    expect(proceed).toHaveProperty('disabled', true);
  });

  it('adds custom job titles with Enter or Add, trimmed and once', async () => {
    stub();
    await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: onboardingAdmin });
    const title = await screen.findByLabelText('Custom job titles');
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toHaveProperty('disabled', true);
    fireEvent.change(title, { target: { value: '  Head of Sales ' } });
    fireEvent.keyDown(title, { key: 'Enter' });
    fireEvent.change(title, { target: { value: 'head of sales' } });
    fireEvent.click(add);
    fireEvent.change(title, { target: { value: 'CRO' } });
    fireEvent.click(add);
    expect(screen.getByRole('button', { name: 'Remove Head of Sales' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Remove CRO' })).toBeDefined();
    expect(screen.queryAllByRole('button', { name: /^Remove head of sales$/i })).toHaveLength(1);
    expect(title).toHaveProperty('value', '');
  });

  it('loads technologies page by page, the pages adding up, and searches after a pause', async () => {
    const api = stub();
    await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: onboardingAdmin });
    await screen.findByRole('button', { name: 'Remove France' });
    const input = fieldOf('Technologies');
    expect(api.callsTo('GET /users/query/technologies-list')).toHaveLength(0);
    fireEvent.focus(input);
    const list = await screen.findByRole('listbox', { name: 'Technologies' });
    await within(list).findByRole('option', { name: 'React' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['React', 'Load More']);
    fireEvent.click(within(list).getByRole('option', { name: 'Load More' }));
    await within(list).findByRole('option', { name: 'Rails' });
    fireEvent.click(within(list).getByRole('option', { name: 'Load More' }));
    await within(list).findByRole('option', { name: 'Redis' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['React', 'Rails', 'Redis']);
    expect(api.callsTo('GET /users/query/technologies-list').map((call) => call.search.get('page'))).toEqual([
      '1',
      '2',
      '3',
    ]);
    fireEvent.click(within(list).getByRole('option', { name: 'Rails' }));
    expect(pillsOf('Technologies')).toEqual(['Rails']);
    fireEvent.change(input, { target: { value: 'red' } });
    await waitFor(() =>
      expect(api.callsTo('GET /users/query/technologies-list').at(-1)?.search.get('searchTerm')).toBe('red'),
    );
    await within(list).findByRole('option', { name: 'Redis' });
    expect(within(list).queryByRole('option', { name: 'React' })).toBeNull();
  });

  it('saves, says so, records the accounts step and sends an admin to invite teammates', async () => {
    const api = stub({
      'POST /users/command/set-targeted-accounts-preferences': ({ body }) => Response.json(body),
      'GET /users/query/me': Response.json({ ...onboardingAdmin, isTargetedAccountsSet: true }),
      'POST /users/command/advance-onboarding': Response.json({
        ...onboardingAdmin,
        isTargetedAccountsSet: true,
        onboardingStep: 'ACCOUNTS_IMPORT_DONE',
      }),
    });
    const { router } = await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: onboardingAdmin });
    await screen.findByRole('button', { name: 'Remove France' });
    tick('1 - 10');
    tick('BtoC');
    tick('Sales');
    tick('Retail');
    tick('Manager');
    const title = screen.getByLabelText('Custom job titles');
    fireEvent.change(title, { target: { value: 'CRO' } });
    fireEvent.keyDown(title, { key: 'Enter' });
    const competitors = screen.getByLabelText('Competitor domains to exclude');
    fireEvent.change(competitors, { target: { value: 'rival.example' } });
    fireEvent.keyDown(competitors, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Targeted Accounts updated!')).toBeDefined();
    expect(await screen.findByRole('heading', { name: 'Invite your teammates' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/invite-teammates');
    const saved: TTargetingScheme = {
      countries: ['FR', 'GB', 'DE', 'ES', 'UA'],
      companySize: ['1 - 10'],
      companyType: ['BtoC'],
      jobDepartments: ['Sales'],
      industries: ['Retail'],
      seniorities: ['Manager'],
      customJobTitles: ['CRO'],
      selectedCustomJobTitles: ['CRO'],
      competitorDomainsToExclude: ['rival.example'],
      technologies: [],
      specificIndustries: [],
    };
    expect(api.callsTo('POST /users/command/set-targeted-accounts-preferences')[0]?.body).toEqual(saved);
    expect(api.callsTo('POST /users/command/advance-onboarding')[0]?.body).toEqual({
      step: 'ACCOUNTS_IMPORT_DONE',
    });
  });

  it('says when the countries cannot be loaded, and loads them again on request', async () => {
    let fail = true;
    stub({
      'GET /public/countries': () =>
        fail ? errorAnswer(500, 'INTERNAL', 'Countries unavailable') : Response.json(countries),
    });
    await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: onboardingAdmin });
    expect((await screen.findByRole('alert')).textContent).toContain('Countries unavailable');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Remove France' })).toBeDefined();
  });
});

describe("TargetingSchemeForm on an invitee's onboarding", { timeout: APP_TEST_TIMEOUT_MS }, () => {
  const inviteId = '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
  const invitee: TMe = { ...onboardingAdmin, role: 'member' };
  const adminScheme: TTargetingScheme = {
    countries: ['IT', 'ES'],
    companySize: ['51 - 200'],
    companyType: ['BtoB'],
    jobDepartments: ['Finance'],
    industries: ['Retail'],
    seniorities: ['Junior'],
    customJobTitles: ['CRO'],
    selectedCustomJobTitles: ['CRO'],
    competitorDomainsToExclude: ['rival.example'],
    technologies: [{ name: 'React', value: 'react' }],
    specificIndustries: ['Fintech'],
  };

  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
    vi.unstubAllGlobals();
  });

  it("starts from the inviting admin's scheme, then forgets the stored invitation", async () => {
    window.localStorage.setItem('inviteId', inviteId);
    const api = stub({ 'GET /users/query/admin-targeting-schemes': Response.json(adminScheme) });
    await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: invitee });
    await screen.findByRole('button', { name: 'Remove Italy' });
    expect(api.callsTo('GET /users/query/admin-targeting-schemes')[0]?.search.get('inviteId')).toBe(inviteId);
    expect(pillsOf('Countries')).toEqual(['Italy', 'Spain']);
    expect(screen.getByRole('checkbox', { name: '51 - 200' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'BtoB' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'Finance' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'Retail' })).toHaveProperty('checked', true);
    expect(pillsOf('Technologies')).toEqual(['React']);
    expect(pillsOf('Specific industries')).toEqual(['Fintech']);
    // The rest is the invitee's own.
    expect(screen.getByRole('checkbox', { name: 'Junior' })).toHaveProperty('checked', false);
    expect(screen.queryByRole('button', { name: 'Remove CRO' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove rival.example' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', false);
    await waitFor(() => expect(window.localStorage.getItem('inviteId')).toBeNull());
  });

  it('keeps the usual defaults when the admin saved no scheme', async () => {
    window.localStorage.setItem('inviteId', inviteId);
    stub({ 'GET /users/query/admin-targeting-schemes': Response.json(null) });
    await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: invitee });
    await screen.findByRole('button', { name: 'Remove France' });
    expect(pillsOf('Countries')).toEqual(['France', 'United Kingdom', 'Germany', 'Spain', 'Ukraine']);
    await waitFor(() => expect(window.localStorage.getItem('inviteId')).toBeNull());
  });

  it('asks nothing without a stored invitation', async () => {
    const api = stub();
    await renderApp('/sign-up/targeting-scheme', { signedIn: true, me: invitee });
    await screen.findByRole('button', { name: 'Remove France' });
    expect(api.callsTo('GET /users/query/admin-targeting-schemes')).toHaveLength(0);
  });
});

describe('TargetingSchemeForm on the Target Accounts tab', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  const saved: TTargetingScheme = {
    countries: ['IT'],
    companySize: ['10000+'],
    companyType: ['BtoB'],
    jobDepartments: ['Operation'],
    industries: ['Luxury'],
    seniorities: ['Junior'],
    customJobTitles: [],
    selectedCustomJobTitles: [],
    competitorDomainsToExclude: [],
    technologies: [{ name: 'React', value: 'react' }],
    specificIndustries: ['Fintech'],
  };

  it('starts from the saved scheme and saves it back with Save', async () => {
    const api = stub({
      'GET /users/query/get-targeting-schemes': Response.json(saved),
      'POST /users/command/set-targeted-accounts-preferences': ({ body }) => Response.json(body),
      'GET /users/query/me': Response.json(admin),
    });
    await renderApp('/profile/targeted-accounts', { signedIn: true, me: admin });
    await screen.findByRole('button', { name: 'Remove Italy' });
    expect(pillsOf('Countries')).toEqual(['Italy']);
    expect(pillsOf('Technologies')).toEqual(['React']);
    expect(pillsOf('Specific industries')).toEqual(['Fintech']);
    expect(screen.getByRole('checkbox', { name: '10000+' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'Operation' })).toHaveProperty('checked', true);
    // A chosen hidden industry stays in view; the others wait behind 'Show more'.
    expect(screen.getByRole('checkbox', { name: 'Luxury' })).toHaveProperty('checked', true);
    expect(screen.queryByRole('checkbox', { name: 'Banking' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getByRole('checkbox', { name: 'Banking' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Targeted Accounts updated!')).toBeDefined();
    expect(api.callsTo('POST /users/command/set-targeted-accounts-preferences')[0]?.body).toEqual(saved);
  });

  it('pre-selects the default countries when nothing is saved yet', async () => {
    stub({ 'GET /users/query/get-targeting-schemes': Response.json(null) });
    await renderApp('/profile/targeted-accounts', { signedIn: true, me: admin });
    await screen.findByRole('button', { name: 'Remove France' });
    expect(pillsOf('Countries')).toEqual(['France', 'Ukraine', 'Germany', 'United Kingdom', 'Spain']);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });
});
