// The Ad markers section of the clip screen as a producer meets it, with the page's fetches answered
// by the real server (createApp on PGlite) and the clip and its program in the device's store (fake
// IndexedDB): a mid-roll added by keyboard on the marker strip, the program's rule (none in the
// first two minutes) said at its time, the same marker at 0:00 refused at its time before anything
// is queued, then moved and saved: the outbox holds clip.setAdMarkers. A CSV file with a bad line is
// refused line by line; a good one replaces the draft. Suggestions come from the server (this clip
// has no audio, and it says so); offline the section says they need the connection. Behind a 12 s
// intro (the row's PublishedIntroSeconds) the player's 3:12 is the episode's 3:00: a mid-roll added
// there is at 3:00, choosing it on the strip sends the player to 3:12, the strip ends where the
// episode does, and one added during the intro is at 0:00.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';
import type { Clip, Program } from '../../protocol/entities.ts';
import { DEFAULT_AD_MARKER_RULES } from '../../domain/ad-markers.ts';

const { act } = await import('react');
const { ClipAdMarkers } = await import('./ClipAdMarkers.tsx');
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

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  const { cookie } = await signInPage(app, ORG_DEMO);
  const id = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_DEMO]))[0]!.id;
  const row = (await (await app.request(`/api/v1/clips/${id}`, { headers: { cookie, 'x-organization-id': ORG_DEMO } })).json()) as Clip;
  // Ten minutes of audio known, no file to play (the playhead stays at 0), no markers yet.
  clip = { ...row, DurationSeconds: 600, AdMarkers: [], Urls: { ...row.Urls, AudioPrivateUrl: null } };
  await db.clips.put(clip as never);
  const program = (await (await app.request(`/api/v1/programs/${clip.ProgramId}`, { headers: { cookie, 'x-organization-id': ORG_DEMO } })).json()) as Program;
  await db.programs.put({ ...program, AdMarkerRules: { ...DEFAULT_AD_MARKER_RULES, NoMidRollFirstSeconds: 120 } } as never);
}, 120_000);
afterAll(async () => {
  await test?.drop();
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = () => mount(<ClipAdMarkers clip={clip} />, 'Loading');
const strip = (el: HTMLElement) => el.querySelector<HTMLElement>('[role="group"][aria-label="Mid-rolls on the clip\'s timeline"]')!;
const markers = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('[role="slider"]')];
const midroll = (el: HTMLElement, n: number) => [...el.querySelectorAll<HTMLElement>('fieldset')].find((f) => f.querySelector('legend')?.textContent === `Mid-roll ${n}`)!;
const rulesAt = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id.endsWith('-rules'))
    .map((id) => document.getElementById(id)!.textContent)
    .join('');
async function key(target: HTMLElement, k: string, init: KeyboardEventInit = {}) {
  await act(async () => {
    target.focus();
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  });
  await settle(20);
}
async function choose(el: HTMLElement, text: string) {
  const input = el.querySelector<HTMLInputElement>('input[type="file"]')!;
  Object.defineProperty(input, 'files', { configurable: true, value: [new File([text], 'markers.csv', { type: 'text/csv' })] });
  await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
  await settle(100);
}

describe('the Ad markers section', () => {
  it('adds a mid-roll by keyboard, shows the program’s rule at it, refuses a time at the start, and queues clip.setAdMarkers', async () => {
    const el = await render();
    await settle(100);
    expect(el.textContent).toContain('Held to the program\'s ad-marker rules');
    await key(strip(el), 'm');
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toEqual(['Ad 1, mid-roll, up to 1 ad, at 0:00']);
    const time = field(midroll(el, 1), 'At (h:mm:ss)').control;
    expect(rulesAt(time)).toBe('Against the rules: The ad-marker rules keep the first 2:00 free of mid-rolls');

    await click(el, 'Save ad markers');
    expect(field(midroll(el, 1), 'At (h:mm:ss)').error).toBe('A mid-roll must come after the start of the audio: a break at the start is the pre-roll');
    expect(await db.outbox.count()).toBe(0);

    // Moved by keyboard (Shift+→ ten times: 100 s), still inside the first two minutes, then typed past them.
    for (let i = 0; i < 10; i++) await key(markers(el)[0]!, 'ArrowRight', { shiftKey: true });
    expect(markers(el)[0]!.getAttribute('aria-label')).toBe('Ad 1, mid-roll, up to 1 ad, at 1:40');
    expect(rulesAt(field(midroll(el, 1), 'At (h:mm:ss)').control)).toContain('first 2:00');
    await type(field(midroll(el, 1), 'At (h:mm:ss)').control, '5:00');
    await type(field(midroll(el, 1), 'Most ads (1 to 10)').control, '3');
    expect(rulesAt(field(midroll(el, 1), 'At (h:mm:ss)').control)).toBe('');
    await click(el, 'Save ad markers');
    const queued = await db.outbox.toArray();
    expect(queued.map((q) => [q.name, q.args])).toEqual([['clip.setAdMarkers', { clipId: clip.Id, AdMarkers: [{ Type: 'MidRoll', Seconds: 300, MaxAds: 3 }] }]]);
    expect(((await db.clips.get(clip.Id)) as unknown as Clip).AdMarkers).toEqual([{ Type: 'MidRoll', Seconds: 300, MaxAds: 3 }]);
  });

  it('imports a CSV file: a bad one refused line by line, a good one replacing the draft', async () => {
    const el = await render();
    await choose(el, 'type,time,max_ads\nmid-roll,ten,1\nbumper,10:00,2\n');
    const errors = el.querySelector('[role="alert"].field-error')!;
    expect([...errors.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Line 2: “ten” is not a time: write seconds (95.5) or h:mm:ss (0:01:35)',
      'Line 3: “bumper” is not a type of marker: write pre-roll, mid-roll or post-roll',
    ]);
    await choose(el, 'type,time,max_ads\npre-roll,,2\nmid-roll,0:04:00,2\npost-roll,,1\n');
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toEqual(['Ad 1, mid-roll, up to 2 ads, at 4:00']);
    expect((el.querySelectorAll<HTMLInputElement>('.ad-break input[type="checkbox"]')[0]!).checked).toBe(true);
    expect((el.querySelectorAll<HTMLInputElement>('.ad-break input[type="checkbox"]')[1]!).checked).toBe(true);
  });

  it('asks the server for suggestions (this clip has no audio, and it says so); offline, suggestions need the connection', async () => {
    const el = await render();
    await click(el, 'Suggest mid-rolls and chapters', 300);
    expect(el.textContent).toContain('The clip has no audio to listen to yet.');

    document.body.innerHTML = '';
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const offline = await render();
      expect(offline.textContent).toContain('they need the connection, and you are offline');
      expect([...offline.querySelectorAll('button')].some((b) => b.textContent === 'Suggest mid-rolls and chapters')).toBe(false);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });
  it('behind an intro, the playhead, a mid-roll added at it and a seek to a mid-roll are on the episode’s timeline', async () => {
    await db.outbox.clear();
    const intro = 12;
    clip = { ...clip, DurationSeconds: 600 + intro, PublishedIntroSeconds: intro, AdMarkers: [], Urls: { ...clip.Urls, AudioPrivateUrl: `/api/media/clips/${clip.Id}/audio` } };
    await db.clips.put(clip as never);
    const el = await render();
    await settle(100);
    const audio = el.querySelector<HTMLAudioElement>('audio')!;
    await playAt(audio, 180 + intro);
    await key(strip(el), 'm');
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toEqual(['Ad 1, mid-roll, up to 1 ad, at 3:00']);
    // Past the program's first two minutes on the episode's timeline: no rule against it.
    expect(rulesAt(field(midroll(el, 1), 'At (h:mm:ss)').control)).toBe('');
    await playAt(audio, intro + 240);
    await key(audio, 'm');
    expect(markers(el).map((k) => k.getAttribute('aria-label'))).toEqual(['Ad 1, mid-roll, up to 1 ad, at 3:00', 'Ad 2, mid-roll, up to 1 ad, at 4:00']);

    await playAt(audio, 0);
    await act(async () => markers(el)[0]!.focus());
    await settle(20);
    expect(audio.currentTime).toBe(180 + intro);
    // The strip spans the episode: End takes the second mid-roll to 10:00, not to the published 10:12.
    await key(markers(el)[1]!, 'End');
    expect(markers(el)[1]!.getAttribute('aria-label')).toBe('Ad 2, mid-roll, up to 1 ad, at 10:00');

    await playAt(audio, 5);
    await click(el, "Add a mid-roll at the player's position");
    expect(markers(el)[0]!.getAttribute('aria-label')).toBe('Ad 1, mid-roll, up to 1 ad, at 0:00');
  });
});

