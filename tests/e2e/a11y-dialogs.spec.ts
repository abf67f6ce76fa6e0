// axe-core at phone (390×844) and desktop size on what a11y.spec.ts does not open: the dialogs
// (unsaved changes, the DELETE prompt, New clip), an open user menu, the error pages a user can
// reach (403, 404, the crash page 'Server error', Organization not found with and without Grant
// access) and the conflict screen holding a live conflict. Zero violations.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { clipField, DEMO, logIn, openFirstClip, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const UNKNOWN = '0b7d1d8e-2f4f-4c55-9a3e-5d2f3a1c0e99';
// Different clips per size and test: parallel workers never edit the same row.
const CLIP = { phone: { dialogs: 6, conflict: 8 }, desktop: { dialogs: 7, conflict: 9 } } as const;

async function noViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, screen).toEqual([]);
}

for (const [size, viewport] of Object.entries(SIZES) as Array<[keyof typeof SIZES, (typeof SIZES)[keyof typeof SIZES]]>) {
  test.describe(`at ${size} size`, () => {
    test.use({ viewport });

    test('the unsaved-changes, DELETE and New clip dialogs and the open user menu have zero axe violations', async ({ page }) => {
      test.setTimeout(120_000);
      await logIn(page);
      await openFirstClip(page, CLIP[size].dialogs);

      await clipField(page, 'Title').fill('Not yet applied');
      await page.getByRole('link', { name: 'Back' }).click();
      const unsaved = page.getByRole('alertdialog', { name: 'Unsaved changes' });
      await expect(unsaved).toContainText('This form has unsaved changes which will be lost if you continue.');
      await noViolations(page, 'unsaved-changes dialog');
      await unsaved.getByRole('button', { name: 'Close' }).click();
      await expect(unsaved).toBeHidden();
      await page.getByRole('button', { name: 'Reset', exact: true }).click();

      await page.getByRole('button', { name: 'Delete clip' }).click();
      const danger = page.getByRole('alertdialog', { name: 'Delete this clip?' });
      await expect(danger.getByLabel('Type DELETE to confirm')).toBeVisible();
      await noViolations(page, 'DELETE-confirm dialog');
      await danger.getByLabel('Type DELETE to confirm').fill('DELETE');
      await expect(danger.getByRole('button', { name: 'Delete' })).toBeEnabled();
      await noViolations(page, 'DELETE-confirm dialog, DELETE typed');
      await danger.getByRole('button', { name: 'Cancel' }).click();
      await expect(danger).toBeHidden();

      await page.getByRole('link', { name: 'Back' }).click();
      await page.getByRole('button', { name: 'New clip' }).click();
      const newClip = page.getByRole('dialog', { name: 'New clip' });
      await expect(newClip.getByLabel('Title', { exact: true })).toBeVisible();
      await noViolations(page, 'New clip dialog');
      await newClip.getByRole('button', { name: 'Create clip' }).click();
      await expect(newClip.getByText('You must enter a title')).toBeVisible();
      await noViolations(page, 'New clip dialog with its error');
      await page.keyboard.press('Escape');
      await expect(newClip).toBeHidden();

      await page.getByRole('button', { name: 'Account' }).click();
      await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
      await noViolations(page, 'open user menu');
      await page.keyboard.press('Escape');
    });

    test('the error pages a user can reach have zero axe violations', async ({ page }) => {
      await logIn(page);
      await page.goto('/a/b/c/d/e/f/g');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      await noViolations(page, 'Page not found');

      await page.goto(`/${UNKNOWN}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
      await noViolations(page, 'Organization not found');

      // A screen that crashes on what the device holds (here a clip whose Title is not text, as an
      // older or damaged store might hold) shows the full-page error with status 500.
      await page.goto('/');
      const { clipId } = await openFirstClip(page, CLIP[size].dialogs);
      await page.evaluate(async (id) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open('castaway');
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const store = db.transaction('clips', 'readwrite').objectStore('clips');
        await new Promise<void>((resolve, reject) => {
          const get = store.get(id);
          get.onsuccess = () => {
            const put = store.put({ ...get.result, Title: 42 });
            put.onsuccess = () => resolve();
            put.onerror = () => reject(put.error);
          };
          get.onerror = () => reject(get.error);
        });
        db.close();
      }, clipId);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Server error');
      await expect(page.getByRole('button', { name: 'Reload page' })).toBeVisible();
      await noViolations(page, 'Server error');
    });

    test('Access denied and Organization not found with Grant access have zero axe violations', async ({ page, context }) => {
      // An unactivated user may not open the account settings: 403.
      await logIn(page, 'newbie@example.com', DEMO.password);
      await page.goto('/account');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied');
      await noViolations(page, 'Access denied');

      await context.clearCookies();
      await logIn(page, 'admin@example.com', DEMO.password);
      await page.goto(`/${UNKNOWN}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
      await page.getByRole('button', { name: 'Grant access' }).click();
      await expect(page.getByRole('alert')).toHaveText('Organization does not exist');
      await noViolations(page, 'Organization not found, Grant access and its alert');
    });

    test('the conflict screen holding a live conflict has zero axe violations', async ({ page, context }) => {
      await logIn(page);
      const { organizationId, clipId } = await openFirstClip(page, CLIP[size].conflict);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await context.setOffline(true);
      await clipField(page, 'Title').fill(`Mine at ${size} size`);
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(await syncStatus(page)).toContainText('1 change waiting to sync');

      // The same user changes the same Title meanwhile from another session (the API request does
      // not go through the offline page), so the screen words it as their other device's.
      const xsrf = (await (await page.request.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string };
      const res = await page.request.patch(`/api/v1/clips/${clipId}`, {
        headers: { 'x-organization-id': organizationId, 'x-xsrf-token': xsrf.XsrfToken },
        data: { Title: `Theirs at ${size} size` },
      });
      expect(res.status()).toBe(200);

      await context.setOffline(false);
      await expect(await syncStatus(page)).toHaveText('Needs your decision', { timeout: 20_000 });
      await page.getByRole('link', { name: '1 conflict' }).click();
      await expect(page.getByText('Conflict 1 of 1')).toBeVisible();
      await expect(page.getByRole('row', { name: /Title/ })).toContainText(`Theirs at ${size} size`);
      await noViolations(page, 'conflict screen');
      await page.getByRole('button', { name: 'Keep the other device’s' }).click();
      await expect(page.getByText('There are no conflicts. All your edits are merged.')).toBeVisible();
    });
  });
}
