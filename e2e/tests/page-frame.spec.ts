import { expect, type Page, test } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { seededUser, signInSeeded } from './fixtures.ts';

type Box = { x: number; y: number; width: number; height: number; color: string; background: string };

/** The sidebar, its brand, its links and the heading, as drawn: by the app or by the static frame. */
async function layoutOf(page: Page, from: 'app' | 'frame') {
  return page.evaluate((source) => {
    const root = source === 'app' ? document.body : document.getElementById('page-frame');
    const sidebar = source === 'app' ? root?.querySelector('nav') : root?.querySelector(':scope > div');
    const boxOf = (element: Element | null | undefined): Box | null => {
      if (!element) return null;
      const { x, y, width, height } = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return { x, y, width, height, color: style.color, background: style.backgroundColor };
    };
    const links = Array.from(sidebar?.querySelectorAll(source === 'app' ? 'a' : 'span') ?? []);
    return {
      sidebar: boxOf(sidebar),
      brand: boxOf(sidebar?.querySelector('p')),
      // The frame knows no role: the Admin link is the app's alone.
      links: links
        .filter((link) => link.textContent !== 'Admin')
        .map((link) => ({ label: link.textContent, box: boxOf(link) })),
      heading: boxOf(root?.querySelector('h1')),
    };
  }, from);
}

for (const viewport of [
  { width: 1280, height: 800 },
  // Lighthouse's phone, whose largest paint is the heading the frame draws.
  { width: 412, height: 823 },
])
  test(`the network page's frame, painted before its scripts run, is the page's own layout at ${viewport.width} px`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const email = await seededUser();
    await page.setViewportSize(viewport);
    await signInSeeded(page, email);
    await page.goto('/network');
    await expect(page.getByRole('heading', { name: 'Network', level: 1 })).toBeVisible();
    // Once the app shows the page, the frame is gone.
    await expect(page.locator('#page-frame')).toHaveCount(0);
    const app = await layoutOf(page, 'app');

    // Without scripts the page shows what it paints before they have run: the frame alone.
    const staticContext = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
    const staticPage = await staticContext.newPage();
    await staticPage.goto('/network');
    await expect(staticPage.locator('#page-frame h1')).toHaveText('Network');
    const frame = await layoutOf(staticPage, 'frame');
    await staticContext.close();

    expect(frame.links.map(({ label }) => label)).toEqual(app.links.map(({ label }) => label));
    const near = (value: number) => expect.closeTo(value, 0);
    const sameBox = (box: Box | null) =>
      box && { ...box, x: near(box.x), y: near(box.y), width: near(box.width), height: near(box.height) };
    expect(frame.sidebar).toEqual(sameBox(app.sidebar));
    expect(frame.brand).toEqual(sameBox(app.brand));
    expect(frame.links).toEqual(app.links.map(({ label, box }) => ({ label, box: sameBox(box) })));
    expect(frame.heading).toEqual(sameBox(app.heading));
  });

test('a visitor who has not signed in is not shown the network page’s frame', async ({ page }) => {
  await page.goto('/network');
  await expect(page.getByRole('button', { name: /Sign in|Connect with Google/ }).first()).toBeVisible();
  await expect(page.locator('#page-frame')).toHaveCount(0);
});
