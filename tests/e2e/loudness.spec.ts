// A clip's loudness (issue 34) on a phone, as a producer meets it: the organization normalizes to the
// Podcast preset, a clip gets the 12 s speech fixture, and its screen shows the figures before and
// after against the preset's targets in a table that fits the phone's width and passes axe; after
// the organization moves to EBU R128 the section says so, and "Normalize again to the current
// preset" goes through the outbox to the server's job, which brings the clip to −23 LUFS.
// A server of its own: the spec changes the demo organization's normalization.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { logIn, studioApi } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;

test.use({ viewport: { width: 390, height: 844 } });
test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-loudness-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const api = (page: Page, method: string, path: string, body?: unknown, raw?: Buffer) => studioApi(page, ORG_DEMO, method, path, body, raw);

test('on a phone: the figures before and after the Podcast preset, then normalized again to EBU R128 through the outbox', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server!.baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await logIn(page);

  await api(page, 'PATCH', '/v1/settings/normalization', { PresetId: 'podcast' });
  const stamp = Date.now().toString(36);
  const programId = (await api(page, 'POST', '/v1/programs', { Name: `Loud ${stamp}`, Description: 'Levels', Language: 'en' })).Id as string;
  const clipId = (await api(page, 'POST', `/v1/programs/${programId}/clips`, { Title: `Quiet talk ${stamp}` })).Id as string;
  await api(page, 'PUT', `/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, undefined, readFileSync(resolve(SHARED_FIXTURES_DIR, 'speech-12s.mp3')));
  await expect.poll(async () => (await api(page, 'GET', `/internal/clips/${clipId}/loudness`)).State, { timeout: 90_000, intervals: [1000] }).toBe('Done');

  await page.goto(`/${ORG_DEMO}/programs/${programId}/clips/${clipId}`);
  const section = page.getByRole('region', { name: 'Loudness', exact: true });
  await expect(section.getByText('Normalized to Podcast (-16 LUFS, -1 dBTP).')).toBeVisible({ timeout: 30_000 });
  const table = section.getByRole('table', { name: 'Loudness before and after normalization' });
  await expect(table.getByRole('row', { name: /Integrated loudness -19\.8 LUFS -1[56]\.\d LUFS -16\.0 LUFS/ })).toBeVisible();
  await table.scrollIntoViewIfNeeded();
  // The page itself never scrolls sideways on the phone (the table may, inside its own box).
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  const axe = await new AxeBuilder({ page }).include('section.loudness').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await api(page, 'PATCH', '/v1/settings/normalization', { PresetId: 'broadcast-ebu-r128' });
  await page.reload();
  await expect(section.getByText(/The preset in effect is now Broadcast \(EBU R128\) \(-23 LUFS, -1 dBTP\) \(the organization's choice\)/)).toBeVisible({ timeout: 30_000 });
  await section.getByRole('button', { name: 'Normalize again to the current preset' }).click();
  await expect(section.getByText('Normalized to Broadcast (EBU R128) (-23 LUFS, -1 dBTP).')).toBeVisible({ timeout: 90_000 });
  await expect(table.getByRole('row', { name: /Integrated loudness -19\.8 LUFS -2[23]\.\d LUFS -23\.0 LUFS/ })).toBeVisible();
  await context.close();
});
