// The Headliner videos section of the clip screen against the real server (createApp on PGlite with
// its jobs and a blob folder, answering the component's fetches): offline it says making videos
// needs the connection, asks nothing and offers nothing; captions asked for a clip without a
// transcript are refused at the Captions field; asked as the program's setting, the video waits to
// be made, and once the job has rendered it is Ready at 1080×1080 with a Download button.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';

const { ClipHeadlinerVideos } = await import('./ClipHeadlinerVideos.tsx');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { fsBlobStore } = await import('../../../sync-server/audio/blob-store.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, seed, seedId } = await import('../../../sync-server/seed.ts');
const { choose, click, mount, offlineView, settle, signInPage } = await import('../../../tests/page-on-app.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');
const { baseLocale, setLocale } = await import('../../lib/i18n.ts');
const { fixturePath } = await import('../../../tests/audio/fixtures.ts');

const MORNING = seedId('program:morning');
let test: TestStore;
let app: ReturnType<typeof createApp>;
let dir = '';
let sent: string[] = [];
let clipId = '';

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  dir = await mkdtemp(join(tmpdir(), 'castaway-headliner-screen-'));
  app = makeApp({ store: test.store, bus: createMemoryBus(), blobs: fsBlobStore(join(dir, 'blobs')) });
  let cookie = '';
  ({ cookie, sent } = await signInPage(app, ORG_DEMO));
  const xsrf = ((await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken;
  clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  const audio = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
  const put = await app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, { method: 'PUT', headers: { cookie, 'x-xsrf-token': xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'application/octet-stream' }, body: audio });
  expect(put.status).toBe(202);
  await app.jobs.drain();
}, 120_000);
afterAll(async () => {
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = () => mount(<ClipHeadlinerVideos clipId={clipId} />, 'Loading the videos');
const makeButton = (el: HTMLElement) => [...el.querySelectorAll('button')].find((b) => b.textContent === 'Make videos')!;

describe('the Headliner videos section', () => {
  it('offline, says making videos needs the connection, asks nothing and cannot be used', async () => {
    expect(await offlineView(() => render(), sent)).toEqual({ status: 'Making and downloading videos needs the connection: they show here when it returns.', requests: 0 });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      expect(makeButton(await mount(<ClipHeadlinerVideos clipId={clipId} />)).disabled).toBe(true);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('captions asked for a clip without a transcript are refused at the Captions field, and nothing is made', async () => {
    const el = await render();
    expect(el.textContent).toContain('No videos made yet.');
    await choose(el.querySelector('select')!, 'on');
    await click(el, 'Make videos');
    await settle(300);
    const select = el.querySelector('select')!;
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(select.getAttribute('aria-describedby')!)?.textContent).toBe(
      'This clip has no transcript to show as captions: add one, or make the videos without captions',
    );
    expect(el.textContent).toContain('No videos made yet.');
  });

  it('made as the program’s setting, the square video waits to be made, then is Ready at 1080×1080 with a Download button', async () => {
    const el = await render();
    await click(el, 'Make videos');
    await settle(300);
    const item = () => el.querySelector('.headliner-list li')?.textContent ?? '';
    expect(item()).toContain('Square (1:1), without captions');
    expect(item()).toMatch(/Waiting to be made|Being made/);
    expect(makeButton(el).disabled).toBe(true);
    document.body.innerHTML = '';
    await app.jobs.drain();

    const done = await render();
    const li = done.querySelector('.headliner-list li')!;
    expect(li.textContent).toContain('Ready');
    expect(li.textContent).toMatch(/Ready · 1080×1080, 0:12, [\d.]+ (KB|MB)/);
    expect(li.querySelector('button')?.getAttribute('aria-label')).toBe('Download the Square (1:1) video');
    expect(makeButton(done).disabled).toBe(false);
  }, 120_000);

  it('in German, the section and the video it lists are in German', async () => {
    await setLocale('de-DE', { reload: false });
    try {
      const el = await mount(<ClipHeadlinerVideos clipId={clipId} />, 'Videos werden geladen');
      expect(el.querySelector('h2')?.textContent).toBe('Headliner-Videos');
      expect([...el.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Videos erstellen', 'Herunterladen']);
      expect(el.querySelector('.headliner-list li')?.textContent).toMatch(/^Quadratisch \(1:1\), ohne UntertitelFertig · 1080×1080, 0:12, [\d,]+ (KB|MB) Herunterladen$/);
    } finally {
      await setLocale(baseLocale, { reload: false });
    }
  });
});
