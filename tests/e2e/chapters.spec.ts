// A clip's chapters (issue 34), as a producer adds them and a podcast app finds them: on a clip with
// real uploaded audio, two chapters added by keyboard on the marker strip of the Chapters section (M
// adds one at the player's position and puts the focus in its title, Shift+→ moves a marker 10 s),
// passing axe, leaving unsaved asks first, saved through the outbox, the clip published from its screen; then the playlist's feed names the
// chapters (podcast:chapters, read by podcast-partytime), that URL answers Podcasting 2.0 JSON
// chapters with the two titles and starts, and the published MP3 carries them as ID3 CHAP frames.
// A server of its own: the spec publishes a clip and changes the demo's feeds.
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { parseFeed } from 'podcast-partytime';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { ChaptersSchema } from '../../src/protocol/api/feeds.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { allChangesSaved, logIn, studioApi } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-chapters-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const api = (page: Page, method: string, path: string, body?: unknown, raw?: Buffer) => studioApi(page, ORG_DEMO, method, path, body, raw);

test('two chapters added by keyboard are published: the feed’s chapters link answers them as JSON chapters, and the MP3 carries them', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);

  // A program, a Public playlist and a Public clip with the 12 s speech fixture, made over the API
  // (publish-journey.spec.ts makes them on screen).
  const stamp = Date.now().toString(36);
  const programId = (await api(page, 'POST', '/v1/programs', { Name: `Chaptered ${stamp}`, Description: 'In parts', Language: 'en' })).Id as string;
  const playlistId = (await api(page, 'POST', `/v1/programs/${programId}/playlists`, { Title: `Chaptered feed ${stamp}`, Visibility: 'Public', Description: 'Every part' })).Id as string;
  const clipId = (await api(page, 'POST', `/v1/programs/${programId}/clips`, { Title: `In two parts ${stamp}`, Visibility: 'Public', Slug: `in-two-parts-${stamp}` })).Id as string;
  await api(page, 'PUT', `/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, undefined, readFileSync(resolve(SHARED_FIXTURES_DIR, 'speech-12s.mp3')));
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).State, { timeout: 60_000, intervals: [1000] }).toBe('Ready');
  await api(page, 'PATCH', `/v1/playlists/${playlistId}/clips`, { ClipIds: [clipId] });

  await page.goto(`/${ORG_DEMO}/programs/${programId}/clips/${clipId}`);
  const section = page.getByRole('region', { name: 'Chapters', exact: true });
  await expect(section.getByText('This clip has no chapters.')).toBeVisible({ timeout: 30_000 });
  const strip = section.getByRole('group', { name: "Chapters on the clip's timeline" });

  // By keyboard: M on the (empty, focusable) strip adds a chapter at the player's position, 0:00,
  // and its title takes the focus.
  await strip.focus();
  await page.keyboard.press('m');
  await expect(section.getByRole('group', { name: 'Chapter 1', exact: true }).getByLabel('Title')).toBeFocused();
  await page.keyboard.type('Welcome');
  // Shift+→ on its marker moves it 10 s; M there adds a second chapter at the player's position.
  const first = section.getByRole('slider', { name: 'Chapter 1, Welcome, at 0:00' });
  await first.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(section.getByRole('slider', { name: 'Chapter 1, Welcome, at 0:10' })).toBeFocused();
  await page.keyboard.press('m');
  await expect(section.getByRole('group', { name: 'Chapter 1', exact: true }).getByLabel('Title')).toBeFocused();
  await page.keyboard.type('Cold open');
  await expect(section.getByRole('slider')).toHaveCount(2);
  await expect(section.getByRole('slider').nth(0)).toHaveAccessibleName('Chapter 1, Cold open, at 0:00');
  await expect(section.getByRole('slider').nth(1)).toHaveAccessibleName('Chapter 2, Welcome, at 0:10');
  // No axe violation in the section with its two chapters.
  const axe = await new AxeBuilder({ page }).include('.clip-chapters').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  // Unsaved: leaving asks first; closing the prompt stays with the chapters as they were.
  await page.getByRole('link', { name: 'Back' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Unsaved changes' });
  await expect(prompt.getByText('This form has unsaved changes which will be lost if you continue.')).toBeVisible();
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toBeHidden();
  await expect(section.getByRole('slider')).toHaveCount(2);
  await section.getByRole('button', { name: 'Save chapters' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Chapters saved')).toBeVisible();
  await allChangesSaved(page);

  const panel = page.getByRole('region', { name: 'Publishing' });
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(panel.getByRole('status')).toHaveText('Publish state: Published', { timeout: 60_000 });

  // A listener's app: the feed item names the chapters, and they fetch and parse.
  const feed = parseFeed(await (await page.request.get(publicPaths.feed(playlistId))).text())!;
  const item = feed.items.find((it) => it.guid === clipId)!;
  expect(item.podcastChapters).toMatchObject({ url: new URL(publicPaths.chapters(clipId), server!.baseURL).toString(), type: 'application/json+chapters' });
  const res = await page.request.get(item.podcastChapters!.url);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/json+chapters; charset=utf-8');
  expect(ChaptersSchema.parse(await res.json())).toEqual({ version: '1.2.0', chapters: [{ startTime: 0, title: 'Cold open' }, { startTime: 10, title: 'Welcome' }] });

  // The enclosure is made again with the chapters (a job): its ID3 tag holds a CHAP frame per chapter.
  await expect
    .poll(async () => {
      const audio = await page.request.get(item.enclosure!.url);
      const head = (await audio.body()).subarray(0, 400).toString('latin1');
      return ['CTOC', 'CHAP', 'Cold open', 'Welcome'].every((s) => head.includes(s));
    }, { timeout: 60_000, intervals: [1000] })
    .toBe(true);
  await context.close();
});
