// The recording screen's audio, in Chromium against the real server and its seeded demo audio
// (sync-server/audio/demo-media.ts): a Finalized recording draws the server's waveform and plays;
// keeping a region and making a clip of it gives a new clip of the program, listed under the
// recording, that becomes Ready and opens with that cut; made offline, the clip waits to sync and
// gets its audio when the network returns; Live, Processing and zero-duration recordings show
// what section 4 says they have; a missing waveform file or an offline device is said in words.
// Each test uses its own program, so specs running beside it never touch the same recordings.
import { expect, test, type Page } from '@playwright/test';
import { expectAWaveform, waveformInk } from '../audio/waveform-ink.ts';
import { audio, openRecording, position, recordingLoaded, reloadOffline } from './recordings.ts';
import { logIn } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const spp = async (page: Page) => Number(await position(page).getAttribute('data-samples-per-pixel'));

/** I and O around [from, to] seconds by keyboard, then "Keep selection only". */
async function keepOnly(page: Page, from: number, to: number): Promise<void> {
  const slider = position(page);
  await slider.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < from; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('i');
  for (let i = from; i < to; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('o');
  await audio(page).getByRole('button', { name: 'Keep selection only' }).click();
}

test('a Finalized recording draws its waveform and plays; its kept region becomes a new clip that is Ready and opens with that cut', async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page);
  await openRecording(page, 'Business Hour', /finalized recording/);
  const slider = position(page);
  await expect(slider).toHaveAttribute('aria-valuetext', '0:00 of 0:12', { timeout: 20_000 });
  // The server's waveform file, drawn: speech, not a flat line.
  await expect.poll(async () => (await waveformInk(page, slider)).columnsWithInk).toBeGreaterThan(0);
  expectAWaveform(await waveformInk(page, slider));

  // Play plays the recording as it is; the playhead follows it; Pause stops it there.
  await audio(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  await audio(page).getByRole('button', { name: 'Pause' }).click();
  await expect(audio(page).getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // Keep 0:03–0:07 and make a clip of it.
  await keepOnly(page, 3, 7);
  await expect(audio(page).getByText('Kept 0:04 in 1 part')).toBeVisible();
  await audio(page).getByLabel('Title of the new clip').fill('');
  await audio(page).getByRole('button', { name: 'Make a clip of the kept audio' }).click();
  await expect(audio(page).getByText('You must enter a title')).toBeVisible();
  await expect(audio(page).getByLabel('Title of the new clip')).toBeFocused();
  await audio(page).getByLabel('Title of the new clip').fill('Business Hour: the interview');
  await audio(page).getByRole('button', { name: 'Make a clip of the kept audio' }).click();
  await expect(audio(page).getByRole('status').filter({ hasText: 'made from' })).toHaveText('Clip “Business Hour: the interview” made from 0:04 of this recording. Open the clip');

  // Listed under the recording; once synced and processed on the server it is Ready.
  const made = audio(page).getByRole('list', { name: 'Clips made from this recording' }).getByRole('listitem').filter({ hasText: 'Business Hour: the interview' });
  await expect(made).toBeVisible();
  await expect(made.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });

  // The new clip opens with the recording's audio and the kept region as its cut.
  await audio(page).getByRole('link', { name: 'Open the clip' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Business Hour: the interview' })).toBeVisible();
  const editor = page.getByRole('region', { name: 'Cut editor' });
  await expect(editor.getByRole('slider', { name: 'Playback position' })).toHaveAttribute('aria-valuetext', '0:00 of 0:12', { timeout: 20_000 });
  await expect(editor.getByText('Kept 0:04 in 1 part')).toBeVisible();
  await editor.getByRole('button', { name: 'Preview cut' }).click();
  await expect.poll(async () => Number(await editor.getByRole('slider', { name: 'Playback position' }).getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
  await editor.getByRole('button', { name: 'Stop preview' }).click();
});

test('offline: the cached waveform draws, a clip made of the kept audio waits to sync, and gets its audio when the network returns', async ({ page, context }) => {
  test.setTimeout(120_000);
  await logIn(page);
  await openRecording(page, 'Matchday Live', /finalized recording/);
  await recordingLoaded(page);
  await reloadOffline(page, context);
  await expect.poll(async () => (await waveformInk(page, position(page))).columnsWithInk).toBeGreaterThan(0);
  // Playing needs the file itself, which is not kept on the device (it was never played here): said in words.
  await audio(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expect(audio(page).getByRole('alert')).toHaveText('This audio is not on this device yet: it plays when you are back online');
  // So does the cut preview, which streams the file too.
  await audio(page).getByRole('button', { name: 'Preview cut' }).click();
  await expect(audio(page).getByRole('alert')).toHaveText('This audio is not available offline yet: it loads when the network returns');
  await expect(audio(page).getByRole('button', { name: 'Preview cut' })).toHaveAttribute('aria-pressed', 'false');

  await keepOnly(page, 5, 9);
  await audio(page).getByLabel('Title of the new clip').fill('Matchday: the final whistle');
  await audio(page).getByRole('button', { name: 'Make a clip of the kept audio' }).click();
  const made = audio(page).getByRole('list', { name: 'Clips made from this recording' }).getByRole('listitem').filter({ hasText: 'Matchday: the final whistle' });
  await expect(made.getByText('Waiting to sync: gets its audio once sent')).toBeVisible();

  await context.setOffline(false);
  await expect(made.getByText('Ready', { exact: true })).toBeVisible({ timeout: 45_000 });
  await made.getByRole('link', { name: 'Matchday: the final whistle' }).click();
  await expect(page.getByRole('region', { name: 'Cut editor' }).getByText('Kept 0:04 in 1 part')).toBeVisible({ timeout: 20_000 });
});

test('Live, Processing and zero-duration recordings show what they have; a phone sees the whole recording', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page);
  // Live: audio but no waveform files yet, so the waveform is made on this device from the audio.
  await openRecording(page, 'Morning Briefing', /live recording/);
  await expect(audio(page).getByText('Live recording: the waveform is drawn on this device from the audio recorded so far.')).toBeVisible();
  await recordingLoaded(page);
  // The whole 12 s across the phone's width.
  const box = (await position(page).boundingBox())!;
  await expect.poll(async () => Math.abs((await spp(page)) - (12 * 44100) / Math.floor(box.width))).toBeLessThanOrEqual(1);

  await page.goBack();
  await page.getByRole('tabpanel').getByRole('link', { name: /processing recording/ }).click();
  await expect(audio(page).getByText('This recording is still being processed: its audio appears here when it is ready.')).toBeVisible();
  await expect(position(page)).toHaveCount(0);

  await page.goBack();
  await page.getByRole('tabpanel').getByRole('link', { name: /test capture/ }).click();
  await expect(audio(page).getByText('This recording has no audio.')).toBeVisible();
  await expect(position(page)).toHaveCount(0);
});

test('a waveform file the server does not have is said in words, and Try again loads it once it is there', async ({ page }) => {
  let missing = true;
  await page.route('**/api/media/recordings/*/waveform-high.dat', (route) => (missing ? route.fulfill({ status: 404 }) : route.fallback()));
  await logIn(page);
  await openRecording(page, 'Community Notices', /finalized recording/);
  await expect(audio(page).getByRole('alert')).toHaveText('The audio could not be downloaded: the server does not have this file');
  missing = false;
  await audio(page).getByRole('button', { name: 'Try again' }).click();
  await recordingLoaded(page);
});
