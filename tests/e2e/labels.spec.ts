// Clip labels (section 3): a clip without a title reads 'Untitled clip', and Season and Episode
// read 'S{n}/E{m}', on the clip screen and in the program's clip list.
import { expect, test } from '@playwright/test';
import { allChangesSaved, clipField, logIn, openFirstClip } from './support.ts';

test("a clip's cleared Title reads 'Untitled clip', and Season 2 Episode 5 reads 'S2/E5'", async ({ page }) => {
  await logIn(page);
  const { clipId } = await openFirstClip(page, 10);

  await clipField(page, 'Title').fill('');
  await page.getByLabel('Season', { exact: true }).fill('2');
  await page.getByLabel('Episode', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Untitled clip');
  await expect(page.getByRole('main').getByText('S2/E5', { exact: true })).toBeVisible();
  await allChangesSaved(page);

  await page.getByRole('link', { name: 'Back' }).click();
  const row = page.getByTestId('clip-list').locator(`a[href$="/clips/${clipId}"]`);
  await expect(row).toContainText('Untitled clip');
  await expect(row).toContainText('S2/E5');

  // Season alone, then a title again.
  await row.click();
  await page.getByLabel('Episode', { exact: true }).fill('');
  await clipField(page, 'Title').fill('Named again');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Named again');
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(row).toContainText('Named again');
  await expect(row).toContainText('S2');
  await expect(row).not.toContainText('S2/E5');
});
