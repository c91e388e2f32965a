import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, expect, type Locator, type Page, test } from '@playwright/test';
import { PATHS } from '../../apps/web/src/lib/paths.ts';
import {
  allowGoogleConsent,
  invitationLink,
  newDomain,
  seededUser,
  signInAndConnectGoogle,
  signInThroughProvider,
} from './fixtures.ts';

// Every route of the spec's route table (section 2) through axe-core, as an admin on a seeded workspace,
// and the four big tables at the widths people use: every spec column readable from 1280 px up.

type Finding = { route: string; rule: string; impact: string; nodes: string[] };

/** What a screen reader or keyboard user cannot get past: axe's serious and critical findings. */
const BLOCKING = ['serious', 'critical'];

/**
 * axe's default rules, plus label-content-name-mismatch: still marked experimental in axe-core, so off
 * by default, yet it is the WCAG 2.5.3 failure (a button whose name does not contain its visible text)
 * that speech-input users meet first.
 */
async function scan(page: Page, route: string): Promise<Finding[]> {
  const result = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations
    .filter((violation) => BLOCKING.includes(violation.impact ?? ''))
    .map((violation) => ({
      route,
      rule: violation.id,
      impact: violation.impact ?? '',
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }));
}

/** The page has its data: nothing marked busy and no skeleton left (bounded: some pages poll a sync). */
async function settle(page: Page) {
  await page.waitForLoadState('domcontentloaded');
  await expect(page.locator('main, [role="main"]').first())
    .toBeVisible({ timeout: 15_000 })
    .catch(() => undefined);
  await expect(page.locator('[aria-busy="true"]'))
    .toHaveCount(0, { timeout: 20_000 })
    .catch(() => undefined);
  await expect(page.locator('.mantine-Skeleton-root'))
    .toHaveCount(0, { timeout: 20_000 })
    .catch(() => undefined);
}

async function visitAndScan(page: Page, route: string, findings: Finding[]) {
  await page.goto(route);
  await settle(page);
  findings.push(...(await scan(page, route)));
}

function report(findings: Finding[], routes: string[]) {
  const nodes = findings.reduce((sum, finding) => sum + finding.nodes.length, 0);
  console.log(
    `axe: ${routes.length} routes, ${findings.length} serious or critical rule violations, ${nodes} elements`,
  );
  for (const finding of findings) {
    console.log(`  ${finding.route} ${finding.rule} (${finding.impact}) x${finding.nodes.length}`);
    for (const node of finding.nodes.slice(0, 3)) console.log(`    ${node}`);
  }
  return findings.map((finding) => `${finding.route} ${finding.rule}: ${finding.nodes.join(' | ')}`);
}

const csvFile = (name: string, lines: string[]) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(`${lines.join('\r\n')}\r\n`),
});

/** The invitee's two pages, in a browser of their own (not signed in), from the e-mailed link. */
async function scanInviteePages(browser: Browser, link: string, findings: Finding[]) {
  const context = await browser.newContext();
  const invitee = await context.newPage();
  const inviteId = new URL(link).pathname.split('/').pop() ?? '';
  for (const route of [PATHS.signUp.registerInvite, PATHS.signUp.acceptInvite]) {
    const path = route.replace(':inviteId', inviteId);
    await invitee.goto(path);
    await expect(invitee.getByRole('button', { name: 'Connect with Google' })).toBeVisible();
    await settle(invitee);
    findings.push(...(await scan(invitee, path)));
  }
  await context.close();
}

test('axe finds nothing serious on the sign-up and onboarding routes, walked by a new admin', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const findings: Finding[] = [];
  const routes: string[] = [];
  const here = async (route: string) => {
    routes.push(route);
    await settle(page);
    findings.push(...(await scan(page, route)));
  };
  const domain = newDomain();

  await page.goto(PATHS.signUp.connect);
  await expect(page.getByRole('button', { name: 'Connect with Google' })).toBeVisible();
  await here(PATHS.signUp.connect);
  await page.getByRole('button', { name: 'Connect with Google' }).click();
  await signInThroughProvider(page, `ada@${domain}`, 'Ada Lovelace');
  await expect(page).toHaveURL(/\/sign-up\/create-details$/);
  await here(PATHS.signUp.createDetails);
  await page.getByLabel('Company name').fill('Analytical Engines');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/sign-up\/sync$/);
  await here(PATHS.signUp.sync);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  // Google connected: the demo page now shows its link instead of sending the user back to sync.
  await page.goto(PATHS.signUp.bookADemo);
  await expect(page.getByRole('link', { name: 'Book a demo' })).toBeVisible();
  await here(PATHS.signUp.bookADemo);

  await page.goto(PATHS.signUp.importAccounts);
  await expect(page.getByRole('button', { name: 'Upload CSV' })).toBeVisible();
  await here(PATHS.signUp.importAccounts);
  await page.goto(PATHS.signUp.targetingScheme);
  await expect(page.getByRole('heading', { name: 'Alright, no specific accounts' })).toBeVisible();
  await here(PATHS.signUp.targetingScheme);

  await page.goto(PATHS.signUp.importAccountsUpload);
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile('accounts.csv', [
        'Company name,Company domain',
        'Zeta Analytics,zeta-analytics.example',
        'Omega Labs,omega-labs.example',
      ]),
    );
  await here(PATHS.signUp.importAccountsUpload);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Accounts uploaded!')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);
  const teammate = `grace@${domain}`;
  await page.getByLabel('Email').fill(teammate);
  await page.getByRole('button', { name: 'Add users' }).click();
  await here(PATHS.signUp.inviteTeammates);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('User invited!')).toBeVisible();

  await page.goto(PATHS.signUp.importClients);
  await expect(page.getByRole('button', { name: 'Upload CSV' })).toBeVisible();
  await here(PATHS.signUp.importClients);
  await page.goto(PATHS.signUp.importClientsUpload);
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile('clients.csv', [
        'First name,Last name,Email,Company name,Company domain,Linkedin profile URL,Contact owner,Tag',
        'Katherine,Johnson,katherine@nasa.example,NASA,nasa.example,https://www.linkedin.com/in/katherine-johnson,,Client',
      ]),
    );
  await here(PATHS.signUp.importClientsUpload);

  const link = await invitationLink(page, teammate);
  routes.push(PATHS.signUp.registerInvite, PATHS.signUp.acceptInvite);
  await scanInviteePages(browser, link, findings);

  expect(report(findings, routes)).toEqual([]);
});

/** The tables of the fit check: where each is, and its last column in the spec (section 2). */
const TABLES = [
  { name: 'network', path: PATHS.network, table: 'Contacts', lastColumn: 'SIGNALS' },
  { name: 'actions', path: PATHS.recommendedActions, table: 'Recommended actions', lastColumn: 'ACTION' },
  { name: 'allies', path: PATHS.admin.networkAllies, table: 'Allies to map network from', lastColumn: 'Actions' },
  { name: 'accounts', path: PATHS.admin.accounts, table: 'Assigned Accounts', lastColumn: 'Last activity' },
] as const;
const WIDTHS = [1280, 1440, 1920] as const;
const NARROW = 1200;

/** How far a table runs past what its scrolling ancestors (or the page) show, in px. */
function overflowOf(grid: Locator) {
  return grid.evaluate((element) => {
    let hidden = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
      if (getComputedStyle(node).overflowX !== 'visible')
        hidden = Math.max(hidden, node.scrollWidth - node.clientWidth);
    }
    return hidden;
  });
}

test('axe finds nothing serious on the main routes of a seeded workspace, and every table fits from 1280 px', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  const email = await seededUser();
  await signInAndConnectGoogle(page, email);

  await page.goto(PATHS.workflows);
  await page
    .getByRole('button', { name: /^Edit / })
    .first()
    .click();
  await expect(page.getByRole('link', { name: 'All my Agents' })).toBeVisible();
  const workflowPath = new URL(page.url()).pathname;

  const routes = [
    PATHS.root,
    PATHS.actions,
    PATHS.recommendedActions,
    PATHS.pastActions,
    PATHS.pendingActions,
    PATHS.skippedActions,
    PATHS.network,
    PATHS.personas,
    PATHS.targetedAccounts,
    PATHS.workflows,
    workflowPath,
    `${PATHS.hubspotOauthCallback}?error=access_denied`,
    PATHS.admin.workspace,
    PATHS.admin.users,
    PATHS.admin.integrations,
    PATHS.admin.webhook,
    PATHS.admin.accounts,
    PATHS.admin.networkAllies,
    PATHS.admin.jobChangesTracking,
    PATHS.admin.crmClients,
  ];
  const findings: Finding[] = [];
  for (const route of routes) await visitAndScan(page, route, findings);
  // The proximity's explanation, open: a dialog of its own.
  await page.goto(PATHS.network);
  await page
    .getByRole('table', { name: 'Contacts' })
    .getByRole('button', { name: /, why\?/ })
    .first()
    .click();
  await expect(page.getByRole('dialog').getByText(/^Proximity (High|Medium|Low) \d+$/)).toBeVisible();
  await page.screenshot({ path: info.outputPath('network-why.png') });
  findings.push(...(await scan(page, `${PATHS.network} (why)`)));
  const problems = report(findings, [...routes, `${PATHS.network} (why)`]);

  const withScrollbars = await chromium.launch({
    ...info.project.use.launchOptions,
    ignoreDefaultArgs: ['--hide-scrollbars'],
  });
  const narrow = await withScrollbars.newPage({
    baseURL: info.project.use.baseURL,
    storageState: await page.context().storageState(),
    viewport: { width: NARROW, height: 800 },
  });
  for (const { name, path, table, lastColumn } of TABLES) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 900 });
      await page.goto(path);
      const grid = page.getByRole('table', { name: table });
      await expect(grid.getByRole('row').nth(1).getByRole('cell').first()).toBeVisible({ timeout: 60_000 });
      await settle(page);
      await page.screenshot({ path: info.outputPath(`${name}-${width}.png`) });
      const header = grid.getByRole('columnheader', { name: lastColumn, exact: true });
      const box = await header.boundingBox();
      expect.soft(box, `${name}: the ${lastColumn} header`).not.toBeNull();
      // Inside the window, and not hidden behind a scroll: the table is no wider than its container.
      expect
        .soft((box?.x ?? 0) + (box?.width ?? 0), `${name} at ${width}: ${lastColumn} inside`)
        .toBeLessThanOrEqual(width);
      expect.soft(await overflowOf(grid), `${name} at ${width}: no horizontal scroll`).toBeLessThanOrEqual(0);
    }
    // Narrower than 1280 px the table scrolls sideways, and its scrollbar shows without a hover: looked at
    // in a browser that draws scrollbars, as a person's does (headless, Playwright hides them).
    await narrow.goto(path);
    const grid = narrow.getByRole('table', { name: table });
    await expect(grid.getByRole('row').nth(1).getByRole('cell').first()).toBeVisible({ timeout: 60_000 });
    await settle(narrow);
    expect.soft(await overflowOf(grid), `${name} at ${NARROW}: scrolls sideways`).toBeGreaterThan(0);
    // The scrollbar, drawn below the rows: it takes height of its own from the scroll container.
    const scrollbarHeight = await grid.evaluate((table) => {
      let container = table.parentElement;
      while (container && !['auto', 'scroll'].includes(getComputedStyle(container).overflowX)) {
        container = container.parentElement;
      }
      return container ? container.offsetHeight - container.clientHeight : 0;
    });
    expect.soft(scrollbarHeight, `${name} at ${NARROW}: a visible horizontal scrollbar`).toBeGreaterThan(0);
  }

  await withScrollbars.close();
  expect(problems).toEqual([]);
});
