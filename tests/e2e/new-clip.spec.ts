// "New clip" (issue 5): asks for a title first, creates the clip on the device (online or not),
// opens it, and the program lists it (a user without content access: analyst.spec.ts); a Public
// one gets its slug from the title (issue 28). Works in the demo organization's SECOND program:
// the first program's clip list is shared by the other specs by position, and a new clip would
// move every row down.
import { expect, test, type Page } from '@playwright/test';
import { allChangesSaved, apiGet, clipField, logIn, organizationIdOf, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

async function openSecondProgram(page: Page): Promise<void> {
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').nth(1).click();
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');
}

async function createClip(page: Page, title: string): Promise<string> {
  await page.getByRole('button', { name: 'New clip' }).click();
  const dialog = page.getByRole('dialog', { name: 'New clip' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByRole('button', { name: 'Create clip' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await expect(clipField(page, 'Title')).toHaveValue(title);
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

test('New clip asks for a title, then creates and opens the clip, online and offline, and the program lists it; Public makes the slug from the title', async ({ page, context }) => {
  await logIn(page);
  await openSecondProgram(page);
  const organizationId = organizationIdOf(page);
  const programUrl = page.url();
  // The program's own count of its clips (the list renders only the rows in view), once the first
  // sync has brought all of them: the server's count.
  const programId = new URL(programUrl).pathname.split('/').at(-1)!;
  const onServer = (await apiGet<{ Items: unknown[] }>(page, `/v1/programs/${programId}/clips?pageSize=2500`, organizationId)).Items.length;
  const clipCount = page.getByText(/^[\d,]+ clips?$/);
  const before = `${onServer.toLocaleString('en-US')} clips`;
  await expect(clipCount).toHaveText(before, { timeout: 20_000 });

  // No title: the domain's message, nothing created. Cancel: nothing created either.
  await page.getByRole('button', { name: 'New clip' }).click();
  const dialog = page.getByRole('dialog', { name: 'New clip' });
  await dialog.getByRole('button', { name: 'Create clip' }).click();
  await expect(dialog.getByText('You must enter a title')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(clipCount).toHaveText(before);

  const online = await createClip(page, 'Made online');
  await expect.poll(async () => (await apiGet<{ Title: string }>(page, `/v1/clips/${online}`, organizationId)).Title).toBe('Made online');
  // The server has it before this device has the answer: leaving the page now ends the flush, and
  // the create stays queued to be sent again (a second change waiting below).
  await allChangesSaved(page);

  // Offline: the clip opens at once (no error page), waits in the outbox, and arrives later.
  await page.goto(programUrl);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await context.setOffline(true);
  const offline = await createClip(page, 'Made on a train');
  await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByTestId('clip-list').getByRole('link').first()).toContainText('Made on a train');
  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  expect((await apiGet<{ Title: string; State: string }>(page, `/v1/clips/${offline}`, organizationId))).toMatchObject({ Title: 'Made on a train', State: 'Draft' });

  // Public from the start: a Public clip needs a slug (section 4), so the Slug field appears, made
  // from the title, and the server takes both.
  await page.goto(programUrl);
  const publicTitle = `Made public ${Date.now()}`;
  const slug = publicTitle.toLowerCase().replaceAll(' ', '-');
  await page.getByRole('button', { name: 'New clip' }).click();
  const publicDialog = page.getByRole('dialog', { name: 'New clip' });
  await publicDialog.getByLabel('Title').fill(publicTitle);
  await publicDialog.getByLabel('Visibility').selectOption('Public');
  await expect(publicDialog.getByLabel('Slug')).toHaveValue(slug);
  await expect(publicDialog.getByText('Made from the title; you can change it')).toBeVisible();
  await publicDialog.getByRole('button', { name: 'Create clip' }).click();
  await expect(page.getByRole('heading', { level: 1, name: publicTitle })).toBeVisible();
  await expect(page.getByLabel('Slug')).toHaveValue(slug);
  const madePublic = new URL(page.url()).pathname.split('/').at(-1)!;
  await expect
    .poll(async () => apiGet<{ Visibility: string; Slug: string | null }>(page, `/v1/clips/${madePublic}`, organizationId), { timeout: 20_000 })
    .toMatchObject({ Visibility: 'Public', Slug: slug });
});
