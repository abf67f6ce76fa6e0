// Page helpers that read like a person using the studio.
import { expect, type Page } from '@playwright/test';

export const DEMO = { email: 'demo@example.com', password: 'castaway-demo' };

export async function logIn(page: Page, email = DEMO.email, password = DEMO.password): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** The organization id in the current URL. */
export function organizationIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.split('/')[1];
  if (!id) throw new Error(`no organization in ${page.url()}`);
  return id;
}

/**
 * Organization → program → a clip, by clicking; returns the ids from the URL. Specs that edit use
 * different clips (`index`) so parallel workers never edit the same row.
 */
export async function openFirstClip(page: Page, index = 0): Promise<{ organizationId: string; programId: string; clipId: string }> {
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('clip-list').getByRole('link').nth(index).click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  const [, organizationId, , programId, , clipId] = new URL(page.url()).pathname.split('/');
  return { organizationId: organizationId!, programId: programId!, clipId: clipId! };
}

export async function syncStatus(page: Page) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('status');
}

/** GET through the page's own cookies (the same session the browser holds). */
export async function apiGet<T>(page: Page, path: string, organizationId: string): Promise<T> {
  const res = await page.request.get(`/api${path}`, { headers: { 'x-organization-id': organizationId } });
  expect(res.status(), `${path} status`).toBe(200);
  return (await res.json()) as T;
}
