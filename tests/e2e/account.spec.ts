// Account settings (section 2: /account for activated users only, with an optional error search
// parameter; /account/profile from the browser-translation warning): the user's name, the
// address they log in with, their picture, and the interface language, which saves
// InterfaceLanguage and reloads.
// Robin Reseller's account is the one edited here (no other spec reads that name or language),
// and every change is put back before the test ends.
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { DEMO, logIn } from './support.ts';

const RESELLER = 'reseller@example.com';

async function sessionUser(page: Page): Promise<{ Name: string; Email: string; InterfaceLanguage: string | null }> {
  const res = await page.request.get('/api/internal/session');
  return ((await res.json()) as { User: { Name: string; Email: string; InterfaceLanguage: string | null } }).User;
}

async function openAccountSettings(page: Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
}

test('Account settings opens in the same tab: the name is changed and saved, the e-mail address is read-only', async ({ page, context }) => {
  await logIn(page, RESELLER, DEMO.password);
  await openAccountSettings(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/account');
  expect(context.pages()).toHaveLength(1);
  await expect(page.getByText('Organization not found')).toHaveCount(0);

  const profile = page.getByRole('form', { name: 'Profile' });
  const name = profile.getByLabel('Name');
  await expect(name).toHaveValue('Robin Reseller');
  await expect(profile.getByLabel('Email')).toHaveValue(RESELLER);
  await expect(profile.getByLabel('Email')).not.toBeEditable();
  await expect(profile.getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
  await expect(profile.getByRole('button', { name: 'Apply' })).toBeDisabled();

  await name.fill('   ');
  await profile.getByRole('button', { name: 'Apply' }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await profile.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(name).toHaveValue('Robin Reseller');

  await name.fill('Robin R. Reseller');
  await profile.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Changes saved', { exact: true })).toBeVisible();
  await expect(profile.getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
  expect((await sessionUser(page)).Name).toBe('Robin R. Reseller');
  await page.getByRole('button', { name: 'Account' }).click();
  await expect(page.getByRole('menu')).toContainText('Signed in as Robin R. Reseller');
  await page.keyboard.press('Escape');

  await name.fill('Robin Reseller');
  await profile.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(async () => (await sessionUser(page)).Name).toBe('Robin Reseller');
});

test('the picture: a GIF named .png is refused at the field by the server, a PNG is shown at once, then removed', async ({ page }) => {
  await logIn(page, RESELLER, DEMO.password);
  await openAccountSettings(page);
  const card = page.getByRole('region', { name: 'Picture' });
  const file = card.getByLabel('Choose a picture');
  await expect(card.getByText('No picture')).toBeVisible();

  const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
  await file.setInputFiles({ name: 'not-really.png', mimeType: 'image/png', buffer: gif });
  await expect(file).toHaveAttribute('aria-invalid', 'true');
  await expect(file).toHaveAccessibleDescription(/jpeg, jpg, png/i);

  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2e86de' } }).png().toBuffer();
  await file.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('Picture saved', { exact: true })).toBeVisible();
  const picture = card.getByRole('img', { name: 'Your picture' });
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect((await page.request.get((await picture.getAttribute('src'))!)).status()).toBe(200);
  // The account menu wears it too.
  await expect(page.getByRole('button', { name: 'Account' }).locator('img')).toBeVisible();

  await card.getByRole('button', { name: 'Remove picture' }).click();
  await expect(page.getByText('Picture removed', { exact: true })).toBeVisible();
  await expect(card.getByText('No picture')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account' }).locator('img')).toHaveCount(0);
});

test('the interface language saves InterfaceLanguage and reloads the page in it', async ({ page }) => {
  await logIn(page, RESELLER, DEMO.password);
  await page.goto('/account/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Account settings' })).toHaveAttribute('href', '/account');
  const language = page.getByRole('form', { name: 'Interface language' });
  await expect(language.getByLabel('Language')).toHaveValue('en-US');
  await expect(language.getByRole('button', { name: 'Save language' })).toBeDisabled();

  try {
    await language.getByLabel('Language').selectOption({ label: 'Deutsch' });
    await language.getByRole('button', { name: 'Save language' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Profil' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Sprache der Oberfläche' }).getByLabel('Sprache')).toHaveValue('de-DE');
    expect((await sessionUser(page)).InterfaceLanguage).toBe('de-DE');
  } finally {
    const sprache = page.getByRole('form', { name: 'Sprache der Oberfläche' });
    await sprache.getByLabel('Sprache').selectOption('en-US');
    await sprache.getByRole('button', { name: 'Sprache speichern' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    expect((await sessionUser(page)).InterfaceLanguage).toBe('en-US');
  }
});

test('the error search parameter is shown as an alert', async ({ page }) => {
  await logIn(page);
  await page.goto(`/account?error=${encodeURIComponent('The activation link has expired.')}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Your last account action did not complete: The activation link has expired.');
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

const translate = (page: Page) => page.evaluate(() => document.documentElement.classList.add('translated-ltr'));

test("the browser-translation warning's Open profile leads to the profile's language choice", async ({ page }) => {
  await logIn(page);
  await translate(page);
  const dialog = page.getByRole('dialog', { name: 'Browser translation detected' });
  await expect(dialog).toContainText('choose your language in your profile');
  await dialog.getByRole('link', { name: 'Open profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/account/profile');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('form', { name: 'Interface language' }).getByLabel('Language')).toBeEditable();
});

test('an unactivated user gets Access denied on /account and /account/profile, and the translation warning does not send them there', async ({ page }) => {
  await logIn(page, 'newbie@example.com', DEMO.password);
  for (const path of ['/account', '/account/profile']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied');
    await expect(page.getByText('You do not have the required permissions to view the page.')).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveCount(0);
  }
  await page.goto('/');
  await translate(page);
  const dialog = page.getByRole('dialog', { name: 'Browser translation detected' });
  await expect(dialog.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Open profile' })).toHaveCount(0);
});

// The loading bar (sections 4 and 9: after 100 ms, from 50%, then fills and fades over 0.3 s)
// while a screen's code loads and while a form submission waits for the server. The service
// worker is blocked so the requests reach page.route, which holds them back.
test.describe('the loading bar', () => {
  test.use({ serviceWorkers: 'block' });

  test('shows while the account screen loads and while its form is being saved', async ({ page }) => {
    await logIn(page, RESELLER, DEMO.password);
    const bar = page.getByRole('progressbar', { name: 'Loading…' });
    await expect(bar).toHaveCount(0);

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/AccountScreen-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await openAccountSettings(page);
    await expect(bar).toBeVisible();
    const value = Number(await bar.getAttribute('aria-valuenow'));
    expect(value).toBeGreaterThanOrEqual(50);
    expect(value).toBeLessThan(100);
    await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toHaveCount(0);
    release();
    await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
    await expect(bar).toHaveCount(0);

    let releaseSave: () => void = () => undefined;
    const saving = new Promise<void>((resolve) => (releaseSave = resolve));
    await page.route('**/api/internal/users/me', async (route) => {
      await saving;
      await route.continue();
    });
    const profile = page.getByRole('form', { name: 'Profile' });
    await profile.getByLabel('Name').fill('Robin Reseller ');
    await profile.getByRole('button', { name: 'Apply' }).click();
    await expect(bar).toBeVisible();
    releaseSave();
    await expect(page.getByText('Changes saved', { exact: true })).toBeVisible();
    await expect(bar).toHaveCount(0);
    expect((await sessionUser(page)).Name).toBe('Robin Reseller');
  });
});
