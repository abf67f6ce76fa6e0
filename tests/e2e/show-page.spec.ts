// Issue 29, show pages and the embed player, as a listener meets them: a clip of the demo with
// real audio is published through the API, then its embed player is played by keyboard alone
// (Tab to the play button, Space; Tab to the seek bar, ArrowRight) and its show page has no
// accessibility violations. One clip of Business Hour is this spec's (no other spec uses that program).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO } from './support.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';

type Clip = { Id: string; ProgramId: string; State: string; Visibility: string; ScheduledVisibility: string | null; PublishState: string; MediaType: string; DurationSeconds: number | null; Deleted: boolean; Slug: string | null; Urls: { AudioPublicUrl: string | null } };

/** Signs in over the API (the page's own cookies); the demo organization and an XSRF token for writes. */
async function signIn(page: Page): Promise<{ organizationId: string; xsrf: string }> {
  expect((await page.request.post('/api/internal/session/login', { data: { Email: DEMO.email, Password: DEMO.password } })).status()).toBe(200);
  const xsrf = ((await (await page.request.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string }).XsrfToken;
  return { organizationId: ORG_DEMO, xsrf };
}

/** An unpublished Public clip of Business Hour with audio of at least 10 s, published through the API; the clip once Published. */
async function publishedClip(page: Page): Promise<Clip> {
  const { organizationId, xsrf } = await signIn(page);
  const headers = { 'x-organization-id': organizationId };
  const list = (await (await page.request.get('/api/v1/clips?pageSize=2500', { headers })).json()) as { Items: Clip[] };
  const candidate = list.Items.find(
    (c) =>
      c.ProgramId === seedId('program:business') && !c.Deleted && c.State === 'Ready' && c.MediaType === 'Audio' && c.Visibility === 'Public' && c.PublishState === 'Unpublished' && c.ScheduledVisibility === null && (c.DurationSeconds ?? 0) >= 10,
  );
  expect(candidate, 'an unpublished Ready Public clip of Business Hour').toBeDefined();
  const publish = await page.request.post(`/api/v1/clips/${candidate!.Id}/publish`, { headers: { ...headers, 'x-xsrf-token': xsrf } });
  expect(publish.status(), await publish.text()).toBe(202);
  let clip: Clip | null = null;
  await expect
    .poll(
      async () => {
        clip = (await (await page.request.get(`/api/v1/clips/${candidate!.Id}`, { headers })).json()) as Clip;
        return clip.PublishState === 'Published' && clip.Urls.AudioPublicUrl !== null;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return clip!;
}

test('the embed player of a published clip plays by keyboard, and its show page has no accessibility violations', async ({ page }) => {
  const clip = await publishedClip(page);

  await page.goto(publicPaths.embed(clip.Id));
  const play = page.getByRole('button', { name: 'Play', exact: true });
  const seek = page.getByRole('slider', { name: 'Seek' });
  const audio = page.locator('audio');
  await expect(seek).toBeVisible();
  // Tab until the play button has the focus (the program and the title links come first).
  for (let i = 0; i < 5 && !(await play.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(play).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeFocused();
  await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5);
  // Paused again, so that only the seek bar moves the time.
  await page.keyboard.press('Space');
  await expect(play).toBeFocused();
  const before = await audio.evaluate((el: HTMLAudioElement) => el.currentTime);
  await page.keyboard.press('Tab');
  await expect(seek).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime)).toBeGreaterThanOrEqual(before + 4.5);
  await expect(seek).toHaveAttribute('aria-valuetext', new RegExp(`^0:0[5-9] of ${Math.floor(clip.DurationSeconds! / 60)}:`));

  await page.goto(publicPaths.clipPage(clip.ProgramId, clip.Slug!));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
