// Page helpers that read like a person using the studio.
import { gunzipSync } from 'node:zlib';
import { expect, type Locator, type Page, type Request } from '@playwright/test';
import { firstSyncDone, indexedDbCounts } from './local-data.ts';

export const DEMO = { email: 'demo@example.com', password: 'castaway-demo' };

export async function logIn(page: Page, email = DEMO.email, password = DEMO.password): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // Signing in hashes the password and the shell's chunk loads: on a loaded 2-core CI machine with
  // two workers this took longer than the default 10 s once (analytics-journey, stop 48).
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 30_000 });
  // The first screen's heading: the store-owner check (StoreOwnerGate) has passed and the screen's
  // chunk has loaded, so the specs that follow start from the screen, not from 'Loading…'.
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
}

/** The organization id in the current URL. */
export function organizationIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.split('/')[1];
  if (!id) throw new Error(`no organization in ${page.url()}`);
  return id;
}

/**
 * The organization home, from where logIn lands: a member of several organizations is on the
 * organization list and opens its first entry; a member of one is on its home already ('/' takes
 * them there). Returns the organization id.
 */
export async function openOrganizationHome(page: Page): Promise<string> {
  if (new URL(page.url()).pathname === '/') await page.getByRole('list').getByRole('link').first().click();
  // A fresh device shows the organization once its first download has ended.
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible({ timeout: 30_000 });
  return organizationIdOf(page);
}

/**
 * Organization → program → a clip, by clicking; returns the ids from the URL. Specs that edit use
 * different clips (`index`) so parallel workers never edit the same row.
 */
export async function openFirstClip(page: Page, index = 0): Promise<{ organizationId: string; programId: string; clipId: string }> {
  await openOrganizationHome(page);
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');
  // The list is whole only once the first sync has completed: before, the nth clip of the pages
  // pulled so far is another clip (perhaps another spec's), which then sorts out of view.
  await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
  await page.getByTestId('clip-list').getByRole('link').nth(index).click();
  // The clip screen's chunk loads on the first visit: on a loaded two-core machine it still showed
  // 'Loading…' after the default 10 s twice (update-prompt, admin-snapshot; stop 66's CI runs).
  await expect(clipDetails(page)).toBeVisible({ timeout: 30_000 });
  const [, organizationId, , programId, , clipId] = new URL(page.url()).pathname.split('/');
  return { organizationId: organizationId!, programId: programId!, clipId: clipId! };
}

/** The clip screen's Details form. */
export function clipDetails(page: Page): Locator {
  return page.getByRole('form', { name: 'Details' });
}

/** A field of the clip screen's Details form, by its label: the chapters editor further down has
 *  Title fields of its own (one per chapter), so a plain getByLabel('Title') finds more than one on
 *  a clip with chapters. */
export function clipField(page: Page, label: string): Locator {
  return clipDetails(page).getByLabel(label, { exact: true });
}

export async function syncStatus(page: Page) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('status');
}

/**
 * Waits until every change made on the device has left it: the outbox in IndexedDB is empty and the
 * status says so. The status alone is not enough right after an action: it still reads 'All changes
 * saved' from before the action while the local write is on its way, and a navigation or a check of
 * the server then races the write.
 */
export async function allChangesSaved(page: Page, timeout = 20_000): Promise<void> {
  await expect.poll(async () => (await indexedDbCounts(page, 'castaway'))['outbox'] ?? 0, { timeout }).toBe(0);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout });
}

/** Presses the form's Apply, waits for the form to take the edit (Apply is disabled again once the
 * local write is done), then for the edit to leave the device. */
export async function applyAndSync(page: Page, timeout = 20_000): Promise<void> {
  const apply = page.getByRole('button', { name: 'Apply' });
  await apply.click();
  await expect(apply).toBeDisabled();
  await allChangesSaved(page, timeout);
}

/**
 * A request's body as the server reads it: the sync worker gzips a push of 1 KB or more once an
 * answer has said the server takes that, so the raw bytes may not contain the text looked for.
 */
export function requestText(req: Request): string {
  const body = req.postDataBuffer() ?? Buffer.alloc(0);
  return (req.headers()['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
}

/** GET through the page's own cookies (the same session the browser holds). */
export async function apiGet<T>(page: Page, path: string, organizationId: string): Promise<T> {
  const res = await page.request.get(`/api${path}`, { headers: { 'x-organization-id': organizationId } });
  expect(res.status(), `${path} status`).toBe(200);
  return (await res.json()) as T;
}

/** The help menu of section 2, for every signed-in user. */
export const HELP_MENU = ['Documentation', 'Contact support', 'Service status', 'About', 'Terms and policies', 'Version: 1.0.2625'];

/** Opens a navigation menu, reads its items, group labels and text lines, and closes it. */
export async function menuItems(page: Page, menu: string): Promise<string[]> {
  await page.getByRole('button', { name: menu }).click();
  const content = page.getByRole('menu');
  await expect(content).toBeVisible();
  const texts = (await content.locator('.menu-item, .menu-group-label, .menu-text').allTextContents()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  await expect(content).toBeHidden();
  return texts;
}

/** Sends a contact enquiry from the help menu that the server refuses (500); returns the dialog. */
export async function sendRefusedEnquiry(page: Page): Promise<Locator> {
  await page.route('**/api/internal/custom-support', (route) => route.fulfill({ status: 500 }));
  await page.getByRole('button', { name: 'Help' }).click();
  await page.getByRole('menuitem', { name: 'Contact support' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact support' });
  await dialog.getByLabel('Enquiry').fill('Hello');
  await dialog.getByRole('button', { name: 'Send' }).click();
  return dialog;
}

/** A call of the studio's API with the page's session (its XSRF token read for the call) in the
 *  organization `organizationId`: a JSON body, or raw bytes (an audio upload). Fails the test on an
 *  answer that is not a success; returns the JSON answer ({} for none). */
export async function studioApi(page: Page, organizationId: string, method: string, path: string, body?: unknown, raw?: Buffer): Promise<Record<string, unknown>> {
  const xsrf = ((await (await page.request.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string }).XsrfToken;
  const headers: Record<string, string> = { 'x-xsrf-token': xsrf, 'x-organization-id': organizationId };
  if (raw) headers['content-type'] = 'application/octet-stream';
  const res = await page.request.fetch(`/api${path}`, { method, headers, ...(raw ? { data: raw } : body !== undefined ? { data: body } : {}) });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  const text = await res.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
