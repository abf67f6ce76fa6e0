// A recording as it happens (issue 34), on a server of its own (it adds a recording agent and a
// recording): a 72-second MP3 made from the fixtures with ffmpeg is pushed by `ffmpeg -re` to the
// live ingest with the agent's credentials, chunked, as an encoder does. In Chromium the recording
// screen draws the waveform growing while it runs (the drawn width read twice, larger the second
// time), a note is added as an annotation at the live edge, and when the stream ends the screen —
// not reloaded — shows the finalized recording: its player with the whole length, both waveforms
// and its duration (±1 s) as the server has them. First, the agents' tab of Organization settings:
// an agent refused at its fields, made (its token shown once), renamed and deleted. Last, the
// day's production memo opened from the recording, and a day without one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { logIn, openOrganizationHome } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;
let work = '';
let stream = '';
/** The pushed stream: the 12 s fixture STREAM_SECONDS / 12 times over. */
const STREAM_SECONDS = 72;
/** The stream's length as the screen writes it (m:ss), a second either way. */
const STREAM_LENGTH = new RegExp([-1, 0, 1].map((d) => { const t = STREAM_SECONDS + d; return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`; }).join('|'));

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 30_000);
  work = mkdtempSync(join(tmpdir(), 'castaway-live-e2e-'));
  // The 12 s fixture copied frame for frame, pushed in real time. Long enough for
  // the screen to open on a loaded machine and take a note while it is still live (it was 2 minutes,
  // the longest test of the run by far, mostly spent waiting for the stream to end).
  stream = join(work, 'stream.mp3');
  const made = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-stream_loop', String(STREAM_SECONDS / 12 - 1), '-i', join(SHARED_FIXTURES_DIR, 'speech-12s.mp3'), '-c', 'copy', stream]);
  expect(made.status, made.stderr.toString()).toBe(0);
  server = await startOwnServer('castaway-live-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => {
  server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

type Recording = { Id: string; Title: string; State: string; DurationSeconds: number | null; Urls: Record<string, string | null> };

/** Signs in as the demo user and opens the organization's home; makes a recording agent named
 *  `name` that may push to Morning Briefing. */
async function morningAgent(page: Page, name: string) {
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  const headers = { 'x-organization-id': organizationId };
  const programs = (await (await page.request.get('/api/v1/programs?pageSize=100', { headers })).json()) as { Items: Array<{ Id: string; Name: string }> };
  const programId = programs.Items.find((p) => p.Name === 'Morning Briefing')!.Id;
  const xsrf = ((await (await page.request.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string }).XsrfToken;
  const made = await page.request.post('/api/v1/recording-agents', { headers: { ...headers, 'x-xsrf-token': xsrf }, data: { Name: name, ProgramIds: [programId] } });
  expect(made.status()).toBe(201);
  return { organizationId, headers, programId, agent: (await made.json()) as { Id: string; Token: string } };
}

test('recording agents on Organization settings: refused at their fields, made with a token shown once, edited, deleted', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  await page.goto(`/${organizationId}/settings?section=recording-agents`);
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByText('No recording agents yet.')).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'New recording agent' }).click();
  // Nothing typed, nothing ticked: each refusal at its field, before anything is sent.
  await panel.getByRole('button', { name: 'Create agent' }).click();
  await expect(panel.getByText('You must enter a name')).toBeVisible();
  await expect(panel.getByText('Choose at least one program the agent may send recordings to')).toBeVisible();
  await panel.getByLabel('Name').fill('Studio encoder');
  await panel.getByRole('checkbox', { name: 'Morning Briefing' }).check();
  await panel.getByRole('button', { name: 'Create agent' }).click();
  // The token, shown this once.
  const token = await panel.getByLabel('Token of Studio encoder').inputValue();
  expect(token).toMatch(/^crt_/);
  await panel.getByRole('button', { name: 'I have copied it' }).click();
  await expect(panel.getByLabel('Token of Studio encoder')).toBeHidden();
  await expect(panel.getByRole('listitem').filter({ hasText: 'Studio encoder' })).toContainText('Morning Briefing');
  await expect(panel.getByRole('listitem').filter({ hasText: 'Studio encoder' })).toContainText('Has not sent anything yet');

  await panel.getByRole('button', { name: 'Edit Studio encoder' }).click();
  await panel.getByLabel('Name').fill('Studio desk');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('listitem').filter({ hasText: 'Studio desk' })).toBeVisible();

  await panel.getByRole('button', { name: 'Delete Studio desk' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Studio desk' }).click();
  await expect(panel.getByText('No recording agents yet.')).toBeVisible();
  const left = (await (await page.request.get('/api/v1/recording-agents', { headers: { 'x-organization-id': organizationId } })).json()) as unknown[];
  expect(left).toEqual([]);
  await context.close();
});

test('an encoder pushes a live recording: its waveform grows on screen, an annotation at the live edge, then Finalized in place', async ({ browser }) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  const { organizationId, headers, programId, agent } = await morningAgent(page, 'Studio encoder');

  const origin = new URL(server!.baseURL);
  const title = 'Morning live from the encoder';
  const url = `http://${agent.Id}:${agent.Token}@127.0.0.1:${origin.port}/api/v1/programs/${programId}/recordings/live?title=${encodeURIComponent(title)}`;
  const ffmpeg = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-i', stream, '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', '-method', 'PUT', '-chunked_post', '1', '-auth_type', 'basic', url], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  ffmpeg.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const pushed = new Promise<number | null>((resolve) => ffmpeg.on('close', resolve));

  try {
    let recording: Recording | undefined;
    await expect
      .poll(async () => {
        const list = (await (await page.request.get(`/api/v1/programs/${programId}/recordings?status=Live`, { headers })).json()) as { Items: Recording[] };
        recording = list.Items.find((r) => r.Title === title);
        return recording?.State;
      }, { timeout: 30_000 })
      .toBe('Live');
    await page.goto(`/${organizationId}/programs/${programId}/recordings/${recording!.Id}`);
    const waveform = page.getByRole('img', { name: /^Waveform of the live recording/ });
    await expect(waveform).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('live-edge')).toBeVisible({ timeout: 30_000 });

    // The waveform grows while the stream runs: the drawn width, read twice.
    const drawn = async () => Number(await waveform.getAttribute('data-drawn-width'));
    await expect.poll(drawn, { timeout: 30_000 }).toBeGreaterThan(0);
    const first = await drawn();
    await page.waitForTimeout(5_000);
    const second = await drawn();
    expect(second).toBeGreaterThan(first);

    // A note at the live edge, listed with the annotations at that time.
    const edge = (await page.getByRole('status').filter({ hasText: /^Live edge at / }).textContent())!.replace('Live edge at ', '');
    await page.getByLabel('Note at the live edge').fill('Guest arrives');
    await page.getByRole('button', { name: 'Add annotation at the live edge' }).click();
    const annotations = page.getByRole('region', { name: 'Annotations' });
    await expect(annotations.getByRole('listitem').filter({ hasText: 'Guest arrives' })).toBeVisible();
    const at = (await annotations.getByRole('listitem').filter({ hasText: 'Guest arrives' }).locator('.mono').textContent())!;
    // Added where the edge was when clicked: at or a moment after the edge last shown.
    const seconds = (t: string) => t.split(':').reduce((s, part) => s * 60 + Number(part), 0);
    expect(seconds(at)).toBeGreaterThanOrEqual(seconds(edge));
    expect(seconds(at) - seconds(edge)).toBeLessThanOrEqual(2);

    // The stream ends: the same screen, not reloaded, shows the finalized recording.
    expect(await pushed, stderr).toBe(0);
    await expect(waveform).toBeHidden({ timeout: 60_000 });
    const slider = page.getByRole('region', { name: 'Audio' }).getByRole('slider', { name: 'Playback position' });
    await expect(slider).toHaveAttribute('aria-valuetext', new RegExp(`^0:00 of (${STREAM_LENGTH.source})$`), { timeout: 60_000 });
    const done = (await (await page.request.get(`/api/v1/recordings/${recording!.Id}`, { headers })).json()) as Recording & { HasTornAudio: boolean; CaptureStartUtc: string | null };
    expect(done.State).toBe('Finalized');
    expect(done.HasTornAudio).toBe(false);
    expect(Math.abs(done.DurationSeconds! - STREAM_SECONDS)).toBeLessThanOrEqual(1);
    expect(done.Urls.WaveformHighResUrl).not.toBeNull();
    expect(done.Urls.WaveformLowResUrl).not.toBeNull();
    for (const file of ['waveform-high.dat', 'waveform-low.dat']) expect((await page.request.get(`/api/media/recordings/${recording!.Id}/${file}`, { headers })).status()).toBe(200);

    // The day's production memo, from the recording: the recording with its annotation, and the program's figures.
    await page.getByRole('link', { name: 'Production memo of this day' }).click();
    const day = done.CaptureStartUtc!.slice(0, 10);
    await expect(page.getByRole('heading', { level: 1, name: `Production memo, ${day}` })).toBeVisible();
    const listed = page.getByRole('region', { name: 'Recordings of the day' }).getByRole('listitem').filter({ hasText: title });
    await expect(listed).toContainText('Guest arrives');
    await expect(listed).toContainText(STREAM_LENGTH);
    await expect(page.getByRole('region', { name: 'The program’s recordings' })).toBeVisible();
    // A day without recordings has no memo.
    await page.goto(`/${organizationId}/programs/${programId}/recordings/memos/1999-01-01`);
    await expect(page.getByRole('heading', { name: /Production memo not found/ })).toBeVisible();
  } finally {
    ffmpeg.kill();
    await context.close();
  }
});

test('a stream cut off before any of its audio could be kept: the recording screen says it has none, in English and German, on a phone too', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  const { organizationId, programId, agent } = await morningAgent(page, 'Broken encoder');

  // An encoder that sends bytes no decoder reads, then stops: nothing of it can be kept (as when its
  // instance dies with a blob folder the others do not share; sync-server/audio/live-end.ts).
  const title = 'Morning live, nothing kept';
  const pushed = await page.request.put(`/api/v1/programs/${programId}/recordings/live?title=${encodeURIComponent(title)}`, {
    headers: { authorization: `Basic ${Buffer.from(`${agent.Id}:${agent.Token}`).toString('base64')}`, 'content-type': 'audio/mpeg' },
    data: Buffer.from(readFileSync(join(SHARED_FIXTURES_DIR, 'not-audio.mp3'))),
  });
  expect(pushed.status()).toBe(201);
  const { Recording: recording } = (await pushed.json()) as { Recording: Recording & { HasTornAudio: boolean } };
  expect(recording).toMatchObject({ State: 'Finalized', HasTornAudio: true, DurationSeconds: 0, Urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null } });

  await page.goto(`/${organizationId}/programs/${programId}/recordings/${recording.Id}`);
  const audio = page.getByRole('region', { name: 'Audio' });
  await expect(audio.getByText('The stream was cut off and none of its audio could be kept: this recording has no audio.')).toBeVisible({ timeout: 30_000 });
  // Said once: not also the plain "no audio" of a recording that never had any.
  await expect(audio.getByText('This recording has no audio.', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('lost-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(audio.getByText(/none of its audio could be kept/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('lost-phone.png'), fullPage: true });

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(page.getByText('Der Stream brach ab, und nichts von seinem Ton konnte behalten werden: Diese Aufnahme hat keinen Ton.')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('lost-phone-de.png'), fullPage: true });
  // Back to English for whoever signs in as the demo user next.
  await page.getByRole('button', { name: 'Konto' }).click();
  await page.getByRole('menuitem', { name: 'English (United States)' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await context.close();
});
