// Log-out on a shared device (issue #5: "logging out with pending edits warns first"): the
// log-out dialog names edits that have not reached the server, and a confirmed log-out clears the
// local store, the waveform and image caches and the session, so the next user on the device sees
// nothing of the first user's organization.
import { expect, test } from '@playwright/test';
import { clipField, DEMO, logIn, syncStatus } from './support.ts';
import { cacheNames, indexedDbCounts, indexedDbKeys, writeStores } from './local-data.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const SYNCED = ['organizations', 'networks', 'programs', 'playlists', 'clips', 'recordings', 'annotations'];

async function openLogout(page: import('@playwright/test').Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  return page.getByRole('alertdialog', { name: 'Log out' });
}

test('log-out warns about unsent edits, then clears the device for the next user', async ({ page, context }) => {
  await logIn(page);
  await page.getByRole('link', { name: /Castaway Podcasts/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link', { name: 'Deep Dive' }).click();
  await page.getByTestId('clip-list').getByRole('link').first().click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const podcastsId = new URL(page.url()).pathname.split('/')[1]!;
  expect(await indexedDbKeys(page, 'castaway', 'organizations')).toContain(podcastsId);
  // Something of this user in the caches too (the waveform cache is the audio helper's; a put
  // here stands for any cached waveform).
  await page.evaluate(async () => {
    const cache = await caches.open('castaway-waveforms-v1');
    await cache.put('/__castaway/waveforms/x/index.json', new Response('{}'));
  });

  // A name the device learnt for the conflict screen (src/db/users-cache.ts: Dexie version 2 is
  // IndexedDB version 20; the app may have opened it already).
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('castaway-users', 20);
        req.onupgradeneeded = () => {
          const names = req.result.objectStoreNames;
          if (!names.contains('profiles')) req.result.createObjectStore('profiles', { keyPath: 'Id' });
          if (!names.contains('userLists')) req.result.createObjectStore('userLists', { keyPath: 'organizationId' });
        };
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const tx = req.result.transaction('profiles', 'readwrite');
          tx.objectStore('profiles').put({ Id: '00000000-0000-4000-8000-000000000002', Name: 'Pat Producer', FirstName: 'Pat', ImageUrl: null, fetchedAt: 1 });
          tx.oncomplete = () => {
            req.result.close();
            resolve();
          };
        };
      }),
  );
  expect((await indexedDbCounts(page, 'castaway-users'))['profiles']).toBe(1);

  await context.setOffline(true);
  // A title of this run: a run before (--repeat-each, a retry) may have saved its title on the
  // server, and filling in the same value would be no edit at all.
  await clipField(page, 'Title').fill(`Unsent when the user logs out (${Date.now()})`);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');

  let dialog = await openLogout(page);
  await expect(dialog).toContainText('Are you sure you want to log out?');
  await expect(dialog).toContainText('1 change on this device has not reached the server yet. Logging out deletes it from this device.');
  // Offline the server cannot end the session: nothing is cleared, the edit is kept.
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByText('Could not log out. Check your connection and try again.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await indexedDbCounts(page, 'castaway'))['outbox']).toBe(1);

  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  // An edit the server refused (Sync details, "Needs attention") has not reached it either: log-out
  // would delete it too, so the dialog counts it. (Written as the worker records one; the app hears
  // only writes made through Dexie, so the page is loaded again to read it.)
  const mutation = { id: 'logout-refused', entity: 'clips', entityId: 'logout-clip', method: 'PATCH', path: '/v1/clips/logout-clip', body: { Title: '' } };
  await writeStores(page, 'castaway', { needsAttention: { put: [{ id: 'logout-refused', entity: 'clips', entityId: 'logout-clip', mutation, httpStatus: 400, errors: [], createdAt: Date.now() }] } });
  await page.reload();
  await expect(await syncStatus(page)).toHaveText('Needs your decision');
  dialog = await openLogout(page);
  await expect(dialog).toContainText('1 change on this device has not reached the server yet. Logging out deletes it from this device.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await writeStores(page, 'castaway', { needsAttention: { delete: ['logout-refused'] } });
  await page.reload();
  await expect(await syncStatus(page)).toHaveText('All changes saved');
  dialog = await openLogout(page);
  await expect(dialog).toContainText('Are you sure you want to log out?');
  await expect(dialog).not.toContainText('has not reached the server');
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();

  const afterLogout = await indexedDbCounts(page, 'castaway');
  for (const table of [...SYNCED, 'outbox', 'shadows', 'conflicts', 'needsAttention', 'syncState', 'permissions']) {
    expect(afterLogout[table] ?? 0, `${table} rows after log-out`).toBe(0);
  }
  // Every other database of the studio on this device (cached user names, kept uploads) is empty too.
  const databases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
  expect(databases).toContain('castaway-users');
  for (const name of databases.filter((n) => n.startsWith('castaway') && n !== 'castaway')) {
    for (const [table, rows] of Object.entries(await indexedDbCounts(page, name))) expect(rows, `${name}.${table} rows after log-out`).toBe(0);
  }
  expect(await cacheNames(page)).not.toContain('castaway-waveforms-v1');
  expect(await page.evaluate(() => localStorage.getItem('castaway.session'))).toBeNull();

  // The next person on this device: a producer with two programs of the other organization.
  await logIn(page, 'producer@example.com', DEMO.password);
  expect(await indexedDbKeys(page, 'castaway', 'organizations')).not.toContain(podcastsId);
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Organization' })).toContainText('Castaway Demo Radio');
  await expect(page.getByRole('region', { name: 'Programs' }).getByRole('link')).toHaveText([/Book Club$/, /Morning Briefing$/]);
  const programs = await indexedDbKeys(page, 'castaway', 'programs');
  expect(programs).toHaveLength(2);
  expect(await indexedDbKeys(page, 'castaway', 'organizations')).not.toContain(podcastsId);
});

// POST /logout takes an optional redirectUrl (sections 2 and 7): once the server has ended the
// session the browser goes there, but only to a place on this site, never to another origin.
test('/logout?redirectUrl= goes, once logged out, to that place on this site and never to another site', async ({ page, baseURL }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  const org = new URL(page.url()).pathname.split('/')[1]!;
  const confirmLogout = async () => {
    const dialog = page.getByRole('alertdialog', { name: 'Log out' });
    await expect(dialog).toContainText('Are you sure you want to log out?');
    await dialog.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  };
  const sessionType = async () => ((await (await page.request.get('/api/internal/session')).json()) as { Type: string }).Type;

  await page.goto(`/logout?redirectUrl=${encodeURIComponent(`/${org}/programs?from=logout`)}`);
  await confirmLogout();
  expect(await sessionType()).toBe('loggedOut');
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/${org}/programs?from=logout`);
  // Logging in again opens the page the link named.
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Programs' })).toBeVisible();

  const origin = new URL(baseURL!).origin;
  for (const elsewhere of ['https://evil.example/phish', '//evil.example/phish', '/\\evil.example/phish']) {
    expect(await sessionType()).toBe('activated');
    await page.goto(`/logout?redirectUrl=${encodeURIComponent(elsewhere)}`);
    await confirmLogout();
    expect(await sessionType()).toBe('loggedOut');
    expect(page.url(), elsewhere).toBe(`${origin}/`);
    await logIn(page);
  }
});

// A form submission shows the loading bar (section 2) while it waits: the log-out's POST is held
// back here (the service worker is blocked so page.route sees the request).
test.describe('while the log-out is being submitted', () => {
  test.use({ serviceWorkers: 'block' });

  test('the loading bar shows, and goes once the session has ended', async ({ page }) => {
    await logIn(page);
    // The modal dialog hides the rest of the page from assistive technology, the bar included;
    // on screen it shows above the dialog's backdrop.
    const bar = page.getByRole('progressbar', { name: 'Loading…', includeHidden: true });
    await expect(bar).toHaveCount(0);
    // Once the first sync has settled: a log-out in the middle of it waits for the sync worker's
    // writes before it can clear the store, and this test is about the bar, not that wait.
    await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/logout?*', async (route) => {
      await held;
      await route.continue();
    });
    const dialog = await openLogout(page);
    await dialog.getByRole('button', { name: 'Log out' }).click();
    await expect(bar).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    release();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(bar).toHaveCount(0);
  });
});
