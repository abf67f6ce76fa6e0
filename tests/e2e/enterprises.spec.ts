// Enterprises (issue 33, section 6: for admins and users with reseller access): the reseller, a
// member of Castaway Podcasts only, opens Enterprises from the organization menu, opens its
// enterprise and there the demo organization it manages ("Open" makes it a member, and it lands
// in the organization), then edits the notes the enterprise keeps about it. An enterprise id that
// names none, and one that is not an id, show "Enterprise not found". Its own server: the
// reseller's memberships and the enterprise's notes change, which other specs must not see.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { DEMO_ENTERPRISE } from '../../sync-server/enterprises/demo.ts';
import { DEMO, logIn } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-enterprises-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(() => server?.stop());

test('the reseller opens its enterprise’s organization from Enterprises and edits its notes', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page, 'reseller@example.com', DEMO.password);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Enterprises' }).click();
  await expect(page).toHaveURL(/\/enterprises$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Enterprises' })).toBeVisible();
  // Only its own enterprise: Castaway Podcast Partners is not the reseller's.
  const list = page.getByRole('list', { name: 'Enterprises' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('Castaway Podcast Partners')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await list.getByRole('link', { name: 'Castaway Demo Group' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Castaway Demo Group' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Sales codes' })).toContainText('CASTAWAY-DEMO');
  await expect(page.getByRole('list', { name: 'Users' })).toContainText('Robin Reseller');
  const card = page.getByRole('listitem', { name: 'Castaway Demo Radio' });
  await card.getByRole('button', { name: 'Open: Castaway Demo Radio' }).click();
  // A member now: the organization's home.
  await expect(page).toHaveURL(new RegExp(`/${ORG_DEMO}$`), { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible({ timeout: 30_000 });

  // Back to the enterprise: the organization's details, and its notes edited.
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Enterprises' }).click();
  await page.getByRole('link', { name: 'Castaway Demo Group' }).click();
  await expect(page.getByRole('listitem', { name: 'Castaway Demo Radio' }).getByText('You are a member')).toBeVisible();
  await page.getByRole('link', { name: 'Details: Castaway Demo Radio' }).click();
  await expect(page).toHaveURL(new RegExp(`/enterprises/${DEMO_ENTERPRISE}/organizations/${ORG_DEMO}$`));
  const form = page.getByRole('form', { name: 'What the enterprise keeps about it' });
  await expect(form.getByLabel('Plan', { exact: true })).toHaveValue('Group Standard');
  await form.getByLabel('Notes').fill('Renewal in March; call Dana first.');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  await page.reload();
  await expect(page.getByRole('form', { name: 'What the enterprise keeps about it' }).getByLabel('Notes')).toHaveValue('Renewal in March; call Dana first.');
  await context.close();
});

test('an enterprise id that names none, or is not an id, shows "Enterprise not found"', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page, 'reseller@example.com', DEMO.password);
  await page.goto(`/enterprises/${crypto.randomUUID()}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Enterprise not found' })).toBeVisible({ timeout: 30_000 });
  await page.goto('/enterprises/not-an-id');
  await expect(page.getByRole('heading', { level: 1, name: 'Enterprise not found' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('"not-an-id" is not a valid', { exact: false })).toBeVisible();
  await context.close();
});
