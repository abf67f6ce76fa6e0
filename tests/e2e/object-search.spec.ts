// Staff tools (issue 33): the admin, a member of the demo organization only, opens Object search
// from the Admin section (searching for the page they are on), looks up a customer's clip by words
// of its title, finds it in Castaway Podcasts with Grant access offered, grants it, lands on the
// clip (its brand safety analyzed again by the other staff clip tool), and opens that organization's
// settings from the Admin section. A query too short is refused
// at the field. Its own server: the admin's memberships change, which specs sharing the run's
// server count on (the Organization not found page offers Grant access).
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ORG_DEMO, ORG_PODCASTS } from '../../sync-server/seed.ts';
import { DEMO, logIn } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-lookup-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(() => server?.stop());

test('the admin finds an organization by a clip title, grants access, and opens its settings', async ({ browser }) => {
  test.setTimeout(90_000);
  // A clip of Castaway Podcasts, as a customer would name it to support (asked of the server as the demo user, who is a member there).
  const customer = await browser.newContext({ baseURL: server.baseURL });
  const customerPage = await customer.newPage();
  await logIn(customerPage, DEMO.email, DEMO.password);
  const clips = await customerPage.evaluate(async (org) => {
    const res = await fetch('/api/v1/clips/search?pageSize=5', { headers: { 'x-organization-id': org } });
    return ((await res.json()) as { Items: Array<{ Id: string; Title: string | null }> }).Items;
  }, ORG_PODCASTS);
  const clip = clips.find((c): c is { Id: string; Title: string } => !!c.Title && c.Title.length > 8)!;
  await customer.close();

  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page, 'admin@example.com', DEMO.password);
  await page.goto(`/${ORG_DEMO}`);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Object search' }).click();
  const search = page.getByRole('search', { name: 'Object search' });
  const box = search.getByRole('searchbox', { name: 'Find' });
  // Opened from the menu, it searches for the page the admin was on: the demo organization.
  await expect(box).toHaveValue(new RegExp(ORG_DEMO));
  await expect(page.getByRole('listitem', { name: 'Organization: Castaway Demo Radio' })).toBeVisible({ timeout: 30_000 });

  await box.fill('ab');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(search.getByText('Type at least 3 characters, an id, an e-mail or an address of the studio')).toBeVisible();
  await expect(box).toHaveAttribute('aria-invalid', 'true');

  const words = clip.Title.slice(0, Math.min(clip.Title.length, 24));
  await box.fill(words);
  await box.press('Enter');
  const row = page.getByRole('listitem', { name: `Clip: ${clip.Title}` });
  await expect(row).toContainText('Castaway Podcasts');
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The staff clip tool: the clip's brand safety analyzed again, whoever's clip it is.
  await row.getByRole('button', { name: `Analyze brand safety again: Clip: ${clip.Title}` }).click();
  await expect(row.getByRole('status')).toHaveText("The clip's brand safety is being analyzed again; its clip screen shows the result.");

  await row.getByRole('button', { name: `Grant access and open: Clip: ${clip.Title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/${ORG_PODCASTS}/programs/[^/]+/clips/${clip.Id}$`), { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText(clip.Title.slice(0, 10), { timeout: 30_000 });
  // Its analysis, made by the job the tool queued: the clip's risk, and the words it read.
  const safety = page.getByRole('region', { name: 'Brand safety' });
  await expect(safety.getByText(/^Risk: /)).toBeVisible({ timeout: 30_000 });
  await expect(safety.getByText(/^Read \d+ words of the title(, description and transcript| and description) on /)).toBeVisible();

  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization settings (admin)' }).click();
  await expect(page).toHaveURL(new RegExp(`/${ORG_PODCASTS}/settings`));
  await expect(page.getByRole('tab', { name: 'Webhooks' })).toBeVisible({ timeout: 30_000 });
  await context.close();
});
