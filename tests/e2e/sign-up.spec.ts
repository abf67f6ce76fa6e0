// Creating an account (issue 31) and the 451 page it can reach (issue 36): from the login screen a
// person creates an account, is told a field is wrong until it is right, lands signed in as an
// unactivated account with the banner and its "send the e-mail again", and signs out. Coming back
// from a country the studio does not serve (the test server trusts CF-IPCountry:
// playwright.config.ts), creating an account shows 'Not available in your location'.
import { expect, test } from '@playwright/test';

test('a new account is signed in unactivated and may ask for its e-mail again; from a sanctioned country sign-up is not available', async ({ page }) => {
  const email = `new.${Date.now()}@station.example`;
  await page.goto('/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();

  await page.getByLabel('Your name').fill('Sam Sign-up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByLabel('Organization name').fill('Sam’s Station');
  await page.getByRole('button', { name: 'Create account' }).click();
  // Section 5's message at the field, before anything is sent.
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription(/Password must be 8 characters or longer/);

  await page.getByLabel('Password').fill('a long enough secret');
  await page.getByRole('button', { name: 'Create account' }).click();
  // Signed in, unactivated: the banner and its action.
  const banner = page.getByText('Your account is not activated yet.');
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Send the confirmation e-mail again' }).click();
  await expect(page.getByText(`Confirmation e-mail sent to ${email}`)).toBeVisible();
  // Its one organization, made with it, is its home.
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Organization' })).toHaveText(/Sam’s Station/);

  // Signed out, then back from a country under US sanctions.
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('alertdialog', { name: 'Log out' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.setExtraHTTPHeaders({ 'CF-IPCountry': 'IR' });
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Your name').fill('Sam Again');
  await page.getByLabel('Email').fill(`again.${email}`);
  await page.getByLabel('Password').fill('a long enough secret');
  await page.getByLabel('Organization name').fill('Another Station');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Not available in your location' })).toBeVisible();
  await expect(page.getByText('This service is not available in your location to comply with US sanctions.')).toBeVisible();
  await expect(page.getByText('451')).toBeVisible();
});
