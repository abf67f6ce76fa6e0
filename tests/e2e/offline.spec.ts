// The headline: edit online, edit offline, reload offline (the service worker serves the
// shell), see the edit and one change waiting, reconnect, and the server has the new Title.
import { expect, test } from '@playwright/test';
import { apiGet, applyAndSync, clipField, logIn, openFirstClip, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test('a Title edited offline survives a reload and reaches the server when back online', async ({ page, context }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  const title = clipField(page, 'Title');
  await title.fill('Online edit from the studio');
  await applyAndSync(page);
  expect((await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId)).Title).toBe('Online edit from the studio');

  await context.setOffline(true);
  await title.fill('Edited on the train');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');

  // Offline only the API and the page's look at the network (/healthz, src/lib/network-probe.ts)
  // may fail: the shell and the icons index.html links come from the precache.
  const failed: string[] = [];
  page.on('requestfailed', (r) => {
    const path = new URL(r.url()).pathname;
    if (!path.startsWith('/api/') && path !== '/healthz') failed.push(r.url());
  });
  await page.reload();
  await expect(clipField(page, 'Title')).toHaveValue('Edited on the train');
  // The edit is still waiting, unless the sync worker the reload started reached the server: on a
  // loaded machine Chromium starts a new dedicated worker before the offline emulation reaches it
  // (a CI run logged one push more than the test makes, from the worker; context.route does not
  // see workers' requests, so the test cannot close that gap). Then the server has the edit and
  // the outbox is rightly empty; an edit lost in the reload has neither.
  const status = await syncStatus(page);
  await expect
    .poll(async () => {
      const text = await status.textContent();
      if (text === 'Offline · 1 change waiting to sync') return 'kept';
      const server = await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId);
      return text?.startsWith('Offline') && server.Title === 'Edited on the train' ? 'kept' : `${text} (server: ${server.Title})`;
    })
    .toBe('kept');
  expect(await page.evaluate(() => Promise.all(['/icons/favicon-32.png', '/icons/apple-touch-icon.png'].map((u) => fetch(u).then((r) => r.status, () => 0))))).toEqual([200, 200]);
  expect(failed).toEqual([]);

  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  const clip = await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId);
  expect(clip.Title).toBe('Edited on the train');
});

test('control: with service workers blocked an offline reload fails', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await logIn(page);
  await context.setOffline(true);
  await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await context.close();
});
