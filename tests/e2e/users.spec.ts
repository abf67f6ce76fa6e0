// Organization users (section 2 /{organizationId}/users; sections 6 and 7): the owner opens Users
// from the organization menu, invites an address with Program scope (this server has no SMTP, so
// the link is shown to copy), the invited person accepts outside the browser, the owner finds them
// with the filter, gives them a right section 6 refuses at Program scope and sees the refusal at
// that very checkbox, saves an allowed change, and removes them after typing DELETE. The member
// made here is the one removed: no other spec's user is touched.
import { expect, test } from '@playwright/test';
import { logIn, openOrganizationHome } from './support.ts';

test('the owner invites, filters, edits a permission with a refusal at the field, saves, and removes a user after the prompt', async ({ page, playwright, baseURL }) => {
  const email = `users.e2e.${Date.now()}@station.example`;
  await logIn(page);
  const org = await openOrganizationHome(page);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page).toHaveURL(`/${org}/users`);
  await expect(page.getByRole('listitem').filter({ hasText: 'producer@example.com' })).toBeVisible();

  // Invite with Program scope on Morning Briefing, content access.
  await page.getByRole('button', { name: 'Invite' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a user' });
  await invite.getByLabel('E-mail address').fill('not an address');
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(invite.getByLabel('E-mail address')).toHaveAttribute('aria-invalid', 'true');
  await invite.getByLabel('E-mail address').fill(email);
  await invite.getByRole('combobox', { name: 'Program' }).selectOption({ label: 'Morning Briefing' });
  await invite.getByLabel('Content', { exact: true }).check();
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(invite.getByText('Copy this link now: it will not be shown again.')).toBeVisible();
  const link = new URL(await invite.getByLabel('Invitation link').inputValue());
  await invite.getByRole('button', { name: 'Done' }).click();

  // The invited person accepts from their own browser (no session of the owner's).
  const outsider = await playwright.request.newContext({ baseURL: baseURL! });
  const accepted = await outsider.put(`/api${link.pathname}`, { data: { Token: link.searchParams.get('token'), Name: 'Ulla Userstest', Password: 'a long enough secret' } });
  expect(accepted.status()).toBe(204);
  await outsider.dispose();

  await page.reload();
  await page.getByLabel('Filter by name or e-mail').fill('userstest');
  const item = page.getByRole('listitem').filter({ hasText: email });
  await expect(item).toBeVisible();
  await expect(page.getByText('Users found: 1')).toBeVisible();
  await expect(item).toContainText('Program');

  // Section 6: organization settings access only at Organization scope, said at the flag.
  await item.getByRole('button', { name: 'Permissions' }).click();
  const editor = page.getByRole('dialog', { name: 'Permissions of Ulla Userstest' });
  const orgSettings = editor.getByLabel('Manage organization settings');
  await orgSettings.check();
  await expect(orgSettings).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.getByText('Organization settings access can be given only at Organization scope')).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Save' })).toBeDisabled();
  await orgSettings.uncheck();
  await editor.getByLabel('Analytics', { exact: true }).check();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Permissions of Ulla Userstest saved')).toBeVisible();
  await expect(item).toContainText('Analytics');

  // Remove, after DELETE is typed in the prompt.
  await item.getByRole('button', { name: 'Remove' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Remove this user?' });
  await expect(prompt).toContainText('Ulla Userstest');
  await prompt.getByLabel('Type DELETE to confirm').fill('DELETE');
  await prompt.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Ulla Userstest was removed')).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(page.getByText('No user matches this filter.')).toBeVisible();
});
