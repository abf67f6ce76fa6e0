// A program's intro and outro (issue 33), as a producer sets them on the program's settings page: a
// stereo WAV chosen with the file picker as the intro is sent, checked on the server ("Checking …")
// and ready; a FLAC dropped on the outro's zone the same; once synced the card shows each file with
// its length and a player; "Apply to existing episodes" queues the program's episode, whose
// published audio then is intro + episode + outro (its DurationSeconds about 36 s). A server of its
// own: the spec changes a program's published audio.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { logIn, studioApi } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-intro-outro-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const api = (page: Page, method: string, path: string, body?: unknown, raw?: Buffer) => studioApi(page, ORG_DEMO, method, path, body, raw);

test('a producer sets an intro by the file picker and an outro by dropping a file, and applies them to an episode', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);

  const stamp = Date.now().toString(36);
  const programId = (await api(page, 'POST', '/v1/programs', { Name: `Jingles ${stamp}`, Description: 'With an intro', Language: 'en' })).Id as string;
  const clipId = (await api(page, 'POST', `/v1/programs/${programId}/clips`, { Title: `Episode ${stamp}` })).Id as string;
  await api(page, 'PUT', `/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, undefined, readFileSync(resolve(SHARED_FIXTURES_DIR, 'speech-12s.mp3')));
  await expect.poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).State, { timeout: 60_000, intervals: [1000] }).toBe('Ready');

  await page.goto(`/${ORG_DEMO}/programs/${programId}/settings`);
  const card = page.getByRole('region', { name: 'Intro and outro' });
  await expect(card.getByText('None set.')).toHaveCount(2, { timeout: 30_000 });

  // The intro by the file picker: sent, checked on the server, ready.
  const chooser = page.waitForEvent('filechooser');
  await card.getByRole('button', { name: 'Choose a file for the intro' }).click();
  await (await chooser).setFiles(resolve(SHARED_FIXTURES_DIR, 'speech-12s-stereo.wav'));
  const intro = card.getByTestId('intro-outro-intro');
  await expect(intro.getByText('Intro ready: speech-12s-stereo.wav')).toBeVisible({ timeout: 60_000 });
  await expect(intro.getByText(/^speech-12s-stereo\.wav, 0:12, uploaded /)).toBeVisible({ timeout: 30_000 });
  await expect(intro.getByLabel('Listen to the intro')).toBeVisible();

  // The outro dropped on its zone.
  const flac = readFileSync(resolve(SHARED_FIXTURES_DIR, 'speech-12s.flac')).toString('base64');
  const dropped = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'speech-12s.flac', { type: 'audio/flac' }));
    return transfer;
  }, flac);
  const outro = card.getByTestId('intro-outro-outro');
  await outro.dispatchEvent('dragover', { dataTransfer: dropped });
  await outro.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(outro.getByText('Outro ready: speech-12s.flac')).toBeVisible({ timeout: 60_000 });
  await expect(outro.getByText(/^speech-12s\.flac, 0:12, uploaded /)).toBeVisible({ timeout: 30_000 });

  // Existing episodes keep their audio until applied.
  expect((await api(page, 'GET', `/v1/clips/${clipId}`)).DurationSeconds as number).toBeLessThan(13);
  await card.getByRole('button', { name: 'Apply to existing episodes' }).click();
  await expect(card.getByText('Episodes queued to be made again: 1')).toBeVisible();
  await expect
    .poll(async () => (await api(page, 'GET', `/v1/clips/${clipId}`)).DurationSeconds as number, { timeout: 90_000, intervals: [1000] })
    .toBeGreaterThan(35.5);
  expect((await api(page, 'GET', `/v1/clips/${clipId}`)).DurationSeconds as number).toBeLessThan(36.5);
  await context.close();
});
