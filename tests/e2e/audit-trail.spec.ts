// The audit trail (issue 31): the support user (audit and content access at Organization scope)
// opens Organization settings › Audit trail from the menu and finds their own sign-in, by name;
// filters to sign-ins; a reversed range is refused at the To field before anything is sent; and
// offline the section says the trail needs the network instead of showing nothing.
import { expect, test } from '@playwright/test';
import { DEMO, logIn } from './support.ts';

test('the audit trail shows who signed in, filters by event, refuses a reversed range at its field, and says offline that it needs the network', async ({ page, context }) => {
  await logIn(page, 'support@example.com', DEMO.password);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Audit trail' }).click();
  await expect(page).toHaveURL(/section=audit/);
  const trail = page.getByRole('list', { name: 'Audit trail' });
  const mine = trail.getByRole('listitem').filter({ hasText: 'Signed in' }).filter({ hasText: 'Sam Support' });
  await expect(mine.first()).toBeVisible({ timeout: 30_000 });

  const filters = page.getByRole('form', { name: 'Audit filters' });
  await filters.getByLabel('Event').selectOption({ label: 'Signed in' });
  await filters.getByRole('button', { name: 'Show' }).click();
  await expect(trail.getByRole('listitem').first()).toContainText('Signed in');
  const kinds = await trail.getByRole('listitem').locator('strong').allTextContents();
  expect(kinds.length).toBeGreaterThan(0);
  expect(new Set(kinds)).toEqual(new Set(['Signed in']));

  // To before From: said at To, the list left as it was.
  const to = filters.getByLabel('To');
  await filters.getByLabel('From').fill('2026-03-10');
  await to.fill('2026-03-01');
  await filters.getByRole('button', { name: 'Show' }).click();
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(filters.getByText('End date must be after the start date')).toBeVisible();
  await expect(mine.first()).toBeVisible();

  await context.setOffline(true);
  await to.fill('2026-12-31');
  await filters.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('The audit trail is kept on the server: it loads when you are back online.')).toBeVisible();
  await context.setOffline(false);
});
