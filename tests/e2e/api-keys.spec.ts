// API keys in account settings (section 7, /internal/api-keys): a key is made with a name, its
// secret shown once with Copy, used from outside the browser as a Bearer on /api/v1, and revoked
// after DELETE is typed, after which the same call is refused. Alex Analyst's keys are the ones
// made here (no other spec makes keys); the key made is revoked before the test ends.
import { expect, test } from '@playwright/test';
import { DEMO, logIn } from './support.ts';

test('an API key is made, shown once, works as a Bearer on /api/v1, and is refused once revoked', async ({ page, request }) => {
  const name = `Nightly export ${Date.now()}`;
  await logIn(page, 'analyst@example.com', DEMO.password);
  await page.goto('/account');
  const section = page.getByRole('form', { name: 'API keys' });
  await expect(section).toBeVisible();

  // The name is required, said at the field.
  await section.getByLabel('Key name').fill('   ');
  await section.getByRole('button', { name: 'Create key' }).click();
  await expect(section.getByLabel('Key name')).toHaveAttribute('aria-invalid', 'true');

  await section.getByLabel('Key name').fill(name);
  await section.getByRole('button', { name: 'Create key' }).click();
  await expect(section.getByText('Copy this key now: it will not be shown again.')).toBeVisible();
  const secret = await section.getByLabel('Your new key').inputValue();
  expect(secret).toMatch(/^cak_/);
  await expect(section.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
  const item = section.getByRole('listitem').filter({ hasText: name });
  await expect(item).toContainText('Never used');

  // From outside the browser: the key alone is enough.
  const asKey = () => request.get('/api/v1/programs', { headers: { authorization: `Bearer ${secret}` } });
  const used = await asKey();
  expect(used.status()).toBe(200);
  expect(((await used.json()) as { Items: unknown[] }).Items.length).toBeGreaterThan(0);

  // Once dismissed, the secret is gone from the page; the list shows the use after a reload.
  await section.getByRole('button', { name: 'I have copied it' }).click();
  await expect(section.getByLabel('Your new key')).toHaveCount(0);
  await page.reload();
  await expect(item).toContainText('Last used');
  await expect(page.getByText(secret)).toHaveCount(0);

  await item.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Revoke API key' });
  await expect(dialog).toContainText(name);
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Key revoked', { exact: true })).toBeVisible();
  await expect(item).toHaveCount(0);

  const refused = await asKey();
  expect(refused.status()).toBe(401);
});
