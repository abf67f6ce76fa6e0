// A recording's transcript (issue 34), as a producer uses it: on a demo recording's screen, import a
// WebVTT file, correct a word and save; go offline, correct another (saved on the device, waiting
// for the connection, while transcribing says it needs it); come back online and find it sent and
// kept after a reload. A server of its own: the spec writes a demo recording's transcript.
import { expect, test } from '@playwright/test';
import { openRecording } from './recordings.ts';
import { logIn } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-recording-transcript-', { CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const VTT = `WEBVTT

00:00:00.500 --> 00:00:03.000
<v Ana>Good morning from the studio.

00:00:03.000 --> 00:00:06.250
<v Ben>The harbour pelicans are bak.
`;

test('a producer imports a VTT on a recording, corrects a word, edits again offline, and finds both saved once back online', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);
  await openRecording(page, 'Screen Time', /finalized recording/);

  const section = page.getByRole('region', { name: 'Transcript', exact: true });
  await expect(section.getByText('This recording has no transcript yet.')).toBeVisible({ timeout: 20_000 });
  // A recording's transcript is never public: nothing offers to publish it.
  await expect(section.getByText(/Publish/)).toHaveCount(0);

  await section.getByLabel('Import a transcript file').setInputFiles({ name: 'morning.vtt', mimeType: 'text/vtt', buffer: Buffer.from(VTT) });
  const second = section.getByRole('listitem', { name: 'Cue 2' });
  await expect(second.getByLabel('Speaker')).toHaveValue('Ben');
  await second.getByLabel('Text').fill('The harbour pelicans are back.');
  await section.getByRole('button', { name: 'Save transcript' }).click();
  await expect(page.getByText('Transcript saved', { exact: true })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Save transcript' })).toBeDisabled();

  // Offline at once (the first edit may not be loaded back yet: the second is still made on it):
  // the edit is kept on the device and waits; the server's own work says it needs the connection.
  await context.setOffline(true);
  await expect(section.getByRole('listitem', { name: 'Cue 2' }).getByLabel('Text')).toHaveValue('The harbour pelicans are back.');
  await expect(section.getByText('Offline: edits are saved on this device and sent when the connection returns.', { exact: false })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Transcribe automatically' })).toBeDisabled();
  const first = section.getByRole('listitem', { name: 'Cue 1' });
  await first.getByLabel('Text').fill('Good morning from the harbour studio.');
  await section.getByRole('button', { name: 'Save transcript' }).click();
  await expect(section.getByText('Saved on this device: waiting for the connection to send it.')).toBeVisible();

  // Back online: sent, then loaded again from the server.
  await context.setOffline(false);
  await expect(section.getByText('Saved on this device: waiting for the connection to send it.')).toBeHidden({ timeout: 30_000 });
  await expect(section.getByText('Sending the saved transcript…')).toBeHidden({ timeout: 30_000 });

  await page.reload();
  // Nothing was refused: the edit went onto the transcript it was made from.
  await expect(page.getByText(/needs attention/)).toHaveCount(0);
  const kept = page.getByRole('region', { name: 'Transcript', exact: true });
  await expect(kept.getByRole('listitem', { name: 'Cue 1' }).getByLabel('Text')).toHaveValue('Good morning from the harbour studio.', { timeout: 20_000 });
  await expect(kept.getByRole('listitem', { name: 'Cue 2' }).getByLabel('Text')).toHaveValue('The harbour pelicans are back.');
  await context.close();
});
