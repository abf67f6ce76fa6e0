// The recording screen in e2e specs (recording-audio, annotations): opening a demo recording, its
// audio region and position slider, and the same recording opened again offline.
import { expect, type BrowserContext, type Page } from '@playwright/test';

export async function openRecording(page: Page, program: string, recording: RegExp): Promise<void> {
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link', { name: program }).click();
  await page.getByRole('tab', { name: 'Recordings' }).click();
  await page.getByRole('tabpanel').getByRole('link', { name: recording }).click();
  await expect(page.getByRole('region', { name: 'Annotations' })).toBeVisible();
}

export const audio = (page: Page) => page.getByRole('region', { name: 'Audio' });
export const position = (page: Page) => audio(page).getByRole('slider', { name: 'Playback position' });

/** The demo's 12 s recording loaded (its length shown), with the service worker ready. */
export async function recordingLoaded(page: Page): Promise<void> {
  await expect(position(page)).toHaveAttribute('aria-valuetext', '0:00 of 0:12', { timeout: 20_000 });
}

/** The open recording, reloaded with the device offline: what the device alone has. */
export async function reloadOffline(page: Page, context: BrowserContext): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await context.setOffline(true);
  await page.reload();
  await recordingLoaded(page);
}
