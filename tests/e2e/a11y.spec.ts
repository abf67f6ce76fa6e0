// axe-core on every screen at phone (390×844) and desktop size: zero violations.
// A few screens per test, so that no test walks the whole studio inside one timeout (on a loaded CI
// machine one walk of every screen took over two minutes). The tests of one size run in order on
// one signed-in page: a sign-in per test downloaded the organization twelve times and made this the
// slowest spec of the run (7.4 min).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { logIn } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// Phone and desktop: the two layouts of every screen. The tablet width (761–1000 px) changes only
// how the navigation bar wraps (tablet-layout.spec.ts); its axe pass found nothing the other two
// did not and cost CI about 2.5 minutes of its 40.
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

async function noViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `${screen}`).toEqual([]);
}

/** Opens the demo organization's home from the organization list; its id. */
async function home(page: Page): Promise<string> {
  await page.goto('/');
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  return new URL(page.url()).pathname.split('/')[1]!;
}

/** Book Club's program screen; its URL. */
async function bookClub(page: Page, org: string): Promise<string> {
  await page.goto(`/${org}/programs`);
  await expect(page.getByRole('heading', { level: 1, name: 'Programs' })).toBeVisible();
  await page.getByRole('link', { name: /Book Club/ }).click();
  await expect(page.getByTestId('clip-list')).toBeVisible();
  return page.url();
}

for (const [size, viewport] of Object.entries(SIZES)) {
  test.describe(`at ${size} size`, () => {
    test.describe.configure({ mode: 'serial' });
    let page: Page;
    test.beforeAll(async ({ browser }: { browser: Browser }) => {
      // A context of its own (axe needs one made with newContext), against the project's server.
      page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL!, viewport })).newPage();
    });
    test.afterAll(async () => {
      await page.context().close();
    });

    test('the login screen, the organizations, the organization home and the programs have zero axe violations', async () => {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
      await noViolations(page, 'login');
      await logIn(page);
      await noViolations(page, 'organizations');
      await page.getByRole('list').getByRole('link').first().click();
      await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
      await noViolations(page, 'organization home');
      const org = new URL(page.url()).pathname.split('/')[1];
      await page.goto(`/${org}/programs`);
      await expect(page.getByRole('heading', { level: 1, name: 'Programs' })).toBeVisible();
      await noViolations(page, 'programs');
    });

    test('a program’s clips, a clip, its playlists and a playlist have zero axe violations', async () => {
      const programUrl = await bookClub(page, await home(page));
      await noViolations(page, 'program: clips');
      await page.getByTestId('clip-list').getByRole('link').nth(5).click();
      await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
      await noViolations(page, 'clip');
      await page.goto(`${programUrl}?tab=playlists`);
      await expect(page.getByRole('tabpanel').getByRole('link').filter({ hasNotText: 'New playlist' }).first()).toBeVisible();
      await noViolations(page, 'program: playlists');
      await page.getByRole('tabpanel').getByRole('link').filter({ hasNotText: 'New playlist' }).first().click();
      await expect(page.getByRole('region', { name: 'Clips in this playlist' })).toBeVisible();
      await noViolations(page, 'playlist');
    });

    test('a program’s recordings, a recording and the sync details have zero axe violations', async () => {
      const org = await home(page);
      const programUrl = await bookClub(page, org);
      await page.goto(`${programUrl}?tab=recordings`);
      await expect(page.getByRole('tabpanel').getByRole('link').first()).toBeVisible();
      await noViolations(page, 'program: recordings');
      await page.getByRole('tabpanel').getByRole('link').first().click();
      await expect(page.getByRole('region', { name: 'Annotations' })).toBeVisible();
      await noViolations(page, 'recording');
      await page.goto(`/${org}/sync`);
      await expect(page.getByRole('heading', { level: 1, name: 'Sync details' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Storage on this device' })).toContainText(/ of .* used/);
      await expect(page.getByRole('region', { name: 'Storage on this device' })).toContainText(/No unsynced edits|Oldest unsynced edit/);
      await noViolations(page, 'sync details');
    });

    test('account settings, the profile, a not-found page, the contact and log-out dialogs and an organization not yet offline have zero axe violations', async () => {
      const org = await home(page);
      await page.goto(`/account?error=${encodeURIComponent('The activation link has expired.')}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
      await expect(page.getByRole('form', { name: 'Interface language' })).toBeVisible();
      await noViolations(page, 'account settings');
      await page.goto('/account/profile');
      await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
      await noViolations(page, 'account profile');

      await page.goto(`/${org}/programs/0b7d1d8e-2f4f-4c55-9a3e-5d2f3a1c0e99`);
      await expect(page.getByRole('heading', { level: 1, name: 'Program not found' })).toBeVisible();
      await noViolations(page, 'not found');

      await page.goto(`/${org}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
      await page.getByRole('button', { name: 'Help' }).click();
      await page.getByRole('menuitem', { name: 'Contact support' }).click();
      await expect(page.getByRole('dialog', { name: 'Contact support' })).toBeVisible();
      await noViolations(page, 'contact dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: 'Contact support' })).toHaveCount(0);

      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Log out' })).toBeVisible();
      await noViolations(page, 'log-out dialog');
      await page.getByRole('alertdialog', { name: 'Log out' }).getByRole('button', { name: 'Cancel' }).click();

      // The other organization has never been downloaded to this browser.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.context().setOffline(true);
      await page.goto('/');
      await page.getByRole('link', { name: /Castaway Podcasts/ }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Not yet available offline' })).toBeVisible();
      await noViolations(page, 'not yet available offline');
      await page.context().setOffline(false);
    });
  });
}
