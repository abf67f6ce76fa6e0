// A program's monetization with its inheritance (issue 33: "set at organization, inherit at
// program, override, reset to inherited, offline edit queued and merged"), as an organization owner
// does it: a CPM floor of €18.50 set as the organization's default in Organization settings ›
// Monetization; Morning Briefing's settings say its floor is the organization's; the program sets
// its own €25; offline, it switches house ads on (saved on the device, waiting to be sent) while
// another device switches the program's video ads on; back online the two changes are merged on
// the server and both shown; "Reset to the organization's" brings back the organization's floor;
// the section passes axe and reads in German.
// A server of its own: the spec changes the demo organization's defaults.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import type { ProgramSettings } from '../../src/protocol/api/program-settings.ts';
import { allChangesSaved, logIn, studioApi } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-monetization-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const MORNING = seedId('program:morning');
const settings = async (page: Page) => (await studioApi(page, ORG_DEMO, 'GET', `/v1/programs/${MORNING}/settings`)) as unknown as ProgramSettings;

test('a CPM floor set for the organization, inherited, overridden, edited offline and merged, then reset to the organization’s', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await logIn(page);

  // The organization's default.
  await page.goto(`/${ORG_DEMO}/settings?section=monetization`);
  const defaults = page.getByRole('form', { name: 'Monetization', exact: true });
  const orgFloor = defaults.getByRole('group', { name: 'CPM floor' });
  await expect(orgFloor.getByText('Studio default: No floor')).toBeVisible({ timeout: 30_000 });
  await orgFloor.getByRole('checkbox', { name: 'Set for the organization' }).check();
  await orgFloor.getByRole('spinbutton', { name: 'Amount per thousand' }).fill('18.50');
  await orgFloor.getByRole('combobox', { name: 'Currency' }).selectOption('EUR');
  await defaults.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Monetization saved')).toBeVisible();
  await allChangesSaved(page);

  // Inherited by the program, and said to be the organization's.
  await page.goto(`/${ORG_DEMO}/programs/${MORNING}/settings`);
  const form = page.getByRole('form', { name: 'Monetization', exact: true });
  const floor = form.getByRole('group', { name: 'CPM floor' });
  await expect(floor.getByText("Organization's default: €18.50")).toBeVisible({ timeout: 30_000 });
  await expect(floor.getByRole('spinbutton', { name: 'Amount per thousand' })).toBeDisabled();

  // Overridden for the program.
  await floor.getByRole('checkbox', { name: 'Set for this program' }).check();
  await floor.getByRole('spinbutton', { name: 'Amount per thousand' }).fill('25');
  await form.getByRole('button', { name: 'Apply' }).click();
  await allChangesSaved(page);
  expect((await settings(page)).Monetization).toMatchObject({ Effective: { CpmFloor: { Amount: 25, Currency: 'EUR' } }, Sources: { CpmFloor: 'Program' }, Inherited: { CpmFloor: { Amount: 18.5 } } });

  // Offline: house ads switched on, kept on the device until the connection is back.
  await context.setOffline(true);
  const houseAds = form.getByRole('group', { name: 'House ads' });
  await houseAds.getByRole('checkbox', { name: 'Set for this program' }).check();
  await houseAds.getByRole('checkbox', { name: "Fill unsold breaks with the organization's own promos" }).check();
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved on this device: it is sent to the server when you are online.');

  // Meanwhile another device switches the program's video ads on.
  const other = await browser.newContext({ baseURL: server!.baseURL });
  const otherPage = await other.newPage();
  await logIn(otherPage);
  await studioApi(otherPage, ORG_DEMO, 'PATCH', `/v1/programs/${MORNING}/settings/video-monetization`, { VideoAdsEnabled: true });
  await other.close();

  // Back online: the offline edit is merged with the other device's, and the page shows both.
  await context.setOffline(false);
  await allChangesSaved(page, 30_000);
  const merged = await settings(page);
  expect(merged.Monetization.Own).toMatchObject({ HouseAdsFallback: true, CpmFloor: { Amount: 25, Currency: 'EUR' } });
  expect(merged.VideoMonetization.Own.VideoAdsEnabled).toBe(true);
  const video = page.getByRole('form', { name: 'Video monetization' }).getByRole('group', { name: 'Video ads', exact: true });
  await expect(video.getByRole('checkbox', { name: 'Video episodes carry ads' })).toBeChecked({ timeout: 30_000 });
  await expect(houseAds.getByRole('checkbox', { name: "Fill unsold breaks with the organization's own promos" })).toBeChecked();

  await page.setViewportSize({ width: 1280, height: 900 });
  await form.screenshot({ path: test.info().outputPath('monetization-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await form.screenshot({ path: test.info().outputPath('monetization-phone.png') });

  // Reset to the organization's: its floor again, nothing of the program's own.
  await form.getByRole('button', { name: "Reset to the organization's" }).click();
  await expect(page.getByText("Now follows the organization's defaults")).toBeVisible();
  await allChangesSaved(page);
  await expect(floor.getByText("Organization's default: €18.50")).toBeVisible();
  await expect(floor.getByRole('checkbox', { name: 'Set for this program' })).not.toBeChecked();
  const reset = await settings(page);
  expect(reset.Monetization.Sources).toMatchObject({ CpmFloor: 'Organization', HouseAdsFallback: 'Default' });
  expect(reset.Monetization.Effective.CpmFloor).toEqual({ Amount: 18.5, Currency: 'EUR' });
  const axe = await new AxeBuilder({ page }).include('.program-monetization').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // In German: the same inheritance, in its words and its way of writing money.
  await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'de-DE', url: server!.baseURL }]);
  await page.reload();
  const german = page.getByRole('form', { name: 'Monetarisierung', exact: true });
  await expect(german.getByRole('group', { name: 'CPM-Mindestpreis' }).getByText('Vorgabe der Organisation: 18,50 €')).toBeVisible({ timeout: 30_000 });
  await german.screenshot({ path: test.info().outputPath('monetization-phone-de.png') });
  await context.close();
});
