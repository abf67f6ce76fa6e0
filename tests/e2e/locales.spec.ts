// Section 1 and 4: the language choice saves InterfaceLanguage and reloads; screens in de-DE and
// in the en-XA pseudo-locale (accented, longer, bracketed).
import { expect, test } from '@playwright/test';
import { logIn } from './support.ts';

test('choosing Deutsch saves InterfaceLanguage, reloads, and the studio speaks German', async ({ page }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
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
});

test('the en-XA pseudo-locale shows bracketed, accented text', async ({ page, context }) => {
  await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'en-XA', url: test.info().project.use.baseURL! }]);
  await page.goto('/');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/^\[Ŵéļçóɱé ţó Çášţáŵáý Šţúðíó.*\]$/);
  await expect(page.getByRole('button', { name: /^\[Ļóĝ íñ/ })).toBeVisible();
});

test('browser translation shows the warning; Dismiss hides it for a month, then it comes back', async ({ page }) => {
  await logIn(page);
  const translate = () => page.evaluate(() => document.documentElement.classList.add('translated-ltr'));
  await translate();
  const dialog = page.getByRole('dialog', { name: 'Browser translation detected' });
  await expect(dialog).toContainText('Turn off browser translation and reload the page');
  await expect(dialog.getByRole('link', { name: 'Open profile' })).toHaveAttribute('href', '/account/profile');
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(dialog).toBeHidden();

  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await translate();
  await page.waitForTimeout(300);
  await expect(dialog).toBeHidden();

  await page.evaluate(() => localStorage.setItem('castaway.translationWarningDismissedAt', new Date(Date.now() - 32 * 86_400_000).toISOString()));
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await translate();
  await expect(dialog).toBeVisible();
});
