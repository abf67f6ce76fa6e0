// Demo organizations' snapshots (sections 4, 6 and 8): 'Save organization snapshot' and 'Restore
// organization from snapshot' in the organization menu, their confirm texts and toasts, and a
// restore that brings the clip screen back to the snapshot's Title. A restore rewrites the whole
// demo organization, so this spec runs a server of its own: the other specs' edits stay out of it.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiGet, applyAndSync, clipField, logIn, openFirstClip, syncStatus } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  // A small demo: a restore of 40 clips tests the same as one of 2,000, and the seed and every
  // sign-in's first download of the full demo cost this spec most of its minute.
  server = await startOwnServer('castaway-snapshot-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

async function chooseFromOrganizationMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

async function applyTitle(page: Page, title: string) {
  await clipField(page, 'Title').fill(title);
  await applyAndSync(page);
}

test('save a snapshot, change the clip, restore: the clip screen shows the Title of the snapshot', async ({ browser }) => {
  // Sign-in and first sync, two edits, a save, two axe passes and a restore: 37 s in a quiet CI run,
  // past 60 s on a loaded machine (as a11y-dialogs.spec.ts, whose walks are as long).
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page);
  await applyTitle(page, 'Title kept in the snapshot');

  // Cancel leaves everything as it was.
  await chooseFromOrganizationMenu(page, 'Save organization snapshot');
  const save = page.getByRole('alertdialog', { name: 'Save organization snapshot' });
  await expect(save).toContainText('Are you sure you want to save a snapshot as opposed to restoring one?');
  await save.getByRole('button', { name: 'Cancel' }).click();
  await expect(save).toBeHidden();

  await chooseFromOrganizationMenu(page, 'Save organization snapshot');
  await save.getByRole('button', { name: 'Save snapshot' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved snapshot' })).toBeVisible();
  await expect(save).toBeHidden();

  await applyTitle(page, 'Title changed after the snapshot');
  await expect.poll(async () => (await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId)).Title).toBe('Title changed after the snapshot');

  await chooseFromOrganizationMenu(page, 'Restore organization from snapshot');
  const restore = page.getByRole('alertdialog', { name: 'Restore organization from snapshot' });
  await expect(restore).toContainText('Are you sure you want to restore a snapshot? It will overwrite the metadata of this organization.');
  // The open dialog at desktop and at phone size: zero axe violations.
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${viewport.width} px`).toEqual([]);
  }
  await restore.getByRole('button', { name: 'Restore snapshot' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Restored snapshot' })).toBeVisible({ timeout: 20_000 });
  await expect(restore).toBeHidden();
  await expect(clipField(page, 'Title')).toHaveValue('Title kept in the snapshot');
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
  expect((await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId)).Title).toBe('Title kept in the snapshot');
  await context.close();
});

test('offline, restoring says it needs the network; a refused restore shows the error toast', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);
  await openFirstClip(page, 1);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  await context.setOffline(true);
  await expect(await syncStatus(page)).toContainText('Offline');
  await chooseFromOrganizationMenu(page, 'Restore organization from snapshot');
  await expect(page.getByRole('alert').filter({ hasText: 'Saving or restoring a snapshot needs a connection to the server, and you are offline.' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });

  // The server refuses the start (as it would without a saved snapshot): the error toast, and the dialog stays to try again.
  await page.route('**/api/internal/demo-data/restores', (route) => route.fulfill({ status: 404 }));
  await chooseFromOrganizationMenu(page, 'Restore organization from snapshot');
  const restore = page.getByRole('alertdialog', { name: 'Restore organization from snapshot' });
  await restore.getByRole('button', { name: 'Restore snapshot' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Error restoring snapshot' })).toBeVisible();
  await expect(restore).toBeVisible();
  await restore.getByRole('button', { name: 'Cancel' }).click();

  await page.route('**/api/internal/demo-data', (route) => route.fulfill({ status: 500 }));
  await chooseFromOrganizationMenu(page, 'Save organization snapshot');
  await page.getByRole('alertdialog', { name: 'Save organization snapshot' }).getByRole('button', { name: 'Save snapshot' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Error saving snapshot' })).toBeVisible();
  await context.close();
});

test('a demo organization member without organization settings rights does not see the snapshot items', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page, 'producer@example.com');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await page.getByRole('button', { name: 'Organization' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Save organization snapshot' })).toHaveCount(0);
  await context.close();
});
