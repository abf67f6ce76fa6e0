// The plan decides what the studio offers (billing, issue 31 follow-up; section 6: "Analytics needs
// content access plus the playlist-download-analytics feature"). The demo user holds every flag in
// both demo organizations; Castaway Podcasts is on Starter, without download analytics
// (sync-server/billing/demo.ts). There the navigation has no Analytics, a deep link says the plan
// does not include it (and who can change that), and the server refuses the figures naming the
// feature. In Castaway Demo Radio (Broadcast) the same user has Analytics. Nothing is changed.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { logIn } from './support.ts';

test('a deep link to Analytics in an organization whose plan lacks it says so; where the plan has it, Analytics is there', async ({ page }) => {
  test.setTimeout(90_000);
  await logIn(page);

  await page.goto(`/${ORG_PODCASTS}`);
  await expect(page.getByRole('button', { name: 'Organization' })).toContainText('Castaway Podcasts');
  await page.getByRole('button', { name: 'Organization' }).click();
  await expect(page.getByRole('menuitem', { name: 'Organization reports' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Organization analytics' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.goto(`/${ORG_PODCASTS}/analytics`);
  const notice = page.getByRole('status').filter({ has: page.getByRole('heading', { name: 'Not part of this organization’s plan' }) });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Your plan does not include Download analytics.');
  // Not an admin: told who can change it, not sent to a screen they may not open.
  await expect(notice).toContainText('An admin of the studio can add it under Billing & features.');
  await expect(notice.getByRole('link', { name: 'Open Billing & features' })).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('not-in-plan-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(notice).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('not-in-plan-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A program's screen offers no Analytics either.
  await page.goto(`/${ORG_PODCASTS}/programs/${seedId('program:deepdive')}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Deep Dive' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Analytics', exact: true })).toHaveCount(0);

  // The server says the same to a caller who asks anyway.
  const refused = await page.evaluate(async (org) => {
    const res = await fetch('/api/v1/analytics/progress', { headers: { 'x-organization-id': org } });
    return { status: res.status, body: (await res.json()) as { Errors: Array<{ Code: string; Params: unknown }> } };
  }, ORG_PODCASTS);
  expect(refused).toEqual({ status: 403, body: { Errors: [expect.objectContaining({ Code: 'featureNotInPlan', Params: { feature: 'playlist-download-analytics' } })] } });

  // Castaway Demo Radio's plan has it: the menu item and the screen.
  await page.goto(`/${ORG_DEMO}`);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization analytics' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organization analytics' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'What the numbers cover' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Not part of this organization’s plan' })).toHaveCount(0);
  await page.goto(`/${ORG_DEMO}/programs/${seedId('program:morning')}`);
  await expect(page.getByRole('link', { name: 'Analytics', exact: true })).toBeVisible();
});
