// A clip's ad markers (issue 34), as a producer places them: on a clip with real uploaded audio in a
// program whose ad-marker rules keep the first 5 seconds free of mid-rolls, a mid-roll added by
// keyboard on the Ad markers section's strip (M at the player's position, → moves it 1 s) is said to
// go against the rule at its time, saved through the outbox all the same, downloaded as CSV, removed
// (Delete on its marker) and read back from the downloaded file. Then, offline, the clip is given
// rules of its own in place of its program's ("Use other rules for this clip": the same fields,
// contradicting ones refused at their field): the mid-roll no longer goes against them; back online
// the server has them, and "Back to the program's rules" brings the rule back. A server of its own:
// the spec changes a program's rules.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { DEFAULT_AD_MARKER_RULES } from '../../src/domain/ad-markers.ts';
import { SYNC_PROTOCOL_VERSION } from '../../src/protocol/sync.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { allChangesSaved, logIn, studioApi } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-ad-markers-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const api = (page: Page, method: string, path: string, body?: unknown, raw?: Buffer) => studioApi(page, ORG_DEMO, method, path, body, raw);

test('a mid-roll placed by keyboard shows the rule it breaks, and its CSV is downloaded and imported back', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server!.baseURL, acceptDownloads: true });
  const page = await context.newPage();
  await logIn(page);

  const stamp = Date.now().toString(36);
  const programId = (await api(page, 'POST', '/v1/programs', { Name: `Sponsored ${stamp}`, Description: 'With breaks', Language: 'en' })).Id as string;
  // The program's rules, as another device of the producer's would send them (program.setAdMarkerRules).
  const pushed = await api(page, 'POST', '/sync/push', {
    protocolVersion: SYNC_PROTOCOL_VERSION,
    clientId: randomUUID(),
    mutations: [{ id: randomUUID(), name: 'program.setAdMarkerRules', args: { programId, AdMarkerRules: { ...DEFAULT_AD_MARKER_RULES, NoMidRollFirstSeconds: 5 } }, base: null, createdAt: Date.now() }],
  });
  expect((pushed as { results: Array<{ status: string }> }).results[0]!.status).toBe('applied');
  const clipId = (await api(page, 'POST', `/v1/programs/${programId}/clips`, { Title: `With a break ${stamp}` })).Id as string;
  await api(page, 'PUT', `/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, undefined, readFileSync(resolve(SHARED_FIXTURES_DIR, 'speech-12s.mp3')));
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).State, { timeout: 60_000, intervals: [1000] }).toBe('Ready');

  await page.goto(`/${ORG_DEMO}/programs/${programId}/clips/${clipId}`);
  const section = page.getByRole('region', { name: 'Ad markers', exact: true });
  await expect(section.getByText("Held to the program's ad-marker rules")).toBeVisible({ timeout: 30_000 });
  await expect(section.getByText('This clip has no mid-rolls.')).toBeVisible();

  // By keyboard: M on the empty strip adds a mid-roll at the player's position (0:00); → twice moves it to 0:02.
  await section.getByRole('group', { name: "Mid-rolls on the clip's timeline" }).focus();
  await page.keyboard.press('m');
  const marker = section.getByRole('slider');
  await expect(marker).toHaveAccessibleName('Ad 1, mid-roll, up to 1 ad, at 0:00');
  await marker.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(marker).toHaveAccessibleName('Ad 1, mid-roll, up to 1 ad, at 0:02');
  // The program's rule, said at the mid-roll's time.
  const time = section.getByRole('group', { name: 'Mid-roll 1' }).getByLabel('At (h:mm:ss)');
  await expect(time).toHaveAccessibleDescription('Against the rules: The ad-marker rules keep the first 0:05 free of mid-rolls');
  await section.getByRole('button', { name: 'Save ad markers' }).click();
  await allChangesSaved(page);
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).AdMarkers).toEqual([{ Type: 'MidRoll', Seconds: 2, MaxAds: 1 }]);

  // Download the CSV, remove the marker, and read the file back.
  const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download as CSV' }).click()]);
  const file = await download.path();
  expect(readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean)).toEqual(['type,time,max_ads', 'mid-roll,0:00:02,1']);
  await marker.focus();
  await page.keyboard.press('Delete');
  await expect(section.getByRole('slider')).toHaveCount(0);
  await section.getByLabel('Import a CSV file (type, time, max_ads)').setInputFiles({ name: 'markers.csv', mimeType: 'text/csv', buffer: readFileSync(file) });
  await expect(section.getByRole('slider')).toHaveAccessibleName('Ad 1, mid-roll, up to 1 ad, at 0:02');
  // A file with a bad line is refused at the import, line by line.
  await section.getByLabel('Import a CSV file (type, time, max_ads)').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('type,time,max_ads\nmid-roll,soon,1\n') });
  await expect(section.getByText('Line 2: “soon” is not a time')).toBeVisible();

  // The clip's own rules, chosen offline: the program's shown first, with their source.
  const rulesOf = (name: string) => section.locator(`dl[aria-label="${name}"]`);
  await expect(rulesOf("The program's ad-marker rules")).toContainText('No mid-roll in the first … seconds5');
  await context.setOffline(true);
  await section.getByRole('button', { name: 'Use other rules for this clip' }).click();
  const first = section.getByLabel('No mid-roll in the first … seconds');
  await expect(first).toHaveValue('5');
  await section.getByLabel('Fewest mid-rolls').fill('3');
  await section.getByLabel('Most mid-rolls').fill('1');
  await section.getByRole('button', { name: "Save this clip's rules" }).click();
  await expect(section.getByLabel('Fewest mid-rolls')).toHaveAccessibleDescription('The fewest mid-rolls cannot be more than the most (1)');
  await section.getByLabel('Fewest mid-rolls').fill('0');
  await first.fill('0');
  await section.getByRole('button', { name: "Save this clip's rules" }).click();
  await expect(section.getByText("Held to this clip's own ad-marker rules")).toBeVisible();
  await expect(rulesOf("This clip's ad-marker rules")).toContainText('Most mid-rolls1');
  // Under the clip's own rules the mid-roll at 0:02 goes against nothing.
  await expect(time).not.toHaveAccessibleDescription(/Against the rules/);
  await context.setOffline(false);
  await allChangesSaved(page, 30_000);
  const own = { ...DEFAULT_AD_MARKER_RULES, MaxMidRolls: 1 };
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).AdMarkerRulesOverride).toEqual(own);

  await section.getByRole('button', { name: "Back to the program's rules" }).click();
  await expect(section.getByText("Held to the program's ad-marker rules")).toBeVisible();
  await expect(time).toHaveAccessibleDescription('Against the rules: The ad-marker rules keep the first 0:05 free of mid-rolls');
  await allChangesSaved(page);
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).AdMarkerRulesOverride).toBeNull();
  await context.close();
});
