// The Chapters section of the clip screen as a producer meets it, with the page's fetches answered
// by the real server (createApp on PGlite) and the clip in the device's store (fake IndexedDB): two
// chapters added by keyboard on the marker strip (M at the playhead, titles typed, Shift+→ moving
// one), a chapter without a title and a start that is not a time refused at their fields before
// anything is queued, then saved: the outbox holds clip.update with the chapters sorted, and the
// device's copy of the clip shows them. A GIF chosen as a chapter's image is refused by the server
// (415) at that chapter's image; offline, uploading says it needs the connection. A change the server
// refused (its audio shorter meanwhile than this device knew) is listed by chapter, and Edit again
// puts the refused chapters back with the server's reason at the start it names. Behind a 12 s intro
// (the row's PublishedIntroSeconds), the player's 0:20 is the episode's 0:08: the playhead and a
// chapter added at it are there, a chapter chosen on the strip sends the player 12 s later than its
// start, the strip ends where the episode does, and a chapter added during the intro starts at 0:00.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../../../tests/happy-page.ts';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';
import type { Clip } from '../../protocol/entities.ts';
import type { NeedsAttentionEntry } from '../../db/db.ts';

const { act } = await import('react');
const { ClipChapters } = await import('./ClipChapters.tsx');
const { db } = await import('../../db/db.ts');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, seed } = await import('../../../sync-server/seed.ts');
const { click, field, mount, settle, signInPage, type } = await import('../../../tests/page-on-app.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');
const { playAt } = await import('../../../tests/player-actions.ts');

let test: TestStore;
let app: ReturnType<typeof createApp>;
let clip: Clip;
let cookie = '';
let blobDir = '';
const previousBlobDir = process.env.CASTAWAY_BLOB_DIR;

beforeAll(async () => {
  blobDir = await mkdtemp(join(tmpdir(), 'castaway-chapters-section-'));
  process.env.CASTAWAY_BLOB_DIR = blobDir;
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  ({ cookie } = await signInPage(app, ORG_DEMO));
  const id = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_DEMO]))[0]!.id;
  const row = (await (await app.request(`/api/v1/clips/${id}`, { headers: { cookie, 'x-organization-id': ORG_DEMO } })).json()) as Clip;
  // Ten minutes of audio, no chapters yet; no audio file to play, so the playhead stays at 0.
  clip = { ...row, DurationSeconds: 600, Chapters: [], Urls: { ...row.Urls, AudioPrivateUrl: null } };
  await db.clips.put(clip as never);
}, 120_000);
afterAll(async () => {
  await test?.drop();
  if (previousBlobDir === undefined) delete process.env.CASTAWAY_BLOB_DIR;
  else process.env.CASTAWAY_BLOB_DIR = previousBlobDir;
  await rm(blobDir, { recursive: true, force: true });
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = () => mount(<ClipChapters clip={clip} organizationId={ORG_DEMO} />, 'Loading');
const strip = (el: HTMLElement) => el.querySelector<HTMLElement>('[role="group"][aria-label="Chapters on the clip\'s timeline"]')!;
const markers = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('[role="slider"]')];
async function key(target: HTMLElement, k: string, init: KeyboardEventInit = {}) {
  await act(async () => {
    target.focus();
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  });
  await settle(20);
}
/** Lets the page work until `ready` holds (a local write, a server's answer): on a loaded machine these take longer than any fixed wait. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await ready()) return;
    await settle(50);
  }
  throw new Error(`still waiting for ${what}`);
}
const chapter = (el: HTMLElement, n: number) => [...el.querySelectorAll<HTMLElement>('fieldset')].find((f) => f.querySelector('legend')?.textContent === `Chapter ${n}`)!;

describe('the Chapters section', () => {
  it('adds two chapters by keyboard, refuses a missing title and a bad time at their fields, and queues clip.update', async () => {
    const el = await render();
    expect(el.textContent).toContain('This clip has no chapters.');
    await key(strip(el), 'm');
    // The new chapter's title has the focus: the user types it at once.
    expect(document.activeElement).toBe(field(chapter(el, 1), 'Title').control);
    await type(field(chapter(el, 1), 'Title').control, 'Cold open');
    await key(markers(el)[0]!, 'ArrowRight', { shiftKey: true });
    expect(markers(el)[0]!.getAttribute('aria-label')).toBe('Chapter 1, Cold open, at 0:10');
    // M on the marker adds a second chapter at the playhead (0), before the first.
    await key(markers(el)[0]!, 'M');
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toEqual(['Chapter 1, untitled, at 0:00', 'Chapter 2, Cold open, at 0:10']);

    await click(el, 'Save chapters');
    expect(field(chapter(el, 1), 'Title').error).toBe('Give the chapter a title');
    await type(field(chapter(el, 1), 'Title').control, 'Welcome');
    await type(field(chapter(el, 2), 'Starts at (h:mm:ss)').control, '1:0x');
    await click(el, 'Save chapters');
    expect(field(chapter(el, 2), 'Starts at (h:mm:ss)').error).toBe('Type a time such as 1:05 or 1:02:30');
    expect(await db.outbox.count()).toBe(0);

    await type(field(chapter(el, 2), 'Starts at (h:mm:ss)').control, '1:05');
    await type(field(chapter(el, 2), 'Link (optional)').control, 'https://example.com/open');
    await click(el, 'Save chapters');
    await until(async () => (await db.outbox.count()) > 0, 'the queued change');
    const queued = await db.outbox.toArray();
    expect(queued.map((q) => [q.name, q.args])).toEqual([
      ['clip.update', { clipId: clip.Id, fields: { Chapters: [{ StartSeconds: 0, Title: 'Welcome' }, { StartSeconds: 65, Title: 'Cold open', Url: 'https://example.com/open' }] } }],
    ]);
    expect(((await db.clips.get(clip.Id)) as unknown as Clip).Chapters).toEqual([{ StartSeconds: 0, Title: 'Welcome' }, { StartSeconds: 65, Title: 'Cold open', Url: 'https://example.com/open' }]);
  });

  it('an image that is not JPEG or PNG is refused by the server at its chapter; offline, uploading needs the connection', async () => {
    clip = { ...clip, Chapters: [{ StartSeconds: 0, Title: 'Welcome' }] };
    const el = await render();
    const input = chapter(el, 1).querySelector<HTMLInputElement>('input[type="file"]')!;
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).gif().toBuffer();
    Object.defineProperty(input, 'files', { configurable: true, value: [new File([new Uint8Array(gif)], 'a.gif', { type: 'image/gif' })] });
    await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
    await until(() => field(chapter(el, 1), 'Image address (optional)').error !== null, 'the server’s answer to the upload');
    expect(field(chapter(el, 1), 'Image address (optional)').error).toBe('This file is not a JPEG or PNG image: choose one of those');

    document.body.innerHTML = '';
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const offline = await render();
      await settle(100);
      expect(chapter(offline, 1).querySelector<HTMLInputElement>('input[type="file"]')!.disabled).toBe(true);
      expect(chapter(offline, 1).textContent).toContain('Uploading an image needs the connection to the studio');
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('a change the server refused is shown at the chapter it names', async () => {
    await db.outbox.clear();
    clip = { ...clip, Chapters: [{ StartSeconds: 0, Title: 'Welcome' }] };
    await db.clips.put(clip as never);
    // Meanwhile the clip got 30 s of audio on another device: the server knows, this device not yet.
    await test.store.query(`UPDATE clips SET data = data || '{"DurationSeconds": 30}'::jsonb WHERE id = $1`, [clip.Id]);
    const el = await render();
    await click(el, "Add a chapter at the player's position");
    await type(field(chapter(el, 2), 'Title').control, 'Late story');
    await type(field(chapter(el, 2), 'Starts at (h:mm:ss)').control, '1:05');
    await click(el, 'Save chapters');
    await until(async () => (await db.outbox.count()) > 0, 'the queued change');
    const [queued] = await db.outbox.toArray();
    expect(queued!.name).toBe('clip.update');
    // What the sync engine does with the server's answer: the server's own 400, kept as needing attention.
    const answer = await app.request(`/api/v1/clips/${clip.Id}`, {
      method: 'PATCH',
      headers: { cookie, 'x-organization-id': ORG_DEMO, 'x-xsrf-token': (await import('../../lib/api.ts').then((a) => a.xsrfToken())), 'content-type': 'application/json' },
      body: JSON.stringify((queued!.args as { fields: unknown }).fields),
    });
    expect(answer.status).toBe(400);
    const { Errors } = (await answer.json()) as { Errors: NeedsAttentionEntry['errors'] };
    await act(async () => {
      await db.outbox.clear();
      await db.needsAttention.put({ id: queued!.id, entity: 'clips', entityId: clip.Id, mutation: queued!, httpStatus: 400, errors: Errors, createdAt: Date.now() });
    });
    await until(() => el.querySelector('.clip-chapters [role="alert"]') !== null, 'the refusal in the section');
    const alert = el.querySelector<HTMLElement>('.clip-chapters [role="alert"]')!;
    expect(alert.textContent).toContain('The server refused the chapters:');
    expect(alert.textContent).toContain('Chapter 2: The audio ends at 00:00:30: a chapter must start before that');
    await click(el, 'Edit these chapters again');
    expect(field(chapter(el, 2), 'Starts at (h:mm:ss)').error).toBe('The audio ends at 00:00:30: a chapter must start before that');
    expect(field(chapter(el, 2), 'Title').control.value).toBe('Late story');
    expect(await db.needsAttention.count()).toBe(0);
  });
  it('behind an intro, the playhead, a chapter added at it and a seek to a chapter are on the episode’s timeline', async () => {
    await db.outbox.clear();
    await db.needsAttention.clear();
    const intro = 12;
    clip = { ...clip, DurationSeconds: 600 + intro, PublishedIntroSeconds: intro, Chapters: [{ StartSeconds: 30, Title: 'Story' }], Urls: { ...clip.Urls, AudioPrivateUrl: `/api/media/clips/${clip.Id}/audio` } };
    await db.clips.put(clip as never);
    const el = await render();
    const audio = el.querySelector<HTMLAudioElement>('audio')!;
    // The player 20 s into the published audio: 8 s into the episode. M on the strip adds a chapter there.
    await playAt(audio, 20);
    await key(strip(el), 'm');
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toEqual(['Chapter 1, untitled, at 0:08', 'Chapter 2, Story, at 0:30']);
    // M on the player itself converts the same way.
    await playAt(audio, intro + 45.04);
    await key(audio, 'm');
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toContain('Chapter 3, untitled, at 0:45');
    expect(field(chapter(el, 3), 'Starts at (h:mm:ss)').control.value).toBe('00:00:45');

    // Choosing the chapter at 0:30 on the strip sends the player to 0:42 of the published audio.
    await act(async () => markers(el).find((k) => k.getAttribute('aria-label')?.includes('Story'))!.focus());
    await settle(20);
    expect(audio.currentTime).toBe(30 + intro);
    // The strip spans the episode: End takes a chapter to 10:00, not to the published 10:12.
    await key(markers(el)[0]!, 'End');
    expect(markers(el).at(-1)!.getAttribute('aria-label')).toBe('Chapter 3, untitled, at 10:00');

    // During the intro the episode has not begun: a chapter added at the player's position starts at 0:00.
    await playAt(audio, 5);
    await click(el, "Add a chapter at the player's position");
    expect(markers(el)[0]!.getAttribute('aria-label')).toBe('Chapter 1, untitled, at 0:00');
  });

  it('before an outro, the strip ends where the episode does, and a chapter added while the outro plays starts at the episode’s end', async () => {
    await db.outbox.clear();
    await db.needsAttention.clear();
    const intro = 12;
    const outro = 8;
    clip = { ...clip, DurationSeconds: intro + 600 + outro, PublishedIntroSeconds: intro, PublishedOutroSeconds: outro, Chapters: [{ StartSeconds: 30, Title: 'Story' }], Urls: { ...clip.Urls, AudioPrivateUrl: `/api/media/clips/${clip.Id}/audio` } };
    await db.clips.put(clip as never);
    const el = await render();
    const audio = el.querySelector<HTMLAudioElement>('audio')!;
    // The strip spans the episode alone: 10:00, not the published 10:20 less the intro.
    expect(markers(el)[0]!.getAttribute('aria-valuemax')).toBe('600');
    // 3 s into the outro the episode has ended: a chapter added at the player's position starts at 10:00.
    await playAt(audio, intro + 600 + 3);
    await click(el, "Add a chapter at the player's position");
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toEqual(['Chapter 1, Story, at 0:30', 'Chapter 2, untitled, at 10:00']);
    // End takes a chapter to the episode's end as well.
    await key(markers(el)[0]!, 'End');
    expect(markers(el).map((k) => k.getAttribute('aria-valuenow'))).toEqual(['600', '600']);
  });
});
