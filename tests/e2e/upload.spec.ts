// Issue 6, "Uploads that survive a flaky link": a file picked offline is kept in IndexedDB, shown
// queued with a progress bar, survives a reload, and is uploaded when the network returns; the
// clip then reaches Ready on the server. Cancel forgets the file; a file the rules refuse is never queued.
// A file picked for a clip that has audio (or a file under way) asks first (issue 29): Cancel keeps
// the audio and queues nothing, Replace queues the file.
// Clips 8, 9, 13 and 14 of the first program are this spec's (sync.spec.ts edits 10 to 12).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiGet, logIn, openFirstClip } from './support.ts';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const fixtures = SHARED_FIXTURES_DIR;

/** Confirms the replacement of a clip's audio (or of a file still under way), as asked. */
async function confirmReplace(page: Page, fileName: string) {
  const ask = page.getByRole('alertdialog', { name: 'Replace the audio?' });
  await expect(ask).toContainText(fileName);
  await ask.getByRole('button', { name: 'Replace' }).click();
  await expect(ask).toHaveCount(0);
}

/** Confirms the replacement if the studio asks (the clip serves audio, or a file of it is under way):
 *  for the tests where the question is not what they are about, whichever state the nth clip of the
 *  demo is in. The question itself is tested on a clip known to have audio, below. */
async function replaceIfAsked(page: Page, fileName: string) {
  const ask = page.getByRole('alertdialog', { name: 'Replace the audio?' });
  await expect(ask.or(page.getByRole('progressbar', { name: `Upload of ${fileName}` })).first()).toBeVisible();
  if (await ask.isVisible()) await confirmReplace(page, fileName);
}

/** The uploads kept on the device (database 'castaway-uploads'): file name and whether the file itself is still there. */
function keptUploads(page: Page) {
  return page.evaluate(
    () =>
      new Promise<Array<{ fileName: string; hasBlob: boolean; state: string }>>((done, fail) => {
        const open = indexedDB.open('castaway-uploads');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('uploads').objectStore('uploads').getAll();
          all.onsuccess = () => {
            done((all.result as Array<{ fileName: string; blob: Blob | null; state: string }>).map((r) => ({ fileName: r.fileName, hasBlob: r.blob !== null, state: r.state })));
            open.result.close();
          };
        };
      }),
  );
}

test('an episode picked offline is kept, survives a reload, uploads with a progress bar to 100 % when back online, and the clip becomes Ready', async ({ page, context }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 9);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  await context.setOffline(true);
  await page.getByLabel('Upload an audio file').setInputFiles(resolve(fixtures, 'speech-12s-stereo.wav'));
  const bar = page.getByRole('progressbar', { name: 'Upload of speech-12s-stereo.wav' });
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  await expect(page.getByText(/Paused while offline at 0%/)).toBeVisible();
  expect(await keptUploads(page)).toEqual([{ fileName: 'speech-12s-stereo.wav', hasBlob: true, state: 'queued' }]);

  await page.reload();
  await expect(bar).toBeVisible();
  await expect(page.getByText(/Paused while offline at 0%/)).toBeVisible();

  await context.setOffline(false);
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 30_000 });
  // The server has it all: the copy on the device is gone, the 100 % row stays until dismissed.
  await expect.poll(() => keptUploads(page)).toEqual([{ fileName: 'speech-12s-stereo.wav', hasBlob: false, state: 'done' }]);
  await expect
    .poll(async () => (await apiGet<{ State: string }>(page, `/v1/clips/${clipId}`, organizationId)).State, { timeout: 30_000 })
    .toBe('Ready');
  const clip = await apiGet<{ UploadedAudioFileName: string; DurationSeconds: number }>(page, `/v1/clips/${clipId}`, organizationId);
  expect(clip).toMatchObject({ UploadedAudioFileName: 'speech-12s-stereo.wav', DurationSeconds: 12 });
  // The row follows the clip: once its waveform is drawn it no longer says the server is processing.
  await expect(page.getByRole('slider', { name: 'Playback position' })).toHaveAttribute('aria-valuetext', '0:00 of 0:12', { timeout: 20_000 });
  await expect(bar).toHaveAttribute('aria-valuetext', 'Uploaded and processed: the audio is ready');
  await expect(page.getByText('The server is processing the audio')).toHaveCount(0);

  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(bar).toHaveCount(0);
});

test('a file for a clip with audio asks first and Cancel keeps the audio; cancel forgets a queued file; a file type the rules refuse is never queued', async ({ page, context }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 8);
  const before = await apiGet<{ State: string; Urls: { AudioPrivateUrl: string | null } }>(page, `/v1/clips/${clipId}`, organizationId);
  expect(before.State).toBe('Ready');

  await page.getByLabel('Upload an audio file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not audio') });
  await expect(page.getByRole('alert')).toContainText('Accepted formats: m4a, mp3, mp4, aac, wav, flac, aif, aiff');
  expect(await keptUploads(page)).toEqual([]);

  // The clip is Ready: a new file asks first, naming it; Cancel leaves everything as it was.
  await page.getByLabel('Upload an audio file').setInputFiles(resolve(fixtures, 'speech-12s.mp3'));
  const ask = page.getByRole('alertdialog', { name: 'Replace the audio?' });
  await expect(ask).toContainText('Replace this clip’s audio with speech-12s.mp3? The current audio stays published until the new file is ready.');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  expect(await keptUploads(page)).toEqual([]);

  await context.setOffline(true);
  await page.getByLabel('Upload an audio file').setInputFiles(resolve(fixtures, 'speech-12s.mp3'));
  await confirmReplace(page, 'speech-12s.mp3');
  const bar = page.getByRole('progressbar', { name: 'Upload of speech-12s.mp3' });
  await expect(bar).toBeVisible();
  await page.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(bar).toHaveCount(0);
  expect(await keptUploads(page)).toEqual([]);

  await context.setOffline(false);
  await page.waitForTimeout(1500);
  expect(await apiGet<{ State: string; Urls: { AudioPrivateUrl: string | null } }>(page, `/v1/clips/${clipId}`, organizationId)).toMatchObject({ State: before.State, Urls: { AudioPrivateUrl: before.Urls.AudioPrivateUrl } });
});

test('an upload cut by a reload resumes from the bytes the server already has, not from zero', async ({ page }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 13);
  // A slow uplink (256 KiB/s): the 2 MB file takes about 8 s, long enough to reload in the middle.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });

  await page.getByLabel('Upload an audio file').setInputFiles(resolve(fixtures, 'speech-12s-stereo.wav'));
  await replaceIfAsked(page, 'speech-12s-stereo.wav');
  const bar = page.getByRole('progressbar', { name: 'Upload of speech-12s-stereo.wav' });
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThanOrEqual(30);
  const before = Number(await bar.getAttribute('aria-valuenow'));
  expect(before).toBeLessThan(100);

  // The next PATCH is the one after the reload: tus-js-client asks the server (HEAD) where to go on.
  const resumed = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('/api/internal/uploads/'), { timeout: 30_000 });
  await page.reload();
  await expect(bar).toBeVisible();
  const size = readFileSync(resolve(fixtures, 'speech-12s-stereo.wav')).length;
  const offset = Number((await resumed).headers()['upload-offset']);
  expect(offset).toBeGreaterThan(size * 0.2);
  expect(offset).toBeLessThan(size);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 30_000 });
  await expect
    .poll(async () => (await apiGet<{ State: string; UploadedAudioFileName: string }>(page, `/v1/clips/${clipId}`, organizationId)), { timeout: 30_000 })
    .toMatchObject({ State: 'Ready', UploadedAudioFileName: 'speech-12s-stereo.wav' });
  // The upload is kept byte for byte as the clip's original (its audio URL serves the MP3 published from it).
  const served = await page.request.get(`/api/internal/clips/${clipId}/original-audio`, { headers: { 'x-organization-id': organizationId } });
  expect((await served.body()).equals(readFileSync(resolve(fixtures, 'speech-12s-stereo.wav')))).toBe(true);
});

test('cancel during an upload stops it and the server forgets the partial file', async ({ page }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 14);
  const before = await apiGet<{ State: string }>(page, `/v1/clips/${clipId}`, organizationId);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 128 * 1024 });

  const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/internal/uploads'));
  await page.getByLabel('Upload an audio file').setInputFiles(resolve(fixtures, 'speech-12s-stereo.wav'));
  const location = (await created).headers()['location']!;
  const bar = page.getByRole('progressbar', { name: 'Upload of speech-12s-stereo.wav' });
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThanOrEqual(10);

  await page.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(bar).toHaveCount(0);
  expect(await keptUploads(page)).toEqual([]);
  await expect
    .poll(async () => (await page.request.head(location, { headers: { 'tus-resumable': '1.0.0', 'x-organization-id': organizationId } })).status())
    .toBe(404);
  expect((await apiGet<{ State: string }>(page, `/v1/clips/${clipId}`, organizationId)).State).toBe(before.State);
});

test('a file the server cannot use says why: the row shows the server’s AudioProcessingProblem, not only the clip’s Error badge', async ({ page }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 15);
  // Random bytes named like audio pass the section-5 rules here and are refused by the server's processing.
  const garbage = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919 + 13) % 251));
  await page.getByLabel('Upload an audio file').setInputFiles({ name: 'garbage.mp3', mimeType: 'audio/mpeg', buffer: garbage });
  await replaceIfAsked(page, 'garbage.mp3');
  const bar = page.getByRole('progressbar', { name: 'Upload of garbage.mp3' });
  await expect
    .poll(async () => (await apiGet<{ State: string }>(page, `/v1/clips/${clipId}`, organizationId)).State, { timeout: 30_000 })
    .toBe('Error');
  await expect(bar).toHaveAttribute('aria-valuetext', 'Uploaded, but the server could not use this audio: The uploaded file is not audio in a format we accept', { timeout: 20_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'garbage.mp3' })).toContainText('The uploaded file is not audio in a format we accept');
});
