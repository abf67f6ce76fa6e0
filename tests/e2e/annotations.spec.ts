// Issue 36, playback and annotations, in Chromium against the real server and its seeded demo
// recordings (12 s of audio, annotations at 0:00, 0:04 and 0:08): a recording's annotations are
// markers on its waveform that seek the player, by pointer and by keyboard; Play offline plays the
// copy kept on the device once the audio has played online, and says why it cannot when there is
// none; the selection boxes take fractions of a second. Each test uses its own program, so specs
// running beside it never touch the same recordings.
import { expect, test, type Page } from '@playwright/test';
import { audio, openRecording, position, recordingLoaded, reloadOffline } from './recordings.ts';
import { logIn } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const markers = (page: Page) => audio(page).getByRole('group', { name: 'Annotations on the waveform' });
const now = async (page: Page) => Number(await position(page).getAttribute('aria-valuenow'));

test('annotations are markers on the waveform that seek the player; a selection typed as 0:01.5 starts at 1.5 s', async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page);
  await openRecording(page, 'Screen Time', /finalized recording/);
  await recordingLoaded(page);

  // One marker per annotation listed below the audio, at its time.
  const listed = page.getByRole('region', { name: 'Annotations' }).getByRole('listitem');
  await expect(listed).toHaveCount(3);
  await expect(markers(page).getByRole('button')).toHaveCount(3);
  await expect(markers(page).getByRole('button', { name: /^Go to 0:04: / })).toBeVisible();

  // An annotation added on the screen is drawn at once.
  const form = page.getByRole('region', { name: 'Annotations' });
  await form.getByLabel('Time in the recording (HH:MM:SS)').fill('00:00:06');
  await form.getByLabel('Annotation', { exact: true }).fill('Trailer starts');
  await form.getByRole('button', { name: 'Add annotation' }).click();
  const added = markers(page).getByRole('button', { name: 'Go to 0:06: Trailer starts' });
  await expect(added).toBeVisible();
  await expect(markers(page).getByRole('button')).toHaveCount(4);

  // A click seeks there.
  await added.click();
  await expect(position(page)).toHaveAttribute('aria-valuetext', '0:06 of 0:12');
  // The keyboard reaches the markers and Enter seeks too.
  const atFour = markers(page).getByRole('button', { name: /^Go to 0:04: / });
  await atFour.focus();
  await page.keyboard.press('Enter');
  await expect(position(page)).toHaveAttribute('aria-valuetext', '0:04 of 0:12');

  // While it plays, a marker moves the audio itself: from 0:00, a jump to 0:08.
  await position(page).focus();
  await page.keyboard.press('Home');
  await audio(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => now(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  expect(await now(page)).toBeLessThan(4);
  await markers(page).getByRole('button', { name: /^Go to 0:08: / }).click();
  await expect.poll(() => now(page), { timeout: 5_000 }).toBeGreaterThanOrEqual(8);
  // It goes on playing from there (the playhead follows the audio, not just the click).
  await expect.poll(() => now(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(9);
  await audio(page).getByRole('button', { name: 'Pause' }).click();

  // The selection boxes take tenths of a second.
  const start = audio(page).getByLabel('Selection start (HH:MM:SS)');
  const end = audio(page).getByLabel('Selection end (HH:MM:SS)');
  await start.fill('0:01.5');
  await end.fill('00:00:04');
  await end.press('Enter');
  await expect(position(page)).toHaveAttribute('data-selection-start', '1.500');
  await expect(position(page)).toHaveAttribute('data-selection-end', '4.000');
  await expect(start).toHaveAttribute('aria-invalid', 'false');
  await audio(page).getByRole('button', { name: 'Keep selection only' }).click();
  // 4 − 1.5 = 2.5 s kept (whole seconds read out).
  await expect(audio(page).getByText('Kept 0:02 in 1 part')).toBeVisible();

  // Something that is not a time is refused at its box, with the forms it takes.
  await start.fill('1:75.5');
  await start.press('Enter');
  await expect(start).toHaveAttribute('aria-invalid', 'true');
  await expect(start).toBeFocused();
  await expect(audio(page).getByRole('alert')).toHaveText('Enter a time as HH:MM:SS.s or M:SS.s (for example 00:01:30.5 or 1:30.5), with minutes and seconds below 60');
  await expect(position(page)).toHaveAttribute('data-selection-start', '1.500');
  // Past the recording's end: the end is named.
  await start.fill('0:01.5');
  await end.fill('0:12.5');
  await end.press('Enter');
  await expect(end).toHaveAttribute('aria-invalid', 'true');
  await expect(audio(page).getByRole('alert')).toHaveText('The recording ends at 00:00:12: enter a time up to then');
});

test('offline, Play says the audio is not on this device yet; once played online it is kept, and plays offline', async ({ page, context }) => {
  test.setTimeout(120_000);
  await logIn(page);
  await openRecording(page, 'Soundcheck', /finalized recording/);
  await recordingLoaded(page);

  // Never played here: offline there is nothing to play, and the screen says why and when it will.
  await reloadOffline(page, context);
  await audio(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expect(audio(page).getByRole('alert')).toHaveText('This audio is not on this device yet: it plays when you are back online');
  await expect(audio(page).getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  expect(await now(page)).toBe(0);

  // Played online, it is kept on the device…
  await context.setOffline(false);
  await page.reload();
  await recordingLoaded(page);
  await audio(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => now(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  await audio(page).getByRole('button', { name: 'Pause' }).click();
  const keptFiles = () => page.evaluate(async () => (await (await caches.open('castaway-audio-v1')).keys()).length);
  await expect.poll(keptFiles, { timeout: 15_000 }).toBe(1);

  // …so offline, after a reload (nothing left in the page's memory), Play plays it.
  await context.setOffline(true);
  await page.reload();
  await recordingLoaded(page);
  await audio(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => now(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  await expect(audio(page).getByRole('alert')).toHaveCount(0);
  // A marker seeks the kept copy too.
  await markers(page).getByRole('button', { name: /^Go to 0:08: / }).click();
  await expect.poll(() => now(page), { timeout: 5_000 }).toBeGreaterThanOrEqual(8);
  await audio(page).getByRole('button', { name: 'Pause' }).click();
  await context.setOffline(false);
});
