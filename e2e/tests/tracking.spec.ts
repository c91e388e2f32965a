import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { seededUser, sentMailUrl, signInAndConnectGoogle } from './fixtures.ts';

/** The team's own website, on this machine: a home page and a pricing page, each with the snippet. */
async function startSite(snippet: () => string) {
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title>${snippet()}</head><body><h1>${title}</h1>${body}</body></html>`;
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    response.writeHead(path === '/' || path === '/pricing' ? 200 : 404, { 'content-type': 'text/html' });
    response.end(
      path === '/pricing'
        ? page('Pricing', '<p>Teams: 49 a seat.</p>')
        : page('Analytical Engines', '<a href="/pricing">See our pricing</a>'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a prospect follows the link of an intro e-mail to the team site, visits its pricing page, and the network shows it', async ({
  page,
}) => {
  test.setTimeout(300_000);
  let tag = '';
  const site = await startSite(() => tag);
  const email = await seededUser();
  await signInAndConnectGoogle(page, email);

  // The admin installs the snippet: its tag, and the site allowed to send.
  await page.goto('/admin/workspace');
  const tracking = page.getByRole('region', { name: 'Website tracking' });
  const snippet = tracking.getByText(/<script async src=/);
  await expect(snippet).toBeVisible();
  tag = (await snippet.textContent()) ?? '';
  expect(tag).toContain(`${baseURL}/api/public/snippet.js`);
  const sites = tracking.getByRole('textbox', { name: 'Allowed sites' });
  await sites.fill(site.origin);
  await sites.press('Enter');
  await tracking.getByRole('button', { name: 'Save website tracking' }).click();
  await expect(page.getByText('Website tracking saved.')).toBeVisible();

  // An intro request from the network page: its forward note links to the site, naming the prospect.
  await page.goto('/network');
  const ask = page
    .getByRole('table')
    .first()
    .getByRole('button', { name: /^Ask [^,]+ for an intro to / })
    .first();
  const [, , prospect = ''] =
    /^Ask (.+) for an intro to (.+)$/.exec((await ask.getAttribute('aria-label')) ?? '') ?? [];
  await ask.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send intro request' }).click();
  await expect(page.getByText('Warm intro sent!')).toBeVisible();
  let link = '';
  await expect
    .poll(
      async () => {
        const sent = (await (await page.request.get(sentMailUrl())).json()) as {
          messages: { subject: string; text: string }[];
        };
        const mail = sent.messages.find((message) => message.subject.startsWith(`Intro to ${prospect}`));
        link = new RegExp(`${site.origin.replaceAll('.', '\\.')}/\\?wp_t=[^\\s]+`).exec(mail?.text ?? '')?.[0] ?? '';
        return link;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');

  // The prospect, in their own browser, follows the link and opens the pricing page.
  const visitor = await page.context().browser()?.newContext();
  if (!visitor) throw new Error('no browser');
  const visit = await visitor.newPage();
  await visit.goto(link);
  await expect(visit.getByRole('heading', { name: 'Analytical Engines' })).toBeVisible();
  // The snippet takes its token out of the address bar.
  await expect.poll(() => visit.url()).toBe(`${site.origin}/`);
  await visit.getByRole('link', { name: 'See our pricing' }).click();
  await expect(visit.getByRole('heading', { name: 'Pricing' })).toBeVisible();
  await visitor.close();

  // The admin sees the visits arrive, named.
  await page.goto('/admin/workspace');
  const live = page.getByRole('table', { name: 'Last visits received' });
  await expect(live.getByRole('row', { name: new RegExp(`/pricing.*${prospect}`) })).toBeVisible({ timeout: 30_000 });

  // Within a minute, the network shows the prospect's pricing-page visit: filtered on the signal and
  // on their name, their row is there.
  const pick = async (filter: string, option: string | RegExp, search?: string) => {
    await page.getByRole('textbox', { name: filter }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'All', exact: true }).click();
    if (search) await page.getByRole('textbox', { name: filter }).fill(search);
    await page.getByRole('listbox').getByRole('option', { name: option }).first().click();
    await page.keyboard.press('Escape');
  };
  await expect(async () => {
    await page.goto('/network');
    await pick('Names', new RegExp(`^${prospect}`), prospect);
    await pick('Signals', /^Visited pricing page/);
    await expect(
      page
        .getByRole('table')
        .first()
        .getByRole('row', { name: new RegExp(prospect) }),
    ).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 150_000 });
  await site.close();
});
