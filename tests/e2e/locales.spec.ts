// Section 1 and 4: screens in the en-XA pseudo-locale (accented, longer, bracketed) and the
// browser-translation warning. The language choice itself is in analyst.spec.ts.
import { expect, test } from '@playwright/test';
import { logIn } from './support.ts';

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
