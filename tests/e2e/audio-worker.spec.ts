// The browser-only audio parts in Debian's Chromium: the decode worker (as the PWA starts it,
// bundled here with esbuild) decodes AAC in MP4/M4A/ADTS with WebCodecs (Node cannot), the
// waveform cache round-trips through Cache Storage, and a cut preview plays on a real
// AudioContext: the graph's time advances across the cut and the removed region is never scheduled.
// The page and files are served by page.route under the app's origin (no app screens involved).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = SHARED_FIXTURES_DIR;
const ref = (name: string) => JSON.parse(readFileSync(join(root, 'tests/audio/fixtures-ref', `${name}.json`), 'utf8')) as {
  sampleRate: number; ffprobeDurationSeconds: number; ffmpegDecodedFrames: number; peaks: number[];
};

const PAGE = `
import * as Comlink from 'comlink';
import { cacheStorageWaveformCacheOf } from './workers/audio/waveform-cache.ts';
import { createPreviewPlayer } from './src/ui/audio/preview-player.ts';
const api = Comlink.wrap(new Worker('/__audio-test/worker.js', { type: 'module' }));
globalThis.analyze = async (name) => {
  const blob = await (await fetch('/__audio-test/files/' + name)).blob();
  const r = await api.analyze(name, { kind: 'blob', blob }, [1024], null);
  if (!r.ok) return r;
  return { ok: true, frames: r.frames, sampleRate: r.sampleRate, durationSeconds: r.durationSeconds, peaks: Array.from(r.waveforms[0].data) };
};
globalThis.cacheRoundTrip = async () => {
  const cache = cacheStorageWaveformCacheOf(caches, 'castaway-waveforms-test');
  const blob = await (await fetch('/__audio-test/files/speech-12s.flac')).blob();
  const r = await api.analyze('c', { kind: 'blob', blob }, null, null);
  await cache.put('clip:x', { durationSeconds: r.durationSeconds, sampleRate: r.sampleRate, waveforms: r.waveforms });
  const back = await cache.get('clip:x');
  return { same: JSON.stringify(back.waveforms.map((w) => Array.from(w.data))) === JSON.stringify(r.waveforms.map((w) => Array.from(w.data))), levels: back.waveforms.map((w) => w.samplesPerPixel), missing: await cache.get('clip:none') };
};
document.querySelector('#play').addEventListener('click', async () => {
  const player = createPreviewPlayer('/__audio-test/files/speech-12s.mp3');
  globalThis.player = player;
  await player.play([{ start: 0, end: 1 }, { start: 4, end: 6 }], 10);
  globalThis.playStarted = player.context.currentTime;
});
globalThis.ready = true;
`;

test('the decode worker, the waveform cache and the cut preview in Chromium', async ({ page }) => {
  test.setTimeout(120_000);
  const [worker, pageJs] = await Promise.all([
    build({ entryPoints: [join(root, 'workers/audio/decode.worker.ts')], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error' }),
    build({ stdin: { contents: PAGE, resolveDir: root, loader: 'ts' }, bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error' }),
  ]);
  await page.route('**/__audio-test/**', async (route) => {
    const path = new URL(route.request().url()).pathname.replace('/__audio-test/', '');
    if (path === 'index.html') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><button id="play">Play</button><script type="module" src="/__audio-test/page.js"></script>' });
    if (path === 'page.js') return route.fulfill({ contentType: 'text/javascript', body: pageJs.outputFiles[0]!.text });
    if (path === 'worker.js') return route.fulfill({ contentType: 'text/javascript', body: worker.outputFiles[0]!.text });
    if (path.startsWith('files/')) return route.fulfill({ contentType: 'application/octet-stream', body: readFileSync(join(fixtures, path.slice(6))) });
    return route.fulfill({ status: 404 });
  });
  await page.goto('/__audio-test/index.html');
  await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true);

  // AAC: duration within one AAC frame of ffmpeg's decode; peaks close to ffmpeg's (a different
  // AAC decoder: within 2 % of full scale for 99 % of values).
  for (const name of ['speech-12s.m4a', 'speech-12s-audio-only.mp4', 'speech-12s.aac', 'video-12s.mp4', 'speech-12s.mp3']) {
    const r = await page.evaluate((n) => (globalThis as unknown as { analyze: (n: string) => Promise<{ ok: boolean; frames: number; durationSeconds: number; peaks: number[]; message?: string }> }).analyze(n), name);
    expect(r.ok, `${name}: ${r.message ?? ''}`).toBe(true);
    const reference = ref(name);
    const truth = name.endsWith('.mp3') || name.endsWith('.aac') ? reference.ffmpegDecodedFrames / reference.sampleRate : reference.ffprobeDurationSeconds;
    expect(Math.abs(r.durationSeconds - truth), name).toBeLessThanOrEqual(1152 / reference.sampleRate);
    const n = Math.min(r.peaks.length, reference.peaks.length);
    let close = 0;
    for (let i = 0; i < n; i++) if (Math.abs(r.peaks[i]! - reference.peaks[i]!) <= 0.02 * 32767) close++;
    expect(close / n, name).toBeGreaterThanOrEqual(0.99);
  }

  const cache = await page.evaluate(() => (globalThis as unknown as { cacheRoundTrip: () => Promise<{ same: boolean; levels: number[]; missing: unknown }> }).cacheRoundTrip());
  expect(cache).toEqual({ same: true, levels: [256, 1024, 4096, 16384, 65536], missing: null });

  // Preview: keep 0–1 s and 4–6 s. A click is the user gesture Web Audio needs.
  await page.click('#play');
  await page.waitForFunction(() => (globalThis as { playStarted?: number }).playStarted !== undefined);
  const scheduled = await page.evaluate(() => (globalThis as unknown as { player: { scheduled: () => Array<{ sourceStart: number; sourceEnd: number }> } }).player.scheduled().map((s) => [s.sourceStart, s.sourceEnd]));
  expect(scheduled).toEqual([[0, 1], [4, 6]]);
  expect(scheduled.some(([a, b]) => a! < 4 && b! > 1)).toBe(false);
  // The graph's clock runs past the cut, and the preview position moves from the first segment into the second.
  await page.waitForFunction(() => {
    const g = globalThis as unknown as { player: { context: AudioContext; position: () => number | null }; playStarted: number };
    const p = g.player.position();
    return g.player.context.currentTime > g.playStarted + 1.2 && p !== null && p >= 4;
  }, undefined, { timeout: 15_000 });
});
