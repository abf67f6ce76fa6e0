// Apple Podcasts Subscriptions (issue 33): the owner of Castaway Podcasts gives the organization's
// provider ID in Organization settings › Apple Podcasts; Deep Dive's settings show that an empty
// provider field takes it; switching delivery on without the show's Apple ID is refused at that
// field; the show's page address is saved as its ID, synced, and kept after a reload (the server
// then has it in effect); the section passes axe; then both levels are cleared again. Castaway Podcasts, not the demo organization, as other
// specs on the shared server read the demo organization's settings.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { allChangesSaved, apiGet, logIn } from './support.ts';

test('an owner connects Apple Podcasts Subscriptions for the organization and switches it on for one show', async ({ page }) => {
  await logIn(page);
  await page.getByRole('link', { name: /Castaway Podcasts/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible({ timeout: 30_000 });

  await page.goto(`/${ORG_PODCASTS}/settings?section=apple`);
  const organization = page.getByRole('form', { name: 'Apple Podcasts Subscriptions' });
  await organization.getByRole('textbox', { name: 'Provider ID' }).fill('CastawayPodcasts');
  await organization.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Apple Podcasts settings saved')).toBeVisible();

  const deepDive = seedId('program:deepdive');
  await page.goto(`/${ORG_PODCASTS}/programs/${deepDive}/settings`);
  const program = page.getByRole('form', { name: 'Apple Podcasts Subscriptions' });
  await expect(program.getByText("Empty: CastawayPodcasts (the organization's).")).toBeVisible({ timeout: 30_000 });

  // On without the show's Apple ID: refused at that field.
  await program.getByRole('combobox', { name: 'Delivery to Apple' }).selectOption({ label: 'Deliver premium episodes' });
  await program.getByRole('button', { name: 'Apply' }).click();
  const showId = program.getByRole('textbox', { name: 'Apple show ID' });
  await expect(program.getByText("Delivery to Apple needs the show's Apple ID")).toBeVisible();
  await expect(showId).toHaveAttribute('aria-invalid', 'true');
  const axe = await new AxeBuilder({ page }).include('.apple-premium').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The show's page address, as copied from Apple Podcasts, is saved as its ID.
  await showId.fill('https://podcasts.apple.com/us/podcast/deep-dive/id1598765432');
  await program.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Apple Podcasts settings saved')).toBeVisible();
  await allChangesSaved(page);
  await page.reload();
  await expect(page.getByRole('form', { name: 'Apple Podcasts Subscriptions' }).getByRole('textbox', { name: 'Apple show ID' })).toHaveValue('1598765432', { timeout: 30_000 });
  const effective = await apiGet<{ Enabled: boolean; ProviderId: string; ShowId: string }>(page, `/v1/programs/${deepDive}/settings/apple-premium?inherit=true`, ORG_PODCASTS);
  expect(effective).toMatchObject({ Enabled: true, ProviderId: 'CastawayPodcasts', ShowId: '1598765432' });

  // Back as they were: the program inherits everything, the organization's cleared.
  await page.getByRole('form', { name: 'Apple Podcasts Subscriptions' }).getByRole('button', { name: 'Inherit everything' }).click();
  await expect(page.getByText('Every field is inherited again.')).toBeVisible();
  await page.goto(`/${ORG_PODCASTS}/settings?section=apple`);
  await page.getByRole('form', { name: 'Apple Podcasts Subscriptions' }).getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByText("The organization's Apple Podcasts settings are cleared.")).toBeVisible();
});
