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
