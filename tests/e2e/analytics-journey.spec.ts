// Issue 30's journey, as the analytics-only demo user: the organization's charts draw with the
// demo's listening (the e2e server generates 30 days of it: playwright.config.ts), a consumption
// summary report runs to Success with its progress shown, its CSV's total equals the chart's, and
// offline the last view shows again with the time it is from.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { logIn } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const ANALYST = 'analyst@example.com';
const TIME_ZONE = 'America/Los_Angeles';

/** YYYY-MM-DD of `daysAgo` days before today in UTC: a range that ends yesterday is not changed by
 *  downloads other specs make today. */
function dayAgo(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

type Progress = { RawEventsPending: number; DownloadsPending: number; CountingRunning: boolean };

/** Waits until the demo's listening has been generated and counted: downloads in the range, and
 *  nothing left to count. */
async function demoListeningCounted(page: Page, organizationId: string, start: string, end: string): Promise<void> {
  const headers = { 'x-organization-id': organizationId };
  await expect
    .poll(
      async () => {
        const progress = (await (await page.request.get('/api/v1/analytics/progress', { headers })).json()) as Progress;
        const series = (await (await page.request.get(`/api/v1/analytics/downloads?startDate=${start}&endDate=${end}&timeZoneIanaId=${TIME_ZONE}`, { headers })).json()) as { Total: number };
        return series.Total > 0 && progress.RawEventsPending === 0 && progress.DownloadsPending === 0 && !progress.CountingRunning;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(true);
}

/** A count as the studio writes it in English ('1,234'). */
const count = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

test('analyst: the charts draw with data, a report runs to Success with its progress, its CSV total equals the chart, and offline the last view shows with its time', async ({ page }) => {
  test.setTimeout(120_000);
  const start = dayAgo(30);
  const end = dayAgo(1);
  await logIn(page, ANALYST);
  const organizationId = new URL(page.url()).pathname.split('/')[1]!;
  await demoListeningCounted(page, organizationId, start, end);

  // The menu (section 6: analytics access shows Organization analytics).
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization analytics' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organization analytics' })).toBeVisible();
  const query = page.getByRole('form', { name: 'What the numbers cover' });
  await query.getByLabel('Date range').selectOption('custom');
  await query.getByLabel('Start date').fill(start);
  await query.getByLabel('End date').fill(end);
  await query.getByLabel('Time zone').selectOption(TIME_ZONE);

  const downloads = page.getByRole('region', { name: 'Downloads over time' });
  const total = downloads.locator('.analytics-big');
  await expect(total).toHaveText(/[1-9]/);
  // The URL carries the query: wait for the figure of this range, not of the default one.
  await expect(page).toHaveURL(new RegExp(`${start}.*${end}|${end}.*${start}`));
  await expect(page.getByRole('status').filter({ hasText: 'As of' })).toBeVisible();
  const chartTotal = count(await total.textContent());
  const analyticsUrl = page.url();
  expect(chartTotal).toBeGreaterThan(0);
  // Drawn: uPlot's canvas has a size, and the same numbers read as a table.
  const canvas = downloads.locator('canvas').first();
  await expect(canvas).toBeVisible();
  expect((await canvas.boundingBox())!.height).toBeGreaterThan(50);
  await downloads.getByRole('button', { name: 'Show as table' }).click();
  const dayRows = downloads.getByRole('table').locator('tbody tr');
  await expect(dayRows).toHaveCount(30);
  const byDay = (await dayRows.locator('td.num').evaluateAll((cells) => cells.map((c) => c.textContent ?? ''))).filter((_, i) => i % 2 === 0);
  expect(byDay.reduce((n, t) => n + count(t), 0)).toBe(chartTotal);
  await expect(page.getByRole('region', { name: 'Apps and players' }).getByRole('listitem').or(page.getByRole('region', { name: 'Apps and players' }).getByRole('row')).first()).toBeVisible();

  // A report of the same range (reached from the analytics screen: without content access the
  // menu has no Organization reports).
  await page.getByRole('link', { name: 'Reports', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Run a report' });
  await form.getByLabel('Report', { exact: true }).selectOption({ label: 'Consumption summary' });
  await form.getByLabel('From', { exact: true }).fill(start);
  await form.getByLabel('To (included)').fill(end);
  await form.getByLabel('Time zone', { exact: true }).selectOption(TIME_ZONE);
  await form.getByRole('button', { name: 'Run report' }).click();
  // Busy first (section 4: the start answers 202 Busy; the first poll is 1500 ms later).
  await expect(page.getByRole('progressbar', { name: 'Progress of the report' })).toBeVisible();
  await expect(page.getByText('Finished', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`consumption-summary-report_${start}_${end}.csv`);
  const lines = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
  const header = lines[0]!.split(',');
  expect(header).toContain('Downloads');
  const totals = lines.at(-1)!.split(',');
  expect(Number(totals[header.indexOf('Downloads')])).toBe(chartTotal);

  // Offline, the analytics view opened again (a page load the service worker answers) shows the
  // numbers kept on the device and their time.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.context().setOffline(true);
  await page.goto(analyticsUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Organization analytics' })).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: 'As of' });
  await expect(status).toContainText('You are offline: these numbers cannot be refreshed until you are back online.');
  await expect(total).toHaveText(new Intl.NumberFormat('en-US').format(chartTotal));
  await page.context().setOffline(false);
});
