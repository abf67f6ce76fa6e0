// Headliner videos (section 7) as a producer meets them: a program set to make square and portrait
// audiograms, a clip with the 12 s speech fixture and a transcript. On the clip's screen, offline,
// the section says making videos needs the connection and its button is off; back online, captions
// chosen, "Make videos" queues both, their states move on by themselves to Ready, and Download
// saves an MP4 named after the clip's title that ffprobe reads at 1080×1080 and 12 s. Looked at on
// a desktop and on a phone (390×844: nothing scrolls sideways), with axe on the section.
// A server of its own: the spec changes a program's headliner-video setting.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { logIn, studioApi } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-headliner-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const api = (page: Page, method: string, path: string, body?: unknown, raw?: Buffer) => studioApi(page, ORG_DEMO, method, path, body, raw);

test('a clip’s square and portrait audiograms with captions: refused offline, made online, downloaded as an MP4 ffprobe reads', async ({ browser }) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ baseURL: server!.baseURL, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await logIn(page);

  const stamp = Date.now().toString(36);
  const programId = (await api(page, 'POST', '/v1/programs', { Name: `Audiograms ${stamp}`, Description: 'Teasers', Language: 'en' })).Id as string;
  await api(page, 'PATCH', `/v1/programs/${programId}/settings`, { HeadlinerVideos: { AspectRatios: ['1:1', '9:16'] } });
  const title = `Morning talk ${stamp}`;
  const clipId = (await api(page, 'POST', `/v1/programs/${programId}/clips`, { Title: title })).Id as string;
  await api(page, 'PUT', `/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, undefined, readFileSync(resolve(SHARED_FIXTURES_DIR, 'speech-12s.mp3')));
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).State, { timeout: 90_000, intervals: [1000] }).toMatch(/Ready|Warning/);
  await api(page, 'PUT', `/v1/clips/${clipId}/transcript`, { Cues: [{ StartSeconds: 0.5, EndSeconds: 11, Text: 'Good morning, and welcome to the talk.' }] });

  await page.goto(`/${ORG_DEMO}/programs/${programId}/clips/${clipId}`);
  const section = page.getByRole('region', { name: 'Headliner videos', exact: true });
  await expect(section.getByText('No videos made yet.')).toBeVisible({ timeout: 30_000 });
  const make = section.getByRole('button', { name: 'Make videos', exact: true });

  await context.setOffline(true);
  await expect(section.getByText('Making and downloading videos needs the connection: they show here when it returns.')).toBeVisible();
  await expect(make).toBeDisabled();
  await context.setOffline(false);
  await expect(make).toBeEnabled();

  await section.getByLabel('Captions').selectOption({ label: 'Burn in the transcript' });
  await make.click();
  const list = section.getByRole('list', { name: 'This clip’s videos' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText('Square (1:1), with captions');
  await expect(list.getByRole('listitem').nth(1)).toContainText('Portrait (9:16), with captions');
  // The states move on by themselves (the section asks again while one is being made).
  await expect(list.getByRole('button', { name: 'Download the Square (1:1) video' })).toBeVisible({ timeout: 180_000 });
  await expect(list.getByRole('button', { name: 'Download the Portrait (9:16) video' })).toBeVisible({ timeout: 180_000 });
  await expect(list.getByRole('listitem').first()).toContainText(/1080×1080, 0:12/);
  await expect(make).toBeEnabled();

  const downloading = page.waitForEvent('download');
  await list.getByRole('button', { name: 'Download the Square (1:1) video' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${title} – 1x1.mp4`);
  const saved = join(tmpdir(), `headliner-${stamp}.mp4`);
  await download.saveAs(saved);
  const probed = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height:format=duration', '-of', 'json', saved], { encoding: 'utf8' })) as {
    streams: Array<{ width: number; height: number }>;
    format: { duration: string };
  };
  expect([probed.streams[0]!.width, probed.streams[0]!.height]).toEqual([1080, 1080]);
  expect(Math.abs(Number(probed.format.duration) - 12)).toBeLessThan(0.3);

  const axe = await new AxeBuilder({ page }).include('section.headliner-videos').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await section.screenshot({ path: 'test-results/headliner-videos-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await section.screenshot({ path: 'test-results/headliner-videos-phone.png' });
  await context.close();
});
