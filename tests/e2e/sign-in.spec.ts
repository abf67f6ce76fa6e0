// Signing in shows one navigation bar that stays put: the check of whose data the device holds
// (StoreOwnerGate) stands in for the page content only, so the bar is not mounted a second time
// when it passes, and a menu the user opens while the first screen loads stays open. Going from
// screen to screen keeps the same bar too.
import { expect, test } from '@playwright/test';
import { DEMO, logIn, organizationIdOf } from './support.ts';

test('after signing in the navigation bar is mounted once, and a menu opened at once stays open', async ({ page }) => {
  // Counts every time a main navigation landmark enters the document, from the first paint on.
  await page.addInitScript(() => {
    const w = window as unknown as { navMounts: number };
    w.navMounts = 0;
    const isNav = (n: Node) => n instanceof Element && n.matches('nav[aria-label="Main"]');
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (isNav(node)) w.navMounts += 1;
          else if (node instanceof Element) w.navMounts += node.querySelectorAll('nav[aria-label="Main"]').length;
        }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();

  // The user opens the Help menu as soon as the navigation bar shows.
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await navigation.getByRole('button', { name: 'Help' }).click();
  await expect(page.getByRole('menu')).toBeVisible();

  // The first screen arrives; the menu is still open and there was only ever one bar.
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Documentation' })).toBeVisible();
  const navMounts = () => page.evaluate(() => (window as unknown as { navMounts: number }).navMounts);
  expect(await navMounts()).toBe(1);

  // Going to another screen keeps the same bar (and does not check the store again).
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await page.getByRole('main').getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  expect(await navMounts()).toBe(1);
});

// Section 2: the organization list is 'reached through "Switch organization"', which only members
// of several organizations have. A member of one goes straight to its home: at login, at '/' (the
// installed app's start URL) and from the address bar, and Back does not return to '/'.
test('a member of one organization lands on its home, never on a list of one; a member of several gets the list', async ({ page, browser }) => {
  await page.goto('/');
  const entries = await page.evaluate(() => history.length);
  await page.getByLabel('Email').fill('producer@example.com');
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible({ timeout: 30_000 });
  const org = organizationIdOf(page);
  expect(new URL(page.url()).pathname).toBe(`/${org}`);
  await expect(page.getByRole('button', { name: 'Organization' })).toContainText('Castaway Demo Radio');
  // '/' was replaced, not left behind for Back to bounce off: no history entry was added.
  expect(await page.evaluate(() => history.length)).toBe(entries);

  await page.goto('/');
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`/${org}`);
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Organizations' })).toHaveCount(0);

  const other = await browser.newContext();
  try {
    const several = await other.newPage();
    await logIn(several);
    await expect(several.getByRole('main').getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
    expect(new URL(several.url()).pathname).toBe('/');
    await expect(several.getByRole('main').getByRole('list').getByRole('link')).toHaveText([/Castaway Demo Radio/, /Castaway Podcasts/]);
    await several.getByRole('button', { name: 'Organization' }).click();
    await expect(several.getByRole('menu')).toContainText('Castaway Podcasts');
  } finally {
    await other.close();
  }
});

test("a login the server refuses says why in the user's language", async ({ page, context }) => {
  await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'de-DE', url: test.info().project.use.baseURL! }]);
  await page.goto('/');
  // The browser's own check lets 'ann@studio' through; the server's address pattern (section 5,
  // src/domain/validators.ts: the domain needs a dot) does not, and answers in English with the
  // catalogue key.
  await page.getByLabel('E-Mail').fill('ann@studio');
  await page.getByLabel('Passwort').fill('secret');
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/internal/session/login'));
  await page.getByRole('button', { name: 'Anmelden' }).click();
  const body = (await (await answer).json()) as { Errors: Array<{ Message: string }> };
  expect(body.Errors[0]?.Message).toBe('"ann@studio" is not a valid email address');
  await expect(page.getByRole('alert')).toHaveText('„ann@studio“ ist keine gültige E-Mail-Adresse');
});
