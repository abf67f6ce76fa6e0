// Settings with visible inheritance (issue 33): the organization chooses a loudness normalization
// preset on its settings page (Audio tab); a new program shows it as inherited from the
// organization, overrides it with its own, is reset to the inherited one, and an override made
// offline waits on the device, says so, and reaches the server once back online.
// A program's recording retention: set to 30 days with what it would delete now counted by the
// server, counted from the device's own recordings offline, refused at the field out of range,
// and set back to keep for ever offline until back online.
import { expect, test } from '@playwright/test';
import { seedId } from '../../sync-server/seed.ts';
import { allChangesSaved, apiGet, logIn, openOrganizationHome, syncStatus } from './support.ts';

const PODCAST = 'Podcast (-16 LUFS, -1 dBTP)';
const EBU = 'Broadcast (EBU R128) (-23 LUFS, -1 dBTP)';
const STREAMING = 'Streaming (-14 LUFS, -1 dBTP)';

test('the organization sets a normalization preset; a program inherits it, overrides it, resets it, and overrides it offline', async ({ page, context }) => {
  await logIn(page);
  const organizationId = await openOrganizationHome(page);

  // The organization's choice, on Organization settings › Audio.
  await page.goto(`/${organizationId}/settings`);
  await page.getByRole('tab', { name: 'Audio' }).click();
  const organizationForm = page.getByRole('form', { name: 'Loudness normalization' });
  await organizationForm.getByLabel('Normalization').selectOption({ label: PODCAST });
  await organizationForm.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Normalization saved')).toBeVisible();
  await expect(organizationForm.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await allChangesSaved(page);
  expect(await apiGet(page, '/v1/settings/normalization', organizationId)).toEqual({ PresetId: 'podcast' });

  // A new program inherits it, and says so.
  await page.goto(`/${organizationId}/programs`);
  await page.getByRole('button', { name: 'New program' }).click();
  const dialog = page.getByRole('dialog', { name: 'New program' });
  await dialog.getByLabel('Name').fill(`Loud and Clear ${Date.now()}`);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Program settings' })).toBeVisible();
  const programId = new URL(page.url()).pathname.split('/').at(-2)!;
  const programForm = page.getByRole('form', { name: 'Loudness normalization' });
  await expect(programForm.getByText(`Inherited from the organization: ${PODCAST}`)).toBeVisible();
  await expect(programForm.getByLabel('Normalization')).toHaveValue('podcast');
  await expect(programForm.getByRole('button', { name: 'Reset to inherited' })).toHaveCount(0);
  await allChangesSaved(page);

  // Its own choice.
  await programForm.getByLabel('Normalization').selectOption({ label: EBU });
  await programForm.getByRole('button', { name: 'Apply' }).click();
  await expect(programForm.getByText(`This program's own choice (the organization's: ${PODCAST})`)).toBeVisible();
  await allChangesSaved(page);
  expect(await apiGet(page, `/v1/programs/${programId}/settings/normalization`, organizationId)).toEqual({
    PresetId: 'broadcast-ebu-r128',
    Source: 'Program',
    OrganizationPresetId: 'podcast',
  });

  // Reset: the organization's again.
  await programForm.getByRole('button', { name: 'Reset to inherited' }).click();
  await expect(page.getByText("The program inherits the organization's normalization again")).toBeVisible();
  await expect(programForm.getByText(`Inherited from the organization: ${PODCAST}`)).toBeVisible();
  await expect(programForm.getByLabel('Normalization')).toHaveValue('podcast');
  await allChangesSaved(page);
  expect(await apiGet(page, `/v1/programs/${programId}/settings/normalization`, organizationId)).toEqual({ PresetId: 'podcast', Source: 'Organization', OrganizationPresetId: 'podcast' });

  // Offline: saved on the device at once, waiting, and said so; sent once back online.
  await context.setOffline(true);
  await programForm.getByLabel('Normalization').selectOption({ label: STREAMING });
  await programForm.getByRole('button', { name: 'Apply' }).click();
  await expect(programForm.getByText(`This program's own choice (the organization's: ${PODCAST})`)).toBeVisible();
  await expect(programForm.getByText('Saved on this device: it is sent to the server when you are online.')).toBeVisible();
  await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  await expect(programForm.getByText('Saved on this device: it is sent to the server when you are online.')).toHaveCount(0);
  expect(await apiGet(page, `/v1/programs/${programId}/settings/normalization`, organizationId)).toEqual({ PresetId: 'streaming', Source: 'Program', OrganizationPresetId: 'podcast' });
});

test('a program deletes its recordings after 30 days: the page says what that would delete now, from the server or offline from the device', async ({ page, context }) => {
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  const programId = seedId('program:soundcheck');
  await page.goto(`/${organizationId}/programs/${programId}/settings`);
  const form = page.getByRole('form', { name: 'Recordings' });
  await expect(form.getByRole('radio', { name: 'Keep recordings forever' })).toBeChecked();
  await form.getByRole('radio', { name: 'Delete recordings after' }).check();
  await form.getByLabel('Days').fill('30');
  // The demo's recordings were made in January 2025: all of them are older than 30 days.
  const estimate = form.getByTestId('recording-deletion-estimate');
  await expect(estimate).toHaveText(/^This would delete \d+ recordings?, (\d+ h )?\d+ min, (the oldest )?from .+\. Counted by the server\.$/);
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Recording settings saved')).toBeVisible();
  await allChangesSaved(page);
  expect(await apiGet(page, `/v1/programs/${programId}/settings/recording`, organizationId)).toEqual({ DeleteRecordingsAfterDays: 30 });

  // Offline the device counts its own recordings; a number out of range is refused at the field.
  await context.setOffline(true);
  await expect(await syncStatus(page)).toContainText('Offline');
  await form.getByLabel('Days').fill('45');
  await expect(estimate).toHaveText(/Offline: counted from the recordings on this device\.$/);
  await form.getByLabel('Days').fill('0');
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(form.locator('.field-error')).toHaveText('A whole number of days from 1 to 3650.');
  await form.getByRole('radio', { name: 'Keep recordings forever' }).check();
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  expect(await apiGet(page, `/v1/programs/${programId}/settings/recording`, organizationId)).toEqual({ DeleteRecordingsAfterDays: null });
});
