// The analytics-only demo user (section 6), whom the analytics journey also signs in as: a program without
// content access says so and offers nothing to create; the language choice (sections 1 and 4)
// saves InterfaceLanguage, reloads, and follows the user to another browser. The German test runs on
// a server of its own: the analytics journey signs in as the analyst on the run's server, in
// another worker, and reads the studio in English.
import { expect, test, type BrowserContext } from '@playwright/test';
import { HELP_MENU, logIn, menuItems } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

const ANALYST = 'analyst@example.com';

test('analyst: analytics access alone shows Organization programs, no Switch organization, no Admin, with Account settings', async ({ page }) => {
  await logIn(page, ANALYST);
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  const org = await menuItems(page, 'Organization');
  // Section 6: analytics access is one of the rights that show Organization programs; without
  // content access no reports, but search (programs only); one organization, no admin, support
  // or reseller.
  expect(org).toContain('Organization programs');
  expect(org).toContain('Organization analytics');
  expect(org).toContain('Organization search');
  for (const absent of ['Organization reports', 'Organization users', 'Organization settings', 'Switch organization', 'Admin', 'Billing & features', 'Enterprises']) {
    expect(org, absent).not.toContain(absent);
  }
  expect(await menuItems(page, 'Account')).toEqual(expect.arrayContaining(['Signed in as Ari Analyst', 'Account settings', 'Log out']));
  expect(await menuItems(page, 'Help')).toEqual(HELP_MENU);
});

test('without content access the organization home says why no clips are listed, not "No clips match."', async ({ page }) => {
  await logIn(page, ANALYST);
  const recent = page.getByRole('region', { name: 'Recently changed clips' });
  await expect(recent).toContainText('You do not have content access in this organization, so its clips are not shown.');
  await expect(recent).not.toContainText('No clips match.');
});

test('without content access a program says so and offers no New clip', async ({ page }) => {
  await logIn(page, ANALYST);
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await expect(page.getByText('You do not have content access to this program')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New clip' })).toHaveCount(0);
});

test('without content access search finds programs only: the types are All and Programs', async ({ page }) => {
  await logIn(page, ANALYST);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization search' }).click();
  await expect(page.getByRole('tab')).toHaveText(['All', 'Programs']);
  // A demo program, found by a word of its name.
  await page.getByRole('searchbox', { name: 'Search the organization' }).fill('book');
  await expect(page.getByRole('list', { name: 'Programs' }).getByRole('link').first()).toContainText('Book Club');
});

test.describe('the analyst’s language, on a server of its own', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    test.setTimeout(OWN_SERVER_START_MS + 10_000);
    server = await startOwnServer('castaway-analyst-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
  });
  test.afterAll(() => server?.stop());

test('choosing Deutsch saves InterfaceLanguage, reloads, and the studio speaks German, also after logging in on another browser', async ({ browser }) => {
  const own: BrowserContext = await browser.newContext({ baseURL: server.baseURL });
  const page = await own.newPage();
  await logIn(page, ANALYST);
  await page.getByRole('button', { name: 'Account' }).click();
  const saved = page.waitForRequest((r) => r.url().endsWith('/api/internal/users/me') && r.method() === 'PATCH');
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  expect((await saved).postDataJSON()).toEqual({ InterfaceLanguage: 'de-DE' });
  await expect(page.getByRole('heading', { level: 1, name: 'Audio verwalten' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('status')).toHaveText('Alle Änderungen gespeichert');
  await page.getByRole('button', { name: 'Hilfe' }).click();
  await expect(page.getByRole('menu')).toContainText('Version: 1.0.2625');
  await expect(page.getByRole('menu')).toContainText('Support kontaktieren');
  await page.keyboard.press('Escape');

  // Another browser (no language cookie): the login form is in English, the studio after it in German.
  const other = await browser.newContext({ baseURL: server.baseURL });
  try {
    const second = await other.newPage();
    await second.goto('/');
    await second.getByLabel('Email').fill(ANALYST);
    await second.getByLabel('Password').fill('castaway-demo');
    await second.getByRole('button', { name: 'Log in' }).click();
    await expect(second.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible();
    await expect(second.locator('html')).toHaveAttribute('lang', 'de-DE');
  } finally {
    await other.close();
  }

  // And back: the analyst is English again everywhere.
  await page.getByRole('button', { name: 'Konto' }).click();
  await page.getByRole('menuitem', { name: 'English (United States)' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await own.close();
});
});
