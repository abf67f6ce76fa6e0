// The menus a program-scoped producer sees (sections 2 and 6), read as errors-and-menus.spec.ts
// reads them. The analytics-only user's menus are in analyst.spec.ts, which no other spec may sign
// in alongside (it changes that user's language while it runs).
import { expect, test } from '@playwright/test';
import { DEMO, HELP_MENU, logIn, menuItems, organizationIdOf } from './support.ts';

test('producer: program-scoped content access shows Organization programs only, no Switch organization, no Admin, with Account settings', async ({ page }) => {
  await logIn(page, 'producer@example.com', DEMO.password);
  // One organization: logging in opens its home, not a list of one (section 2: the list is
  // reached through 'Switch organization').
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Organization' })).toContainText('Castaway Demo Radio');
  // Section 6: Program scope sees its two programs only.
  await expect(page.getByRole('region', { name: 'Programs' }).getByRole('link')).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Programs' })).toContainText('Morning Briefing');
  await expect(page.getByRole('region', { name: 'Programs' })).toContainText('Book Club');

  const org = await menuItems(page, 'Organization');
  // Content access in any scope shows reports and search, hence Organization programs. One
  // organization: no Switch organization. Neither admin, support nor reseller.
  expect(org).toContain('Organization programs');
  for (const absent of ['Switch organization', 'Admin', 'Admin settings', 'Object search', 'Billing & features', 'Enterprises', 'Organization users', 'Organization settings']) {
    expect(org, absent).not.toContain(absent);
  }
  const user = await menuItems(page, 'Account');
  expect(user).toEqual(expect.arrayContaining(['Signed in as Pat Producer', 'Account settings', 'Log out']));
  expect(await menuItems(page, 'Help')).toEqual(HELP_MENU);
  await expect(page.getByRole('link', { name: 'Castaway Studio home' })).toHaveAttribute('href', `/${organizationIdOf(page)}`);
});
