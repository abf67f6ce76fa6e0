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
// The clip's own rules: the program's are shown as its source's; "Use other rules for this clip"
// opens the same fields filled with them, contradicting rules are refused at their field with nothing
// queued, corrected ones are queued as clip.overrideAdMarkerRules; the server's refusal (rules an
// older device let through) puts them back with its reason at the rule; "Back to the program's rules"
// queues null.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';
import type { Clip, Program } from '../../protocol/entities.ts';
import type { NeedsAttentionEntry } from '../../db/db.ts';
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
let cookie = '';

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  ({ cookie } = await signInPage(app, ORG_DEMO));
  // The demo producer's session, as the app loads it: whose flags say who may change a clip's rules.
  await (await import('../../lib/session.ts')).loadSession();
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
    const breaks = [...el.querySelectorAll('.ad-break label')].flatMap((l) => {
      const box = l.querySelector<HTMLInputElement>('input[type="checkbox"]');
      return box ? [[l.textContent?.trim(), box.checked]] : [];
    });
    expect(breaks).toEqual([['Play ads before the episode', true], ['Play ads after the episode', true]]);
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
  it('the clip’s own rules in place of the program’s: shown with their source, refused at their field, queued, refused by the server, back to the program’s', async () => {
    await db.outbox.clear();
    await db.needsAttention.clear();
    clip = { ...clip, AdMarkerRulesOverride: null };
    await db.clips.put(clip as never);
    let el = await render();
    await settle(100);
    expect(el.textContent).toContain('Held to the program\'s ad-marker rules');
    const summary = el.querySelector<HTMLElement>('dl[aria-label="The program\'s ad-marker rules"]')!;
    const rule = (dl: HTMLElement, name: string) => [...dl.querySelectorAll('div')].find((d) => d.querySelector('dt')?.textContent === name)?.querySelector('dd')?.textContent;
    expect(rule(summary, 'No mid-roll in the first … seconds')).toBe('120');
    expect(rule(summary, 'Most mid-rolls')).toBe('Any');
    expect(rule(summary, 'Every clip has a pre-roll')).toBe('No');

    await click(el, 'Use other rules for this clip');
    expect(field(el, 'No mid-roll in the first … seconds').control.value).toBe('120');
    await type(field(el, 'Fewest mid-rolls').control, '3');
    await type(field(el, 'Most mid-rolls').control, '1');
    await click(el, "Save this clip's rules");
    expect(field(el, 'Fewest mid-rolls').error).toBe('The fewest mid-rolls cannot be more than the most (1)');
    expect(await db.outbox.count()).toBe(0);
    await type(field(el, 'Fewest mid-rolls').control, '1');
    await type(field(el, 'No mid-roll in the first … seconds').control, '30');
    await click(el, "Save this clip's rules");
    const rules = { PreRollRequired: false, PostRollRequired: false, MinMidRolls: 1, MaxMidRolls: 1, MinSpacingSeconds: 0, NoMidRollFirstSeconds: 30, NoMidRollLastSeconds: 0, MaxAdsPerBreak: null };
    const [queued] = await db.outbox.toArray();
    expect([queued!.name, queued!.args]).toEqual(['clip.overrideAdMarkerRules', { clipId: clip.Id, Rules: rules }]);
    clip = (await db.clips.get(clip.Id)) as unknown as Clip;
    expect(clip.AdMarkerRulesOverride).toEqual(rules);

    // The server's answer to rules an older device let through: its own 400, kept as needing attention.
    const tried = { ...queued!, args: { clipId: clip.Id, Rules: { ...rules, MinSpacingSeconds: -5 } } };
    const answer = await app.request(`/api/internal/clips/${clip.Id}/ad-marker-rules/override`, {
      method: 'POST',
      headers: { cookie, 'x-organization-id': ORG_DEMO, 'x-xsrf-token': await (await import('../../lib/api.ts')).xsrfToken(), 'content-type': 'application/json' },
      body: JSON.stringify({ Rules: tried.args.Rules }),
    });
    expect(answer.status).toBe(400);
    const { Errors } = (await answer.json()) as { Errors: NeedsAttentionEntry['errors'] };
    expect(Errors.map((e) => e.Field)).toEqual(['Rules.MinSpacingSeconds']);
    await db.outbox.clear();
    await db.needsAttention.put({ id: tried.id, entity: 'clips', entityId: clip.Id, mutation: tried, httpStatus: 400, errors: Errors, createdAt: Date.now() });
    document.body.innerHTML = '';
    el = await render();
    await settle(100);
    expect(el.textContent).toContain('Held to this clip\'s own ad-marker rules');
    expect(rule(el.querySelector<HTMLElement>('dl[aria-label="This clip\'s ad-marker rules"]')!, 'No mid-roll in the first … seconds')).toBe('30');
    expect(el.textContent).toContain("The server refused this clip's rules.");
    await click(el, 'Edit these rules again');
    expect(field(el, 'Seconds between mid-rolls, at least').control.value).toBe('-5');
    expect(field(el, 'Seconds between mid-rolls, at least').error).toBeTruthy();
    expect(el.textContent).toContain(field(el, 'Seconds between mid-rolls, at least').error!);
    expect(await db.needsAttention.count()).toBe(0);
    await click(el, 'Cancel');

    await click(el, "Back to the program's rules");
    expect((await db.outbox.toArray()).map((q) => [q.name, q.args])).toEqual([['clip.overrideAdMarkerRules', { clipId: clip.Id, Rules: null }]]);
    expect(((await db.clips.get(clip.Id)) as unknown as Clip).AdMarkerRulesOverride).toBeNull();
  });
});

