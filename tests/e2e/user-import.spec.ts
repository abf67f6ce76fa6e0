// Issue 31's bulk import, as an owner does it: from the users screen, Import from CSV, a file with
// one good row and one whose program is none of the organization's; the preview reads both as
// ready (only the server knows the organization's programs), offline the import says it needs the
// network, online it sends them and the report says invited and failed, with the server's message
// at the column. Closed and opened again, the last import's report is read back from the server.
// Its own server: the import writes invitations and the organization's report, which the run's
// shared server must not see.
import { expect, test } from '@playwright/test';
import { logIn, openOrganizationHome } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-user-import-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(() => server?.stop());

const CSV = [
  '\uFEFFemail,name,scope,objectId,HasContentAccess,HasAnalyticsAccess',
  'new.analyst@station.example,"Ortiz, Ana",Organization,,no,yes',
  'lost.producer@station.example,Lee Lost,Program,00000000-0000-4000-8000-000000000000,yes,no',
].join('\r\n');

test('imports a CSV file: the preview, offline refused, then the per-row report, read again later', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page);
  await openOrganizationHome(page);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization users' }).click();
  await page.getByRole('button', { name: 'Import from CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import users from a CSV file' });
  await expect(dialog.getByRole('link', { name: 'Download a template' })).toHaveAttribute('download', 'users-template.csv');
  await dialog.getByLabel('CSV file').setInputFiles({ name: 'team.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') });

  const preview = dialog.getByRole('table', { name: 'Rows of the file' });
  await expect(preview.getByRole('row')).toHaveCount(3);
  await expect(preview.getByRole('row').nth(1)).toContainText('new.analyst@station.example');
  await expect(preview.getByRole('row').nth(1)).toContainText('Ortiz, Ana');
  await expect(dialog.getByText('Rows read: 2. Ready to import: 2. With problems (not sent): 0.')).toBeVisible();

  await context.setOffline(true);
  await expect(dialog.getByText('The import needs the network: connect to send these rows.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await context.setOffline(false);

  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const report = dialog.getByRole('table', { name: 'Import report' });
  await expect(dialog.getByText('Invited: 1. Already members: 0. Failed: 1.')).toBeVisible({ timeout: 20_000 });
  await expect(report.getByRole('row').nth(1)).toContainText('new.analyst@station.example');
  await expect(report.getByRole('row').nth(1)).toContainText('Invited');
  await expect(report.getByRole('row').nth(2)).toContainText('lost.producer@station.example');
  await expect(report.getByRole('row').nth(2)).toContainText('Failed');
  await expect(report.getByRole('row').nth(2)).toContainText('objectId:');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // Closed: the report is the organization's, read back from the server.
  await page.getByRole('button', { name: 'Import from CSV' }).click();
  await dialog.getByRole('button', { name: 'Show the last import’s report' }).click();
  await expect(dialog.getByText('Invited: 1. Already members: 0. Failed: 1.')).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Import report' }).getByRole('row')).toHaveCount(3);
});
