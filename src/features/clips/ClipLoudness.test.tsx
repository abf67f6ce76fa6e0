// The Loudness section of the clip screen against the real server (createApp on PGlite with its
// jobs, answering the component's fetches): offline it says the figures come from the server and
// asks nothing; a clip never processed says it is not measured; a clip processed under the Podcast
// preset shows its figures before and after against the preset's; after the organization changes
// preset it says which one is now in effect, and "Normalize again to the current preset" asked
// offline is kept in the outbox as clip.normalizeLoudness and says it waits for the connection.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';

const { act } = await import('react');
const { ClipLoudness } = await import('./ClipLoudness.tsx');
const { db } = await import('../../db/db.ts');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { fsBlobStore } = await import('../../../sync-server/audio/blob-store.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, seed, seedId } = await import('../../../sync-server/seed.ts');
const { click, mount, offlineView, settle, signInPage } = await import('../../../tests/page-on-app.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');
const { fixturePath } = await import('../../../tests/audio/fixtures.ts');

const MORNING = seedId('program:morning');
let test: TestStore;
let app: ReturnType<typeof createApp>;
let dir = '';
let cookie = '';
let sent: string[] = [];
let processed = '';
let untouched = '';

let token = '';
/** The page's session's headers for a write (its XSRF token asked once). */
async function writeHeaders(): Promise<Record<string, string>> {
  token ||= ((await (await api('/api/internal/session/xsrf')).json()) as { XsrfToken: string }).XsrfToken;
  return { 'x-xsrf-token': token, 'content-type': 'application/json' };
}
const api = (path: string, init: RequestInit = {}) => app.request(path, { ...init, headers: { cookie, 'x-organization-id': ORG_DEMO, ...(init.headers as Record<string, string>) } });

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  dir = await mkdtemp(join(tmpdir(), 'castaway-loudness-ui-'));
  app = makeApp({ store: test.store, bus: createMemoryBus(), blobs: fsBlobStore(join(dir, 'blobs')) });
  ({ cookie, sent } = await signInPage(app, ORG_DEMO));
  const xsrf = await writeHeaders();
  processed = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  await api('/api/v1/settings/normalization', { method: 'PATCH', headers: xsrf, body: JSON.stringify({ PresetId: 'podcast' }) });
  await api(`/api/v1/programs/${MORNING}/settings/normalization`, { method: 'DELETE', headers: xsrf });
  const put = await api(`/api/v1/clips/${processed}/audio?fileName=speech-12s.mp3`, { method: 'PUT', headers: { ...xsrf, 'content-type': 'application/octet-stream' }, body: new Uint8Array(await readFile(fixturePath('speech-12s.mp3'))) });
  expect(put.status).toBe(202);
  await app.jobs.drain();
  // A clip made now, with no audio: never measured.
  const created = await api(`/api/v1/programs/${MORNING}/clips`, { method: 'POST', headers: xsrf, body: JSON.stringify({ Title: 'Not yet recorded' }) });
  untouched = ((await created.json()) as { Id: string }).Id;
  // The device holds the clip (the outbox queues on a row it has).
  await db.clips.put((await (await api(`/api/v1/clips/${processed}`)).json()) as never);
}, 120_000);
afterAll(async () => {
  await app?.downloads.flush();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = (clipId = processed) => mount(<ClipLoudness clipId={clipId} />, 'Loading the loudness figures');
const rowOf = (el: HTMLElement, name: string) => [...el.querySelectorAll('tbody tr')].find((r) => r.querySelector('th')?.textContent === name)!;
const cells = (el: HTMLElement, name: string) => [...rowOf(el, name).querySelectorAll('td')].map((c) => c.textContent);

describe('the Loudness section', () => {
  it('offline, says the figures come from the server and asks it nothing', async () => {
    expect(await offlineView(() => render(), sent)).toEqual({ status: 'Loudness figures come from the server: they show when the connection returns.', requests: 0 });
  });

  it('a clip not processed since says it is not measured', async () => {
    const el = await render(untouched);
    expect(el.querySelector('[role="status"]')?.textContent).toBe('Not measured yet: the audio is measured the next time it is processed.');
    expect(el.querySelector('table')).toBeNull();
  });

  it('shows the figures before and after the Podcast preset, with its targets, in a table named by its caption', async () => {
    const el = await render();
    expect(el.textContent).toContain('Normalized to Podcast (-16 LUFS, -1 dBTP).');
    expect(el.querySelector('[role="status"]')?.textContent).toBe('Normalized: the published version measures as shown under After.');
    expect(el.querySelector('caption')?.textContent).toBe('Loudness before and after normalization');
    expect([...el.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Measure', 'Before', 'After', 'Preset']);
    const [before, after, target] = cells(el, 'Integrated loudness');
    expect(before).toBe('-19.8 LUFS');
    expect(Math.abs(Number.parseFloat(after!) + 16)).toBeLessThanOrEqual(0.5);
    expect(target).toBe('-16.0 LUFS');
    expect(cells(el, 'True peak')[2]).toBe('at most -1.0 dBTP');
    expect(Number.parseFloat(cells(el, 'True peak')[1]!)).toBeLessThanOrEqual(-1);
    expect(cells(el, 'Loudness range')[0]).toMatch(/^\d+\.\d LU$/);
  });

  it('after the preset changes it says which is in effect; Normalize again asked offline waits in the outbox for the connection', async () => {
    await api('/api/v1/settings/normalization', { method: 'PATCH', headers: await writeHeaders(), body: JSON.stringify({ PresetId: 'broadcast-ebu-r128' }) });
    const el = await render();
    await settle(200);
    expect(el.textContent).toContain('The preset in effect is now Broadcast (EBU R128) (-23 LUFS, -1 dBTP) (the organization\'s choice); this clip stays as it is until it is normalized again.');
    expect(el.textContent).toContain('Renders the published version again from the original upload at Broadcast (EBU R128) (-23 LUFS, -1 dBTP).');

    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      await act(async () => window.dispatchEvent(new Event('offline')));
      await click(el, 'Normalize again to the current preset', 300);
      const queued = await db.outbox.toArray();
      expect(queued.map((q) => [q.name, q.args])).toEqual([['clip.normalizeLoudness', { clipId: processed }]]);
      expect([...el.querySelectorAll('[role="status"]')].map((s) => s.textContent)).toContain(
        'Waiting for the connection: the request is kept on this device and sent when the studio is online again.',
      );
      const button = [...el.querySelectorAll('button')].find((b) => b.textContent === 'Normalize again to the current preset')!;
      expect(button.disabled).toBe(true);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });
});
