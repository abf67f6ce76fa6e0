// The update prompt (issue #5: "an update prompt through workbox-window that waits while the
// outbox is flushing or a form has unsaved changes"). This spec runs its own server on a copy of
// the build under test (CASTAWAY_DIST_DIR when set, else dist/), publishes a new version by
// changing sw.js in the copy, and checks that the prompt stays away while a form is dirty or an
// edit waits to sync, then appears, and that taking it reloads the page into the new service
// worker. Then that every open tab follows a new version: a clean tab reloads at once, one with
// unsaved changes says why it waits and reloads once they are discarded.
import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clipField, logIn, openFirstClip, syncStatus } from './support.ts';
import { freePort } from './own-server.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const PROMPT = 'A new version of Castaway Studio is available.';
const OTHER_TAB = 'Castaway Studio was updated in another tab. This page reloads into the new version once your changes here are saved or discarded.';

let server: ChildProcess | null = null;
let work = '';
let distCopy = '';
let baseURL = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  work = mkdtempSync(join(tmpdir(), 'castaway-update-'));
  distCopy = join(work, 'dist');
  cpSync(process.env.CASTAWAY_DIST_DIR || 'dist', distCopy, { recursive: true });
  const port = await freePort();
  baseURL = `http://localhost:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
    // A small demo: the update prompt does not depend on how many clips there are, and
    // seeding the full 2,000 (then downloading them in three tabs) was most of this spec's time.
    env: { ...process.env, PORT: String(port), CASTAWAY_DATA_DIR: join(work, 'data'), CASTAWAY_DIST_DIR: distCopy, NODE_ENV: 'test', CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' },
    stdio: 'ignore',
  });
  await expect
    .poll(async () => (await fetch(`${baseURL}/api/internal/session`).catch(() => null))?.status ?? 0, { timeout: 110_000, intervals: [500] })
    .toBe(200);
});

test.afterAll(() => {
  if (server?.pid) process.kill(server.pid, 'SIGTERM');
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What the controlling service worker says its version is ('1' for the build as made). */
function controllerVersion(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve('none');
        const channel = new MessageChannel();
        channel.port1.onmessage = (e: MessageEvent<string>) => resolve(e.data);
        setTimeout(() => resolve('1'), 1000); // the first build does not answer
        controller.postMessage({ type: 'VERSION?' }, [channel.port2]);
      }),
  );
}

test('the update prompt waits for unsaved changes and the outbox, then reloads into the new version', async ({ browser }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await logIn(page);
  const { clipId } = await openFirstClip(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  expect(await controllerVersion(page)).toBe('1');

  // A form with unsaved changes.
  const title = clipField(page, 'Title');
  await title.fill('Written while a new version arrives');

  // The server now has a new version (any byte change of sw.js is one).
  appendFileSync(
    join(distCopy, 'sw.js'),
    `\n;self.addEventListener('message', (e) => { if (e.data && e.data.type === 'VERSION?') e.ports[0].postMessage('2'); });\n`,
  );
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
  });
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(true);
  // Installed and waiting, but the form is dirty: no prompt.
  await page.waitForTimeout(500);
  await expect(page.getByRole('region', { name: PROMPT })).toHaveCount(0);

  // Applied offline: the edit waits in the outbox, still no prompt.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');
  await page.waitForTimeout(500);
  await expect(page.getByRole('region', { name: PROMPT })).toHaveCount(0);

  // Online again: the outbox drains, the form is clean, the prompt appears.
  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  const prompt = page.getByRole('region', { name: PROMPT });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText(PROMPT);

  // Taking it reloads the page under the new service worker; nothing is lost.
  await page.evaluate(() => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true));
  await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Update' }).click()]);
  expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate ?? false)).toBe(false);
  await expect.poll(() => controllerVersion(page)).toBe('2');
  await expect(clipField(page, 'Title')).toHaveValue('Written while a new version arrives');
  await expect(page.getByRole('region', { name: PROMPT })).toHaveCount(0);
  expect(new URL(page.url()).pathname).toContain(clipId);
  await context.close();
});

test('every open tab follows a new version: a clean tab at once, one with unsaved changes once they are discarded', async ({ browser }) => {
  const context = await browser.newContext({ baseURL });
  const first = await context.newPage();
  await logIn(first);
  await openFirstClip(first);
  await first.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => first.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const clean = await context.newPage();
  const editing = await context.newPage();
  for (const tab of [clean, editing]) {
    await tab.goto(first.url());
    await expect(tab.getByRole('form', { name: 'Details' })).toBeVisible();
  }
  await clipField(editing, 'Title').fill('Typed in another tab');
  // Each tab's page as loaded now: a reload forgets the mark.
  const stillOld = (tab: Page) => tab.evaluate(() => (window as unknown as { oldBuild?: boolean }).oldBuild === true).catch(() => true);
  for (const tab of [first, clean, editing]) await tab.evaluate(() => ((window as unknown as { oldBuild: boolean }).oldBuild = true));

  // A new version (its worker answers BUILD? with 'tabs'), taken in the first tab.
  appendFileSync(join(distCopy, 'sw.js'), `\n;self.addEventListener('message', (e) => { if (e.data && e.data.type === 'BUILD?') e.ports[0].postMessage('tabs'); });\n`);
  await first.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  const prompt = first.getByRole('region', { name: PROMPT });
  await expect(prompt).toBeVisible();
  await Promise.all([first.waitForEvent('load'), prompt.getByRole('button', { name: 'Update' }).click()]);
  const build = (tab: Page) =>
    tab.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (e: MessageEvent<string>) => resolve(e.data);
          setTimeout(() => resolve('old'), 1000);
          navigator.serviceWorker.controller?.postMessage({ type: 'BUILD?' }, [channel.port2]);
        }),
    );
  await expect.poll(() => build(first)).toBe('tabs');

  // The clean tab reloaded by itself into the new version.
  await expect.poll(() => stillOld(clean), { timeout: 20_000 }).toBe(false);
  await expect(clean.getByRole('form', { name: 'Details' })).toBeVisible();
  await expect.poll(() => build(clean)).toBe('tabs');

  // The tab being edited keeps its form and says why; discarding the change reloads it.
  await expect(editing.getByRole('region', { name: OTHER_TAB })).toBeVisible();
  expect(await stillOld(editing)).toBe(true);
  await expect(clipField(editing, 'Title')).toHaveValue('Typed in another tab');
  await editing.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect.poll(() => stillOld(editing), { timeout: 20_000 }).toBe(false);
  await expect(editing.getByRole('form', { name: 'Details' })).toBeVisible();
  await expect.poll(() => build(editing)).toBe('tabs');
  await expect(editing.getByRole('region', { name: OTHER_TAB })).toHaveCount(0);
  await context.close();
});
