// Dialog behaviours of sections 2, 4 and 8, driven like a person would.
import { expect, test } from '@playwright/test';
import { clipField, logIn, openFirstClip, sendRefusedEnquiry } from './support.ts';

test('danger-with-prompt: Delete enables only for DELETE typed exactly, and the text clears on close and open', async ({ page }) => {
  await logIn(page);
  await openFirstClip(page, 1);
  await page.getByRole('button', { name: 'Delete clip' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete this clip?' });
  const confirm = dialog.getByRole('button', { name: 'Delete' });
  const prompt = dialog.getByLabel('Type DELETE to confirm');
  await expect(confirm).toBeDisabled();
  await prompt.fill('delete');
  await expect(confirm).toBeDisabled();
  await prompt.fill('DELETE ');
  await expect(confirm).toBeDisabled();
  await prompt.fill('DELETE');
  await expect(confirm).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete clip' }).click();
  await expect(page.getByRole('alertdialog').getByLabel('Type DELETE to confirm')).toHaveValue('');
  await expect(page.getByRole('alertdialog').getByRole('button', { name: 'Delete' })).toBeDisabled();
});

test('unsaved changes: leaving the clip asks first; closing stays, OK proceeds', async ({ page }) => {
  await logIn(page);
  await openFirstClip(page, 1);
  const url = page.url();
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
  await clipField(page, 'Title').fill('Not yet applied');
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Back' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Unsaved changes' });
  await expect(prompt).toContainText('This form has unsaved changes which will be lost if you continue.');
  await prompt.getByRole('button', { name: 'Close' }).click();
  await expect(prompt).toBeHidden();
  expect(page.url()).toBe(url);
  await expect(clipField(page, 'Title')).toHaveValue('Not yet applied');

  await page.getByRole('link', { name: 'Manage audio' }).click();
  await page.getByRole('alertdialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
});

test('the browser Back button asks about unsaved changes too', async ({ page }) => {
  await logIn(page);
  await openFirstClip(page, 3);
  const url = page.url();
  await clipField(page, 'Title').fill('Still editing');

  await page.goBack();
  const prompt = page.getByRole('alertdialog', { name: 'Unsaved changes' });
  await expect(prompt).toContainText('This form has unsaved changes which will be lost if you continue.');
  await prompt.getByRole('button', { name: 'Close' }).click();
  await expect(prompt).toBeHidden();
  expect(page.url()).toBe(url);
  await expect(clipField(page, 'Title')).toHaveValue('Still editing');

  await page.goBack();
  await page.getByRole('alertdialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');
  expect(page.url()).not.toBe(url);
});

test('Reset shows only when the form changed and puts the saved values back', async ({ page }) => {
  await logIn(page);
  await openFirstClip(page, 1);
  const title = clipField(page, 'Title');
  const saved = await title.inputValue();
  await title.fill('Something else');
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(title).toHaveValue(saved);
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();
});

test('a clip form error shows the domain message and nothing is queued', async ({ page }) => {
  await logIn(page);
  await openFirstClip(page, 1);
  await page.getByLabel('Slug').fill('Not A Slug');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('status')).toHaveText('All changes saved');
});

test('log out asks "Are you sure you want to log out?" and returns to the login screen', async ({ page }) => {
  await logIn(page);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Log out' });
  await expect(dialog).toContainText('Are you sure you want to log out?');
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('contact support: prefilled name and email, 6-row enquiry, validation, then Enquiry sent', async ({ page }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('button', { name: 'Help' }).click();
  await page.getByRole('menuitem', { name: 'Contact support' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact support' });
  await expect(dialog.getByLabel('Name')).toHaveValue('Dana Demo');
  await expect(dialog.getByLabel('Email')).toHaveValue('demo@example.com');
  await expect(dialog.getByLabel('Enquiry')).toHaveAttribute('rows', '6');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toContainText('Enquiry cannot be blank');
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel('Enquiry').fill('The waveform of episode 12 looks clipped.');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toContainText('You must enter a valid email address');
  await dialog.getByLabel('Email').fill('demo@example.com');
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/internal/custom-support') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Send' }).click();
  expect((await sent).status()).toBe(204);
  await expect(dialog).toContainText('Enquiry sent');
  await expect(dialog.getByRole('button', { name: 'Send' })).toHaveCount(0);
});

test('contact support failure shows the danger toast "Could not send your enquiry"', async ({ page }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  const dialog = await sendRefusedEnquiry(page);
  await expect(page.getByRole('alert').filter({ hasText: 'Could not send your enquiry' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeEnabled();
});

test('a dialog with unsaved text asks before closing (the veto)', async ({ page }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('button', { name: 'Help' }).click();
  await page.getByRole('menuitem', { name: 'Contact support' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact support' });
  await dialog.getByLabel('Enquiry').fill('Half a thought');
  await page.keyboard.press('Escape');
  const prompt = page.getByRole('alertdialog', { name: 'Unsaved changes' });
  await expect(prompt).toContainText('This dialog has unsaved changes which will be lost if you continue.');
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByLabel('Enquiry')).toHaveValue('Half a thought');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await page.getByRole('alertdialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a nested dialog keeps its 1rem offset and still fits inside the screen, with a margin on the right too', async ({ page }) => {
    await logIn(page);
    await page.getByRole('button', { name: 'Help' }).click();
    await page.getByRole('menuitem', { name: 'Contact support' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact support' });
    await dialog.getByLabel('Enquiry').fill('Half a thought');
    const outer = (await dialog.boundingBox())!;
    await page.keyboard.press('Escape');
    const prompt = page.getByRole('alertdialog', { name: 'Unsaved changes' });
    await expect(prompt).toBeVisible();
    const inner = (await prompt.boundingBox())!;
    // Offset by 1rem (16px) from where it would sit centred, and at least 1rem clear of the right edge.
    expect(inner.x - (390 - inner.width) / 2).toBeCloseTo(16, 0);
    expect(inner.x).toBeGreaterThan(outer.x);
    expect(inner.x + inner.width).toBeLessThanOrEqual(390 - 16);
    expect(inner.y + inner.height).toBeLessThanOrEqual(844);
  });
});
