// Issue 29 (Publishing), the journey of a new producer in Chromium, through the studio's own
// screens: a program, a Public playlist with artwork, a Public clip in it with real uploaded audio,
// cut in the editor, published; then a listener's side: the playlist's feed lists the episode with
// the cut's duration and the served file's size (and the artwork as its image), the enclosure
// answers a Range request with 206 and plays in an <audio> element, the show page and the embed
// player play it; and offline the playlist screen still shows the feed address, and an edit made
// there waits and goes out once back online.
// Split into tests of their own (each signs in again) so that no one test carries the whole studio
// in one timeout; the ids pass from one to the next. A program of its own: no other spec sees it.
import { parseFeed } from 'podcast-partytime';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { allChangesSaved, apiGet, DEMO, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

type ClipRow = { State: string; PublishState: string; Slug: string | null; DurationSeconds: number | null; PublishedDurationSeconds: number | null; Urls: { AudioPublicUrl: string | null } };

test.describe.serial('publishing journey', () => {
  const stamp = Date.now().toString(36);
  const programName = `Harbour Lights ${stamp}`;
  const playlistTitle = `Harbour Lights feed ${stamp}`;
  const clipTitle = `Night watch ${stamp}`;
  const organizationId = ORG_DEMO;
  let programId = '';
  let playlistId = '';
  let clipId = '';
  /** The cut keeps 0:00–0:02 and 0:05–0:12 of the 12 s fixture: 9 s less one 10 ms crossfade. */
  const CUT_SECONDS = 9;

  const programUrl = () => `/${organizationId}/programs/${programId}`;
  const clipUrl = () => `${programUrl()}/clips/${clipId}`;
  const playlistUrl = () => `${programUrl()}/playlists/${playlistId}`;

  /** Signs in (the login form is sign-in.spec.ts's; here the session is made over the API to keep
   * each test short on a loaded machine) and opens `path` in the studio. */
  async function signIn(page: Page): Promise<void> {
    expect((await page.request.post('/api/internal/session/login', { data: { Email: DEMO.email, Password: DEMO.password } })).status()).toBe(200);
  }
  async function openSignedIn(page: Page, path: string): Promise<void> {
    await signIn(page);
    await page.goto(path);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  }

  test('a new program', async ({ page }) => {
    await openSignedIn(page, `/${organizationId}/programs`);
    await page.getByRole('button', { name: 'New program' }).click();
    const dialog = page.getByRole('dialog', { name: 'New program' });
    await dialog.getByLabel('Name').fill(programName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Program settings' })).toBeVisible();
    programId = new URL(page.url()).pathname.split('/').at(-2)!;
    await allChangesSaved(page);
  });

  test('a Public playlist in it', async ({ page }) => {
    await openSignedIn(page, programUrl());
    await page.getByRole('tab', { name: 'Playlists' }).click();
    await page.getByRole('link', { name: 'New playlist' }).click();
    await page.getByLabel('Title').fill(playlistTitle);
    await page.getByRole('radio', { name: /Public/ }).check();
    await page.getByRole('button', { name: 'Create playlist' }).click();
    await expect(page.getByRole('heading', { level: 1, name: playlistTitle })).toBeVisible();
    playlistId = new URL(page.url()).pathname.split('/')[5]!;
    await allChangesSaved(page);
    expect(await apiGet<{ Title: string; Visibility: string }>(page, `/v1/playlists/${playlistId}`, organizationId)).toMatchObject({ Title: playlistTitle, Visibility: 'Public' });

    // Its artwork: a square JPEG of the size directories ask for, chosen with the picker.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose artwork' }).click();
    const artwork = await sharp({ create: { width: 1400, height: 1400, channels: 3, background: '#1f6f8b' } }).jpeg().toBuffer();
    await (await chooser).setFiles({ name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: artwork });
    await expect(page.getByRole('img', { name: 'Artwork preview' })).toBeVisible();
    await expect
      .poll(async () => (await apiGet<{ Urls: { ImagePublicUrl: string | null } }>(page, `/v1/playlists/${playlistId}`, organizationId)).Urls.ImagePublicUrl, { timeout: 30_000 })
      .toMatch(/^\/images\/playlist\//);
  });

  test('a Public clip', async ({ page }) => {
    await openSignedIn(page, programUrl());
    await page.getByRole('button', { name: 'New clip' }).click();
    const dialog = page.getByRole('dialog', { name: 'New clip' });
    await dialog.getByLabel('Title').fill(clipTitle);
    await dialog.getByLabel('Visibility').selectOption('Public');
    await dialog.getByRole('button', { name: 'Create clip' }).click();
    await expect(page.getByRole('heading', { level: 1, name: clipTitle })).toBeVisible();
    clipId = new URL(page.url()).pathname.split('/').at(-1)!;
    // The upload is of a clip the server has: the create leaves the device first.
    await allChangesSaved(page);
  });

  test('its audio uploaded and processed to Ready', async ({ page }) => {
    await openSignedIn(page, clipUrl());
    await page.getByLabel('Upload an audio file').setInputFiles(resolve(SHARED_FIXTURES_DIR, 'speech-12s.mp3'));
    const bar = page.getByRole('progressbar', { name: 'Upload of speech-12s.mp3' });
    await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 30_000 });
    // Processing is a job on a loaded machine: the clip screen says when it is done.
    await expect(bar).toHaveAttribute('aria-valuetext', 'Uploaded and processed: the audio is ready', { timeout: 40_000 });
    expect(await apiGet<ClipRow>(page, `/v1/clips/${clipId}`, organizationId)).toMatchObject({ State: 'Ready', DurationSeconds: 12 });
  });

  test('cut in the editor: 0:02–0:05 removed and the cut saved', async ({ page }) => {
    await openSignedIn(page, clipUrl());
    const slider = page.getByRole('slider', { name: 'Playback position' });
    await expect(slider).toHaveAttribute('aria-valuetext', '0:00 of 0:12', { timeout: 30_000 });
    const editor = page.getByRole('region', { name: 'Cut editor' });
    // The selection typed in (marking it by keyboard on the waveform is audio-clip.spec.ts's).
    await editor.getByLabel('Selection start (HH:MM:SS)').fill('00:00:02');
    await editor.getByLabel('Selection end (HH:MM:SS)').fill('00:00:05');
    await editor.getByLabel('Selection end (HH:MM:SS)').press('Enter');
    await expect(editor.getByText('Selection 0:02 to 0:05')).toBeVisible();
    await editor.getByRole('button', { name: 'Remove selection' }).click();
    await expect(editor.getByText('Kept 0:09 in 2 parts')).toBeVisible();
    await editor.getByRole('button', { name: 'Save cut' }).click();
    await expect(page.getByText('Cut saved')).toBeVisible();
    await allChangesSaved(page);
  });

  test('published from the clip screen', async ({ page }) => {
    await openSignedIn(page, clipUrl());
    const panel = page.getByRole('region', { name: 'Publishing' });
    await panel.getByRole('button', { name: 'Publish' }).click();
    await expect(panel.getByRole('status')).toHaveText('Publish state: Published', { timeout: 40_000 });
    await expect(panel.getByRole('group', { name: 'Public links' }).getByRole('textbox', { name: 'Embed player' })).toHaveValue(new URL(publicPaths.embed(clipId), page.url()).toString());
  });

  test('added to the playlist', async ({ page }) => {
    await openSignedIn(page, playlistUrl());
    await expect(page.getByRole('heading', { level: 1, name: playlistTitle })).toBeVisible();
    await page.getByRole('button', { name: 'Add clips' }).click();
    const picker = page.getByRole('dialog', { name: `Add clips to “${playlistTitle}”` });
    await picker.getByRole('checkbox', { name: new RegExp(clipTitle) }).check();
    await picker.getByRole('button', { name: 'Add selected' }).click();
    await expect(page.locator('.reorder-item')).toHaveCount(1);
    await allChangesSaved(page);
    expect((await apiGet<{ ClipIds: string[] }>(page, `/v1/playlists/${playlistId}`, organizationId)).ClipIds).toEqual([clipId]);
  });

  test('the feed lists the episode with the cut’s duration and the served file’s size; the enclosure answers a Range with 206 and plays', async ({ page, baseURL }) => {
    const feedUrl = new URL(publicPaths.feed(playlistId), baseURL).toString();
    // The cut's published render is a job of its own: the feed says 9 s once it has landed.
    let item: NonNullable<ReturnType<typeof parseFeed>>['items'][number] | undefined;
    await expect
      .poll(
        async () => {
          const res = await page.request.get(feedUrl);
          if (res.status() !== 200) return `status ${res.status()}`;
          item = parseFeed(await res.text())?.items.find((it) => it.guid === clipId);
          return item ? { title: item.title, duration: item.duration } : 'no item';
        },
        { timeout: 40_000, intervals: [1000] },
      )
      .toEqual({ title: clipTitle, duration: CUT_SECONDS });
    // The playlist's artwork is the podcast's image, and it is served.
    const channel = parseFeed(await (await page.request.get(feedUrl)).text())!;
    expect(channel.itunesImage).toMatch(new RegExp(`^${new URL('/images/playlist/', baseURL).toString()}`));
    const image = await page.request.get(channel.itunesImage!);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toMatch(/^image\/(jpeg|png)$/);

    const enclosure = item!.enclosure!;
    expect(enclosure.url).toBe(new URL(`/audio/${clipId}.${enclosure.url.split('.').at(-1)}`, baseURL).toString());

    // The file served is the one the feed describes, byte for byte in size.
    const whole = await page.request.get(enclosure.url);
    expect(whole.status()).toBe(200);
    expect((await whole.body()).length).toBe(enclosure.length);
    const part = await page.request.get(enclosure.url, { headers: { range: 'bytes=0-1023' } });
    expect(part.status()).toBe(206);
    expect(part.headers()['content-range']).toBe(`bytes 0-1023/${enclosure.length}`);
    expect((await part.body()).length).toBe(1024);

    // A listener's player: the duration it reads is the feed's, and it plays.
    await page.setContent(`<audio controls preload="metadata" src="${enclosure.url}"></audio>`);
    const audio = page.locator('audio');
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.duration), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(Math.round(await audio.evaluate((el: HTMLAudioElement) => el.duration))).toBe(CUT_SECONDS);
    await audio.click();
    await audio.evaluate((el: HTMLAudioElement) => el.play());
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5);
  });

  test('the show page and the embed player play the episode', async ({ page }) => {
    await signIn(page);
    const clip = await apiGet<ClipRow>(page, `/v1/clips/${clipId}`, organizationId);
    expect(clip.Slug).not.toBeNull();

    await page.goto(publicPaths.clipPage(programId, clip.Slug!));
    await expect(page.getByRole('heading', { level: 1, name: clipTitle })).toBeVisible();
    const showAudio = page.locator('audio');
    await showAudio.click();
    await showAudio.evaluate((el: HTMLAudioElement) => el.play());
    await expect.poll(() => showAudio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5);

    await page.goto(publicPaths.embed(clipId));
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    await expect.poll(() => page.locator('audio').evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5);
  });

  test('offline, the playlist screen still shows the feed address, and an edit waits and goes out when back online', async ({ page, context, baseURL }) => {
    await openSignedIn(page, playlistUrl());
    await expect(page.getByRole('heading', { level: 1, name: playlistTitle })).toBeVisible();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    await context.setOffline(true);
    // From the device alone: the shell from the service worker, the playlist from IndexedDB.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: playlistTitle })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('textbox', { name: 'Feed address', exact: true })).toHaveValue(new URL(publicPaths.feed(playlistId), baseURL).toString());

    const details = page.getByRole('form', { name: 'Details' });
    await details.getByLabel('Title').fill(`${playlistTitle} (late edition)`);
    await details.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `${playlistTitle} (late edition)` })).toBeVisible();
    await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');

    await context.setOffline(false);
    await allChangesSaved(page, 30_000);
    expect((await apiGet<{ Title: string }>(page, `/v1/playlists/${playlistId}`, organizationId)).Title).toBe(`${playlistTitle} (late edition)`);
    // And the feed says so.
    await expect.poll(async () => parseFeed(await (await page.request.get(publicPaths.feed(playlistId))).text())?.title).toBe(`${playlistTitle} (late edition)`);
  });
});
