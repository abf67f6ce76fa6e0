// Download measurement (issue 33): the owner of Castaway Podcasts opens Organization settings ›
// Measurement, types a prefix that is not https and is told so at the field at once (Apply stays
// off), corrects it, sees what an episode's address becomes in the public feeds, applies, reloads
// and finds it kept; then removes it again. Castaway Podcasts, not the demo organization: the
// shared server's other specs read the demo organization's feeds' enclosures. Someone with audit
// access only sees the tab read-only. The tab passes axe with a field in error.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { allChangesSaved, apiGet, DEMO, logIn, organizationIdOf } from './support.ts';

const EXAMPLE_PATH = '/audio/00000000-0000-4000-8000-000000000000.mp3';

test('an owner sets a measurement prefix: refused at the field while it is not https, previewed, saved, kept after a reload, removed', async ({ page, baseURL }) => {
  await logIn(page);
  await page.getByRole('link', { name: /Castaway Podcasts/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible({ timeout: 30_000 });
  const organizationId = organizationIdOf(page);

  await page.goto(`/${organizationId}/settings`);
  await page.getByRole('tab', { name: 'Measurement' }).click();
  await expect(page).toHaveURL(/section=measurement/);
  const form = page.getByRole('form', { name: 'Download measurement' });
  const prefix = form.getByRole('textbox', { name: 'Measurement prefix' });
  const apply = form.getByRole('button', { name: 'Apply' });
  await expect(form.getByText('No prefix: episodes are served from their own address.')).toBeVisible();

  // Not https: said at the field as it is typed, and nothing to apply.
  await prefix.fill('http://op3.dev/e/');
  await expect(form.getByText('A measurement prefix must start with https://')).toBeVisible();
  await expect(prefix).toHaveAttribute('aria-invalid', 'true');
  await expect(apply).toBeDisabled();
  await prefix.fill('https://op3.dev/e');
  await expect(form.getByText('A measurement prefix ends with / so that the episode’s address can follow it, as in https://op3.dev/e/')).toBeVisible();
  await expect(apply).toBeDisabled();
  // The tab passes axe with a field in error.
  const axe = await new AxeBuilder({ page }).include('.measurement').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Corrected: what a listener's app is given for an episode of this studio.
  await prefix.fill('https://op3.dev/e/');
  await expect(prefix).not.toHaveAttribute('aria-invalid', 'true');
  const host = new URL(baseURL!).host;
  await expect(form.getByText(`${new URL(baseURL!).origin}${EXAMPLE_PATH}`)).toBeVisible();
  await expect(form.getByTestId('measured-example')).toHaveText(`https://op3.dev/e/${host}${EXAMPLE_PATH}`);
  await apply.click();
  await expect(page.getByText('Measurement prefixes saved')).toBeVisible();
  await expect(apply).toBeDisabled();
  await allChangesSaved(page);
  expect((await apiGet<{ MeasurementPrefixes: string[] }>(page, '/v1/settings', organizationId)).MeasurementPrefixes).toEqual(['https://op3.dev/e/']);

  // Kept: after a reload the tab opens on it again.
  await page.reload();
  await expect(form.getByRole('textbox', { name: 'Measurement prefix' })).toHaveValue('https://op3.dev/e/', { timeout: 30_000 });
  await expect(form.getByTestId('measured-example')).toHaveText(`https://op3.dev/e/${host}${EXAMPLE_PATH}`);

  // Removed again: the feeds are served without it.
  await form.getByRole('button', { name: 'Remove: Measurement prefix' }).click();
  await expect(form.getByRole('textbox', { name: 'Measurement prefix' })).toHaveValue('');
  await apply.click();
  await expect(page.getByText('Measurement prefixes saved')).toBeVisible();
  await allChangesSaved(page);
  expect((await apiGet<{ MeasurementPrefixes: string[] }>(page, '/v1/settings', organizationId)).MeasurementPrefixes).toEqual([]);
});

test('audit access shows the measurement prefixes read-only', async ({ page }) => {
  await logIn(page, 'support@example.com', DEMO.password);
  // The demo organization by its id: the support user may have been granted another one on this
  // shared server (errors-and-menus' Grant access), and then signs in to the list of organizations.
  await page.goto(`/${ORG_DEMO}/settings?section=measurement`);
  const form = page.getByRole('form', { name: 'Download measurement' });
  await expect(form.getByText("You can see the organization's measurement prefixes, but changing them needs manage-organization-settings access.")).toBeVisible({ timeout: 30_000 });
  await expect(form.getByRole('textbox', { name: 'Measurement prefix' })).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Apply' })).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Add a prefix' })).toHaveCount(0);
});
