// The dark theme (issue 36): a device that prefers dark gets it before the first paint, every main
// screen passes axe (WCAG AA contrast included) in it, and Light in account settings wins over the
// device's preference, on this device, from the first paint of the next load.
// One signed-in page in dark mode for the whole file, a few screens per test (as a11y.spec.ts). Its
// service worker is blocked: a request it answered from its cache would pass route() unseen.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { waveformInk } from '../audio/waveform-ink.ts';
import { logIn, openFirstClip } from './support.ts';

async function noViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, screen).toEqual([]);
}

/**
 * A load of the studio with the app's scripts blocked, in a tab of its own (a page whose module
 * loads were aborted once kept failing to load lazy chunks): what shows is index.html's own, before
 * any module could run.
 */
async function withoutAppScripts(check: (tab: Page) => Promise<void>, path = '/'): Promise<void> {
  const tab = await page.context().newPage();
  try {
    await tab.route('**/assets/*.js', (route) => route.abort());
    await tab.goto(path);
    await check(tab);
  } finally {
    await tab.close();
  }
}

/** The page's background colour, as the user sees it behind the content. */
function pageBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
}

const DARK_BG = 'rgb(15, 20, 25)';
const LIGHT_BG = 'rgb(245, 246, 248)';

test.describe.configure({ mode: 'serial' });
let page: Page;
test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL!, viewport: { width: 1280, height: 800 }, colorScheme: 'dark', serviceWorkers: 'block' })).newPage();
});
test.afterAll(async () => {
  await page.context().close();
});

test('a device that prefers dark gets the dark theme before the app runs: theme colour and background', async () => {
  await withoutAppScripts(async (tab) => {
    await expect(tab.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(tab.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#10262d');
    expect(await pageBackground(tab)).toBe(DARK_BG);
  });
});

test('the login screen, the organization home, a program and a clip have zero axe violations in the dark theme', async () => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await noViolations(page, 'login');
  await logIn(page);
  const { organizationId, programId } = await openFirstClip(page, 2);
  expect(await pageBackground(page)).toBe(DARK_BG);
  await noViolations(page, 'clip');
  // The waveform (a canvas, which axe does not read) is drawn in the dark theme's colour, not the
  // light theme's dark teal.
  const slider = page.getByRole('region', { name: 'Audio' }).getByRole('slider', { name: 'Playback position' });
  await expect.poll(async () => (await waveformInk(page, slider, [0x6f, 0xc3, 0xd3])).columnsWithInk, { timeout: 20_000 }).toBeGreaterThan(0);
  const dark = await waveformInk(page, slider, [0x6f, 0xc3, 0xd3]);
  expect(dark.columnsWithInk / dark.width).toBeGreaterThan(0.5);
  // In the light theme's teal, only stray pixels near it (a border, anti-aliasing).
  expect((await waveformInk(page, slider)).columnsWithInk).toBeLessThan(dark.columnsWithInk / 20);
  // The screenshot the issue asks for: look at it when the theme changes.
  await page.screenshot({ path: test.info().outputPath('clip-dark.png'), fullPage: true });
  await page.goto(`/${organizationId}/programs/${programId}`);
  await expect(page.getByTestId('clip-list')).toBeVisible();
  await noViolations(page, 'program');
  await page.goto(`/${organizationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await noViolations(page, 'organization home');
});

test('account settings pass axe in dark; Light there makes the page light despite the dark preference, from the first paint on', async () => {
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  const appearance = page.getByRole('group', { name: 'Theme' });
  await expect(appearance.getByRole('radio', { name: /^System/ })).toBeChecked();
  await noViolations(page, 'account settings (dark)');

  await appearance.getByRole('radio', { name: 'Light', exact: true }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await pageBackground(page)).toBe(LIGHT_BG);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0f4c5c');
  await noViolations(page, 'account settings (light)');

  // Next load, scripts blocked: index.html alone already paints it light.
  await withoutAppScripts(async (tab) => {
    await expect(tab.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await pageBackground(tab)).toBe(LIGHT_BG);
  }, '/account');

  // Back to System: dark again, as the device prefers.
  await page.reload();
  await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: /^System/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
