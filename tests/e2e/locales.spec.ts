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

test('signed in, the organization home in en-XA shows the pseudo-localised strings', async ({ page, context }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'en-XA', url: test.info().project.use.baseURL! }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  // 'Manage audio', 'Main', 'Programs' and 'All changes saved', each bracketed, accented and longer.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^\[Ṁáñáĝé áúðíó .*\]$/);
  const nav = page.getByRole('navigation', { name: /^\[Ṁáíñ .*\]$/ });
  await expect(nav).toBeVisible();
  await expect(page.getByRole('region', { name: /^\[Þŕóĝŕáɱš .*\]$/ }).getByRole('link').first()).toBeVisible();
  await expect(nav.getByRole('status')).toHaveText(/^\[Áļļ çĥáñĝéš šáṽéð .*\]$/);
  // Names that come from the data stay as they are.
  await expect(page.getByRole('region', { name: /^\[Þŕóĝŕáɱš .*\]$/ })).toContainText('Morning Briefing');
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
