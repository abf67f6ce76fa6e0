// Issue 6 through the app's own screens, in Chromium: a clip is given real audio through the API
// (PUT /api/v1/clips/{clipId}/audio, then the server processes it to Ready), and on the clip
// screen "a clip's waveform draws; a cut is made by keyboard; the preview plays (the audio
// graph's time advances across the cut, and the skipped region is never scheduled); offline, the
// cached waveform still draws".
// Drawn pixels are read from a screenshot of the waveform (what the user sees: ../audio/waveform-ink.ts).
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { putClipAudio } from '../audio/e2e-clip-audio.ts';
import { expectAWaveform, waveformInk } from '../audio/waveform-ink.ts';
import { logIn, openFirstClip } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test('a clip with real audio: the waveform draws, a cut by keyboard previews across the cut and saves as WAV, and offline the cached waveform draws', async ({ page, context }) => {
  test.setTimeout(120_000);
  // Watch the preview from outside the app: every AudioContext made and every media element routed
  // into one (the preview's decks), before any app code runs.
  await page.addInitScript(() => {
    const g = globalThis as unknown as { __contexts: AudioContext[]; __decks: HTMLMediaElement[]; __playAt?: number };
    g.__contexts = [];
    g.__decks = [];
    const Original = window.AudioContext;
    window.AudioContext = class extends Original {
      constructor(options?: AudioContextOptions) {
        super(options);
        g.__contexts.push(this);
      }
    };
    const route = AudioContext.prototype.createMediaElementSource;
    AudioContext.prototype.createMediaElementSource = function (this: AudioContext, el: HTMLMediaElement) {
      g.__decks.push(el);
      // The graph's time when the preview's first deck starts playing.
      el.addEventListener('play', () => { g.__playAt ??= this.currentTime; });
      return route.call(this, el);
    };
  });

  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 5);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  await putClipAudio(page, organizationId, clipId);

  // The clip screen learns of the new audio through sync and draws the server's waveform.
  const slider = page.getByRole('slider', { name: 'Playback position' });
  await expect(slider).toBeVisible({ timeout: 20_000 });
  await expect(slider).toHaveAttribute('aria-valuetext', '0:00 of 0:12');
  // Chromium has OffscreenCanvas: the waveform is painted by the drawing worker.
  await expect(slider).toHaveAttribute('data-renderer', 'offscreen-canvas');
  await expect.poll(async () => (await waveformInk(page, slider)).columnsWithInk).toBeGreaterThan(0);
  expectAWaveform(await waveformInk(page, slider));

  // Zoom by keyboard: + halves the samples per screen pixel (towards single words), 0 shows the
  // whole episode again.
  await slider.focus();
  const spp = async () => Number(await slider.getAttribute('data-samples-per-pixel'));
  const box = (await slider.boundingBox())!;
  // The whole 12 s across the slider's width, at 44.1 kHz.
  await expect.poll(async () => Math.abs((await spp()) - (12 * 44100) / Math.floor(box.width))).toBeLessThanOrEqual(1);
  const whole = await spp();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await expect.poll(async () => Math.abs((await spp()) - whole / 4)).toBeLessThanOrEqual(1);
  // (The first three seconds alone: quieter than the loudest part of the clip.)
  expectAWaveform(await waveformInk(page, slider), 0.15);
  await page.keyboard.press('0');
  await expect.poll(spp).toBe(whole);

  // Play plays the audio as it is, and the waveform's playhead follows it; Pause keeps it there.
  const editor = page.getByRole('region', { name: 'Cut editor' });
  await editor.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  await editor.getByRole('button', { name: 'Pause' }).click();
  await expect(editor.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  const pausedAt = await slider.getAttribute('aria-valuetext');
  await page.waitForTimeout(700);
  await expect(slider).toHaveAttribute('aria-valuetext', pausedAt!);
  await slider.focus();
  await page.keyboard.press('Home');

  // The slider moves by keyboard and reads the time out.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuetext', '0:02 of 0:12');
  await expect(slider).toHaveAttribute('aria-valuenow', '2');
  await page.keyboard.press('End');
  await expect(slider).toHaveAttribute('aria-valuetext', '0:12 of 0:12');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');

  // A cut by keyboard: I marks the selection start at the playhead, O its end.
  await page.keyboard.press('i');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('o');
  await expect(editor.getByText('Selection 0:02 to 0:05')).toBeVisible();
  const start = editor.getByLabel('Selection start (HH:MM:SS)');
  const end = editor.getByLabel('Selection end (HH:MM:SS)');
  await expect(start).toHaveValue('00:00:02');
  await expect(end).toHaveValue('00:00:05');

  // Numeric entry follows the time rules of section 5 (with tenths of a second): seconds below 60
  // once there are minutes, hours at most 99.
  await start.fill('2:75');
  await start.press('Enter');
  await expect(editor.getByRole('alert')).toHaveText('Enter a time as HH:MM:SS.s or M:SS.s (for example 00:01:30.5 or 1:30.5), with minutes and seconds below 60');
  await expect(start).toHaveAttribute('aria-invalid', 'true');
  await start.fill('100:00:00');
  await start.press('Enter');
  await expect(editor.getByRole('alert')).toHaveText('Hours cannot be more than 99');
  await start.fill('00:00:07');
  await start.press('Enter');
  await expect(editor.getByRole('alert')).toHaveText('The selection end must be after its start');
  await start.fill('00:00:02');
  await end.fill('00:00:05');
  await end.press('Enter');
  await expect(editor.getByRole('alert')).toHaveCount(0);
  await expect(editor.getByText('Selection 0:02 to 0:05')).toBeVisible();

  await editor.getByRole('button', { name: 'Remove selection' }).press('Enter');
  await expect(editor.getByText('Kept 0:09 in 2 parts')).toBeVisible();
  // Undo and redo by keyboard.
  await page.keyboard.press('Control+z');
  await expect(editor.getByText('Kept 0:12 in 1 part')).toBeVisible();
  await page.keyboard.press('Control+Shift+z');
  await expect(editor.getByText('Kept 0:09 in 2 parts')).toBeVisible();

  // The preview plays from the start: record every position the slider shows while it plays.
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute('aria-valuenow', '0');
  await page.evaluate(() => {
    const g = globalThis as unknown as { __positions: number[] };
    g.__positions = [];
    const el = document.querySelector('[role="slider"]')!;
    new MutationObserver(() => g.__positions.push(Number(el.getAttribute('aria-valuenow')))).observe(el, { attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  await editor.getByRole('button', { name: 'Preview cut' }).press('Enter');
  await expect(editor.getByRole('button', { name: 'Stop preview' })).toHaveAttribute('aria-pressed', 'true');
  // Across the cut: the playhead, read from the graph's clock, reaches the kept part after it.
  await expect(slider).toHaveAttribute('aria-valuenow', '6', { timeout: 20_000 });
  const seen = await page.evaluate(() => {
    const g = globalThis as unknown as { __contexts: AudioContext[]; __decks: HTMLMediaElement[]; __positions: number[] };
    const played: Array<[number, number]> = [];
    for (const d of g.__decks) for (let i = 0; i < d.played.length; i++) played.push([d.played.start(i), d.played.end(i)]);
    return { now: g.__contexts.at(-1)!.currentTime, t0: (g as unknown as { __playAt: number }).__playAt, positions: g.__positions, played, decks: g.__decks.length };
  });
  // On the graph's clock, more than the 2 s kept before the cut have passed since the preview began.
  expect(seen.now - seen.t0).toBeGreaterThan(2);
  expect(seen.positions.some((p) => p === 1)).toBe(true);
  expect(seen.positions.some((p) => p >= 6)).toBe(true);
  // The removed 0:02–0:05 is never shown as playing and never played by either deck (a deck is
  // paused by a 10 ms scheduler after its gain reaches 0, hence the margin at the edges).
  expect(seen.positions.filter((p) => p === 3 || p === 4)).toEqual([]);
  expect(seen.decks).toBe(2);
  expect(seen.played.length).toBeGreaterThan(0);
  for (const [a, b] of seen.played) expect(a < 4.5 && b > 2.5, `deck played ${a}–${b}`).toBe(false);
  await editor.getByRole('button', { name: 'Stop preview' }).press('Enter');
  await expect(editor.getByRole('button', { name: 'Preview cut' })).toBeVisible();

  // A WAV of the preview on request: the 9 kept seconds less one 10 ms crossfade.
  const download = page.waitForEvent('download');
  await editor.getByRole('button', { name: 'Save the preview as WAV' }).press('Enter');
  const wav = readFileSync(await (await download).path());
  expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(wav.subarray(8, 12).toString('latin1')).toBe('WAVE');
  const channels = wav.readUInt16LE(22);
  expect(wav.readUInt32LE(24)).toBe(44100);
  expect(wav.readUInt32LE(40) / (2 * channels)).toBe(9 * 44100 - 441);
  expect(wav.length).toBe(44 + wav.readUInt32LE(40));

  // The waveform is cached in IndexedDB for this audio, every level: the cut editor decodes the
  // clip's original upload on the device (a saved cut's regions are on its timeline).
  const cached = await page.evaluate((id) => new Promise<number[]>((resolve, reject) => {
    const open = indexedDB.open('castaway-waveforms');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const all = open.result.transaction('waveforms').objectStore('waveforms').getAll();
      all.onsuccess = () => resolve((all.result as Array<{ key: string; levels: ArrayBuffer[] }>).filter((r) => r.key.startsWith(id)).map((r) => r.levels.length));
    };
  }), clipId);
  expect(cached).toHaveLength(1);
  expect(cached[0]).toBeGreaterThanOrEqual(2);

  // Offline: the shell comes from the service worker, the clip from IndexedDB and the waveform
  // from the waveform cache, so it draws at once.
  await context.setOffline(true);
  await page.reload();
  await expect(slider).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => (await waveformInk(page, slider)).columnsWithInk).toBeGreaterThan(0);
  expectAWaveform(await waveformInk(page, slider));
  await context.setOffline(false);
});
