// Audio production as a new producer does it (issue 34's journey), on one clip with real uploaded
// audio: import a WebVTT transcript and correct a word in it, add two chapters and a mid-roll ad
// marker by keyboard on the waveform's marker strips, publish the transcript with the clip and
// publish the clip; then, as a podcast app, read the playlist's feed (podcast-partytime) and find
// the item's transcript and chapters links, and parse both: the WebVTT with node-webvtt (written
// by others) and the chapters as Podcasting 2.0 JSON. A server of its own: it publishes a clip
// and changes the demo's feeds.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
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
  server = await startOwnServer('castaway-production-', { CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

// node-webvtt ships no types: what this spec reads of it.
const webvtt = createRequire(import.meta.url)('node-webvtt') as { parse: (input: string, options?: { strict?: boolean }) => { valid: boolean; cues: Array<{ start: number; end: number; text: string }> } };

const api = (page: Page, method: string, path: string, body?: unknown, raw?: Buffer) => studioApi(page, ORG_DEMO, method, path, body, raw);

const VTT = `WEBVTT

00:00:00.500 --> 00:00:04.000
<v Ana>Good morning and welcome to the briefing.

00:00:04.000 --> 00:00:09.500
<v Ben>Today the harbour pelicans are bak.
`;

test('a producer imports and corrects a transcript, adds two chapters and a mid-roll by keyboard, publishes, and the feed’s links parse', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);

  // A program with a Public playlist and a Public clip of the 12 s speech fixture (made on screen by publish-journey.spec.ts).
  const stamp = Date.now().toString(36);
  const programId = (await api(page, 'POST', '/v1/programs', { Name: `Produced ${stamp}`, Description: 'Made with care', Language: 'en' })).Id as string;
  const playlistId = (await api(page, 'POST', `/v1/programs/${programId}/playlists`, { Title: `Produced feed ${stamp}`, Visibility: 'Public', Description: 'Every episode' })).Id as string;
  const clipId = (await api(page, 'POST', `/v1/programs/${programId}/clips`, { Title: `The briefing ${stamp}`, Visibility: 'Public', Slug: `the-briefing-${stamp}` })).Id as string;
  await api(page, 'PUT', `/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, undefined, readFileSync(resolve(SHARED_FIXTURES_DIR, 'speech-12s.mp3')));
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).State, { timeout: 60_000, intervals: [1000] }).toBe('Ready');
  await api(page, 'PATCH', `/v1/playlists/${playlistId}/clips`, { ClipIds: [clipId] });
  await page.goto(`/${ORG_DEMO}/programs/${programId}/clips/${clipId}`);

  // The transcript: a WebVTT file imported, a word corrected, saved, and published with the clip.
  const transcript = page.getByRole('region', { name: 'Transcript' });
  await expect(transcript.getByText('This clip has no transcript yet.')).toBeVisible({ timeout: 30_000 });
  await transcript.getByLabel('Import a transcript file').setInputFiles({ name: 'briefing.vtt', mimeType: 'text/vtt', buffer: Buffer.from(VTT) });
  await transcript.getByRole('listitem', { name: 'Cue 2' }).getByLabel('Text').fill('Today the harbour pelicans are back.');
  await transcript.getByRole('button', { name: 'Save transcript' }).click();
  await expect(page.getByText('Transcript saved')).toBeVisible();
  await transcript.getByLabel('Publish with the clip (podcast apps show it)').check();
  await expect(transcript.getByLabel('Publish with the clip (podcast apps show it)')).toBeChecked();

  // Two chapters by keyboard: M on the strip adds one at the player's position and focuses its
  // title, which is typed into once it has the focus, as a person sees it move (the new chapter
  // at 0:00 is the first); Shift+→ moves a marker 10 s.
  const chapters = page.getByRole('region', { name: 'Chapters', exact: true });
  const firstTitle = chapters.getByRole('group', { name: 'Chapter 1', exact: true }).getByRole('textbox', { name: 'Title' });
  await chapters.getByRole('group', { name: "Chapters on the clip's timeline" }).focus();
  await page.keyboard.press('m');
  await expect(firstTitle).toBeFocused();
  await page.keyboard.type('Pelicans');
  await chapters.getByRole('slider', { name: 'Chapter 1, Pelicans, at 0:00' }).focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(chapters.getByRole('slider', { name: 'Chapter 1, Pelicans, at 0:10' })).toBeFocused();
  await page.keyboard.press('m');
  await expect(firstTitle).toBeFocused();
  await page.keyboard.type('Welcome');
  await expect(chapters.getByRole('slider')).toHaveCount(2);
  await chapters.getByRole('button', { name: 'Save chapters' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Chapters saved')).toBeVisible();

  // A mid-roll by keyboard on the Ad markers strip, moved to 0:04 with →.
  const ads = page.getByRole('region', { name: 'Ad markers', exact: true });
  await ads.getByRole('group', { name: "Mid-rolls on the clip's timeline" }).focus();
  await page.keyboard.press('m');
  const midRoll = ads.getByRole('slider');
  await midRoll.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect(midRoll).toHaveAccessibleName('Ad 1, mid-roll, up to 1 ad, at 0:04');
  await ads.getByRole('button', { name: 'Save ad markers' }).click();
  await allChangesSaved(page);
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).AdMarkers).toEqual([{ Type: 'MidRoll', Seconds: 4, MaxAds: 1 }]);

  // Published from its screen.
  const publishing = page.getByRole('region', { name: 'Publishing' });
  await publishing.getByRole('button', { name: 'Publish' }).click();
  await expect(publishing.getByRole('status')).toHaveText('Publish state: Published', { timeout: 60_000 });

  // A podcast app reads the feed: the item names its transcript and its chapters, and both parse.
  const feed = parseFeed(await (await page.request.get(publicPaths.feed(playlistId))).text())!;
  const item = feed.items.find((it) => it.guid === clipId)!;
  const vttLink = item.podcastTranscripts?.find((t) => t.type === 'text/vtt');
  expect(vttLink?.url).toBe(new URL(publicPaths.transcript(clipId, 'vtt'), server!.baseURL).toString());
  const vtt = webvtt.parse(await (await page.request.get(vttLink!.url)).text(), { strict: true });
  expect(vtt.valid).toBe(true);
  expect(vtt.cues.map((c) => [c.start, c.end, c.text])).toEqual([
    [0.5, 4, '<v Ana>Good morning and welcome to the briefing.'],
    [4, 9.5, '<v Ben>Today the harbour pelicans are back.'],
  ]);
  expect(item.podcastChapters?.url).toBe(new URL(publicPaths.chapters(clipId), server!.baseURL).toString());
  const chaptersJson = ChaptersSchema.parse(await (await page.request.get(item.podcastChapters!.url)).json());
  expect(chaptersJson.chapters).toEqual([
    { startTime: 0, title: 'Welcome' },
    { startTime: 10, title: 'Pelicans' },
  ]);
  await context.close();
});
