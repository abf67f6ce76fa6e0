// Billing & features (issue 33; section 6: admins only): the admin opens it from the Admin section,
// sees the demo organization's plan and the usage the server measured from its rows, sets the
// transcription minutes' cap (saved, and in the usage the server answers), and opens this month's
// invoice, a document made by the server. The support user has no such menu item, is refused at its
// address, and the server refuses them the call. Its own server: the cap changes the demo's billing.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import type { BillingUsage } from '../../src/protocol/api/billing.ts';
import { apiGet, DEMO, logIn } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-billing-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(() => server?.stop());

test('the admin opens Billing & features, sees the plan and measured usage, caps an add-on and opens an invoice', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page, 'admin@example.com', DEMO.password);
  await page.goto(`/${ORG_DEMO}`);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Billing & features' }).click();
  await expect(page).toHaveURL(new RegExp(`/${ORG_DEMO}/billing$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Billing & features' })).toBeVisible();
  // The demo organization's plan as the seed writes it (sync-server/billing/demo.ts).
  await expect(page.getByRole('radio', { name: /^Broadcast/ })).toBeChecked();

  // The usage on screen is the server's measure of the demo's rows.
  const usage = await apiGet<BillingUsage>(page, '/internal/billing/usage', ORG_DEMO);
  const table = page.getByRole('table', { name: `Usage in ${usage.Period.Id}` });
  for (const measure of usage.Measures) {
    const name = { StoredAudioHours: 'Stored audio hours', Downloads: 'Downloads', Seats: 'Seats', TranscriptionMinutes: 'Transcription minutes' }[measure.Measure];
    const row = table.getByRole('row', { name: new RegExp(`^${name}`) });
    await expect(row.getByRole('cell').nth(1)).toHaveText(new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(measure.Allowance));
  }
  expect(usage.Measures.find((m) => m.Measure === 'StoredAudioHours')!.Used).toBeGreaterThan(0);

  const cap = page.getByLabel('Transcription minutes: most units billed beyond the allowance');
  await cap.fill('-1');
  await page.getByRole('button', { name: 'Save cap: Transcription minutes' }).click();
  await expect(page.getByText('Enter a whole number from 0 to 10000000')).toBeVisible();
  await expect(cap).toHaveAttribute('aria-invalid', 'true');
  await cap.fill('120');
  await page.getByRole('button', { name: 'Save cap: Transcription minutes' }).click();
  await expect(page.getByText('Cap saved.')).toBeVisible();
  const after = await apiGet<BillingUsage>(page, '/internal/billing/usage', ORG_DEMO);
  expect(after.Measures.find((m) => m.Measure === 'TranscriptionMinutes')!.MaxOverage).toBe(120);

  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  const [invoice] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: `Open invoice ${usage.Period.Id}` }).click()]);
  await expect(invoice.getByRole('heading', { level: 1, name: `Invoice ${usage.Period.Id}` })).toBeVisible();
  await expect(invoice.getByText('For Castaway Demo Radio')).toBeVisible();
  await expect(invoice.getByRole('cell', { name: 'Broadcast plan, one month' })).toBeVisible();
  await context.close();
});

test('a support user has no Billing & features: no menu item, refused at its address and by the server', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page, 'support@example.com', DEMO.password);
  await page.goto(`/${ORG_DEMO}`);
  await page.getByRole('button', { name: 'Organization' }).click();
  await expect(page.getByRole('menuitem', { name: 'Object search' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Billing & features' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto(`/${ORG_DEMO}/billing`);
  await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
  const status = await page.evaluate(async (org) => (await fetch('/api/internal/billing', { headers: { 'x-organization-id': org } })).status, ORG_DEMO);
  expect(status).toBe(403);
  // Admin settings is theirs: the studio's configuration, without secrets.
  await page.goto(`/${ORG_DEMO}/config`);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin settings' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This organization' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /^Broadcast$/ })).toBeVisible();
  await context.close();
});

test('the admin moves the organization to Starter: Analytics, opened as before, says the plan no longer includes it and leads back to Billing & features; so do Apple Podcasts Subscriptions', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page, 'admin@example.com', DEMO.password);
  await page.goto(`/${ORG_DEMO}/billing`);
  await page.getByRole('radio', { name: /^Starter/ }).check();
  await page.getByRole('button', { name: 'Save plan and add-ons' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  // The session was read before the change, so the screen opens and the server's refusal, naming
  // the feature, is what says it (src/features/analytics/NotInPlan.tsx).
  await page.goto(`/${ORG_DEMO}/analytics`);
  const notice = page.getByRole('status').filter({ has: page.getByRole('heading', { name: 'Not part of this organization’s plan' }) });
  await expect(notice).toContainText('Your plan does not include Download analytics.');
  await notice.getByRole('link', { name: 'Open Billing & features' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing & features' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /^Starter/ })).toBeChecked();

  // Starter has no Apple Podcasts Subscriptions either: their settings say so where they are
  // edited, offer no Apply, and lead an admin to Billing & features (ApplePremiumSettings.tsx).
  const apple = async () => {
    await page.goto(`/${ORG_DEMO}/settings?section=apple`);
    const form = page.locator('form.apple-premium');
    await expect(form.getByRole('status', { name: /plan/i }).or(form.getByRole('status', { name: /Tarif/ }))).toBeVisible();
    await expect(form.getByRole('button', { name: /Apply|Übernehmen/ })).toHaveCount(0);
    return form;
  };
  const form = await apple();
  await expect(form).toContainText('Your plan does not include Apple Podcasts Subscriptions.');
  await expect(form.getByRole('textbox', { name: 'Provider ID' })).toBeDisabled();
  const axe = await new AxeBuilder({ page }).include('.apple-premium').analyze();
  expect(axe.violations).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('apple-not-in-plan-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('apple-not-in-plan-phone.png'), fullPage: true });
  // In German, as a German admin reads it.
  await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'de-DE', url: server.baseURL }]);
  const german = await apple();
  await expect(german).toContainText('Ihr Tarif enthält');
  await page.screenshot({ path: test.info().outputPath('apple-not-in-plan-phone-de.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath('apple-not-in-plan-desktop-de.png'), fullPage: true });
  await german.getByRole('link', { name: 'Abrechnung & Funktionen öffnen' }).click();
  await expect(page).toHaveURL(new RegExp(`/${ORG_DEMO}/billing$`));
  await context.close();
});
