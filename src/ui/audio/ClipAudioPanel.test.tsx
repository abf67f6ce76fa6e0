// @vitest-environment happy-dom
// The clip's cut editor opened offline: the waveform of the original comes from the device's
// waveform cache (as decoded there before), and the saved cut from the device's cut cache
// (src/db/cut-cache-db.ts), so the regions last saved show; a clip whose cut this device never
// learnt opens uncut and says so at Save. Online, the server's cut (a local HTTP server here) is
// what opens, and the device keeps it; a cut saved in the editor is kept too.
import 'fake-indexeddb/auto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cachedCut, cutCacheDb, rememberCut } from '../../db/cut-cache-db.ts';
import type { Waveform } from '../../media/peaks.ts';
import type { CutEdit } from '../../protocol/media.ts';
import { defaultWaveformCache } from '../../../workers/audio/waveform-cache.ts';
import { ClipAudioPanel, panelCacheKey, type PanelAudio } from './ClipAudioPanel.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CLIP = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const DURATION = 12;
const audio: PanelAudio = { key: `${CLIP}|/api/internal/clips/${CLIP}/audio?v=1`, urls: { AudioPrivateUrl: `/api/internal/clips/${CLIP}/original-audio` } };
const waveforms: Waveform[] = [256, 4096].map((spp) => {
  const length = Math.ceil((DURATION * 44100) / spp);
  return { version: 2, channels: 1, sampleRate: 44100, samplesPerPixel: spp, bits: 16, length, data: new Int16Array(length * 2) };
});
/** Kept 0:00–0:04 and 0:07–0:12: 9 s in 2 parts. */
const SAVED: CutEdit = { KeptRegions: [{ StartSeconds: 0, EndSeconds: 4 }, { StartSeconds: 7, EndSeconds: 12 }], CrossfadeMs: 10 };
/** What the server keeps: only 0:02–0:08. */
const ON_SERVER: CutEdit = { KeptRegions: [{ StartSeconds: 2, EndSeconds: 8 }], CrossfadeMs: 10 };

// The server's cut (GET /api/internal/clips/{clipId}/cut), served on 127.0.0.1.
let server: Server;
let cutRequests = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === `/api/internal/clips/${CLIP}/cut`) {
      cutRequests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ON_SERVER));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

const roots: Root[] = [];
const settle = () => act(() => new Promise((r) => setTimeout(r, 80)));

async function render(onSave: (edit: CutEdit) => void = () => {}): Promise<HTMLElement> {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  roots.push(root);
  await act(async () => root.render(<ClipAudioPanel audio={audio} savedCut={{ clipId: CLIP }} onSaveCut={onSave} />));
  for (let i = 0; i < 10 && !el.querySelector('[role="slider"]'); i++) await settle();
  return el;
}

const kept = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;
const saveButton = (el: HTMLElement) => [...el.querySelectorAll('button')].find((b) => b.textContent === 'Save cut')!;

beforeEach(async () => {
  cutRequests = 0;
  await cutCacheDb.cuts.clear();
  // The original's waveform, decoded on this device when the clip was last opened online.
  await (await defaultWaveformCache())!.put(panelCacheKey(audio), { durationSeconds: DURATION, sampleRate: 44100, waveforms });
});
afterEach(() => {
  act(() => roots.splice(0).forEach((r) => r.unmount()));
  document.body.innerHTML = '';
});

describe('the cut editor offline', () => {
  it('opens with the cut last saved on this device, and says at Save where it comes from', async () => {
    setOnline(false);
    await rememberCut(CLIP, SAVED);
    const el = await render();
    expect(kept(el)).toContain('Kept 0:09 in 2 parts');
    const note = el.querySelector(`#${CSS.escape(saveButton(el).getAttribute('aria-describedby')!)}`);
    expect(note?.textContent).toBe('Offline: this is the cut last saved on this device. A cut you save now is kept here and sent when the network returns.');
    expect(cutRequests).toBe(0);
  });

  it('a clip whose cut this device never learnt opens uncut, and says so', async () => {
    setOnline(false);
    const el = await render();
    expect(kept(el)).toContain('Kept 0:12 in 1 part');
    expect(el.textContent).toContain('Offline: no saved cut of this clip is kept on this device, so it opens uncut.');
  });

  it('a cut saved offline is handed to the screen (which queues it) and kept as the last saved cut', async () => {
    setOnline(false);
    await rememberCut(CLIP, SAVED);
    const saved: CutEdit[] = [];
    const el = await render((e) => saved.push(e));
    await act(async () => saveButton(el).click());
    await settle();
    expect(saved).toEqual([SAVED]);
    expect(await cachedCut(CLIP)).toEqual(SAVED);
  });

  it('when the network returns, an untouched editor takes the server\'s cut, and the device keeps it', async () => {
    setOnline(false);
    await rememberCut(CLIP, SAVED);
    const el = await render();
    expect(kept(el)).toContain('Kept 0:09 in 2 parts');
    await act(async () => setOnline(true));
    for (let i = 0; i < 10 && !kept(el)?.includes('0:06'); i++) await settle();
    expect(kept(el)).toContain('Kept 0:06 in 1 part');
    expect(el.textContent).not.toContain('Offline:');
    expect(await cachedCut(CLIP)).toEqual(ON_SERVER);
  });
});

describe('the cut editor online', () => {
  it('opens with the server\'s cut and keeps it on the device for offline use', async () => {
    setOnline(true);
    await rememberCut(CLIP, SAVED); // older than the server's
    const el = await render();
    expect(cutRequests).toBe(1);
    expect(kept(el)).toContain('Kept 0:06 in 1 part');
    expect(await cachedCut(CLIP)).toEqual(ON_SERVER);
  });
});
