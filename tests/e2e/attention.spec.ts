// A change the server refuses (issue 4's "needs attention", issue 5's list): the badge says so,
// the sync details name the change and the reason in words with the API's own message, and the
// user can discard it, which puts the server's value back. Works in the demo organization's third
// program (the first program's clips are shared by position with other specs).
import { expect, test } from '@playwright/test';
import { apiGet, logIn, organizationIdOf, syncStatus } from './support.ts';

test('a slug already used in the program is refused: the change is named, the reason given, and Discard restores the saved slug', async ({ page }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').nth(2).click();
  const programUrl = page.url();
  const organizationId = organizationIdOf(page);
  const slug = `shared-slug-${Date.now()}`;

  await page.getByTestId('clip-list').getByRole('link').nth(0).click();
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });

  await page.goto(programUrl);
  await page.getByTestId('clip-list').getByRole('link').nth(1).click();
  const clipId = new URL(page.url()).pathname.split('/').at(-1)!;
  const title = (await page.getByRole('heading', { level: 1 }).textContent())!;
  const saved = await apiGet<{ Slug: string | null }>(page, `/v1/clips/${clipId}`, organizationId);
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Apply' }).click();

  await expect(await syncStatus(page)).toHaveText('Needs your decision', { timeout: 20_000 });
  await page.getByRole('link', { name: '1 needs attention' }).click();
  const item = page.getByRole('listitem').filter({ hasText: `Changes to clip “${title}”` });
  await expect(item).toContainText('The server did not accept these values:');
  await expect(item).toContainText('Slug: This slug is already in use in this program');
  await item.getByRole('button', { name: 'Discard this change' }).click();
  await expect(page.getByText('Nothing needs attention.')).toBeVisible();
  await expect(await syncStatus(page)).toHaveText('All changes saved');

  await page.goto(`${programUrl}/clips/${clipId}`);
  await expect(page.getByLabel('Slug')).toHaveValue(saved.Slug ?? '');
});
