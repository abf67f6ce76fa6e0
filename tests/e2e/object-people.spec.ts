// A program's people (issue 31; section 6: permissions per user within a program): the admin opens
// World Tonight's settings, finds the producer among the members without access there, adds them
// with Content access, sees them listed, gives them Analytics too (and a flag section 6 keeps to
// Organization scope is refused at its checkbox), then takes their access away. Its own server: the
// producer's programs change, which the specs sharing the run's server count on.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { DEMO, logIn } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-people-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(() => server?.stop());

test('the admin adds a person to a program with Content access, changes a flag, and removes them', async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await logIn(page, 'admin@example.com', DEMO.password);
  await page.goto(`/${ORG_DEMO}/programs/${seedId('program:world')}/settings`);

  const people = page.getByRole('region', { name: 'People with access' });
  await expect(people.getByRole('list', { name: 'People with access to World Tonight' })).toContainText('Alex Admin', { timeout: 30_000 });
  await expect(people).not.toContainText('producer@example.com');

  // Add a person: the producer (Program scope elsewhere) is among those who could be added.
  await people.getByRole('button', { name: 'Add a person' }).click();
  const add = people.getByRole('form', { name: 'Add a person' });
  await add.getByLabel('Find a member by name or e-mail').fill('producer');
  await add.getByRole('radio', { name: /Pat Producer/ }).check();
  await expect(add.getByLabel('Content', { exact: true })).toBeChecked();
  // The panel with its add form open passes axe.
  const axe = await new AxeBuilder({ page }).include('.object-people').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await add.getByRole('button', { name: 'Add Pat Producer' }).click();
  await expect(page.getByText('Pat Producer now has access to World Tonight')).toBeVisible();
  const producer = people.getByRole('listitem').filter({ hasText: 'producer@example.com' });
  await expect(producer).toContainText('Content');

  // Change a flag: organization settings are refused at the checkbox (section 6), Analytics is saved.
  await producer.getByRole('button', { name: 'Change' }).click();
  const orgSettings = producer.getByLabel('Manage organization settings');
  await orgSettings.check();
  await expect(orgSettings).toHaveAttribute('aria-invalid', 'true');
  await expect(producer.getByText('Organization settings access can be given only at Organization scope')).toBeVisible();
  await expect(producer.getByRole('button', { name: 'Save' })).toBeDisabled();
  await orgSettings.uncheck();
  await producer.getByLabel('Analytics', { exact: true }).check();
  await producer.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Access of Pat Producer saved')).toBeVisible();
  await expect(producer).toContainText('Analytics, Content');

  // Remove their access here.
  await producer.getByRole('button', { name: 'Remove access' }).click();
  await page.getByRole('alertdialog', { name: 'Remove the access of Pat Producer?' }).getByRole('button', { name: 'Remove access' }).click();
  await expect(page.getByText('Pat Producer no longer has access to World Tonight')).toBeVisible();
  await expect(people).not.toContainText('producer@example.com');
  await context.close();
});
