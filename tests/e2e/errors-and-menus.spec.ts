// Error pages of sections 2 and 8, and the menus each demo user sees (sections 2, 4 and 6).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, logIn, openOrganizationHome as openOrganization, organizationIdOf } from './support.ts';

const UNKNOWN = '0b7d1d8e-2f4f-4c55-9a3e-5d2f3a1c0e99';

async function menuItems(page: Page, menu: string): Promise<string[]> {
  await page.getByRole('button', { name: menu }).click();
  const content = page.getByRole('menu');
  await expect(content).toBeVisible();
  const texts = (await content.locator('.menu-item, .menu-group-label, .menu-text').allTextContents()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  return texts;
}

test('unknown routes, ids and organizations show their error pages with Home and Reload page', async ({ page }) => {
  await logIn(page);
  const org = await openOrganization(page);

  await page.goto('/a/b/c/d/e/f/g');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
  await expect(page.getByRole('button', { name: 'Reload page' })).toBeVisible();

  await page.goto('/not-an-id');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
  await expect(page.getByText('"not-an-id" is not a valid organization id.')).toBeVisible();

  await page.goto(`/${UNKNOWN}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
  await expect(page.getByRole('button', { name: 'Grant access' })).toHaveCount(0);

  await page.goto(`/${org}/programs/${UNKNOWN}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Program not found');
  await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', `/${org}`);

  await page.goto(`/${org}/programs/${UNKNOWN}/clips/${UNKNOWN}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clip not found');
  await page.goto(`/${org}/programs/${UNKNOWN}/playlists/${UNKNOWN}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Playlist not found');
  await page.goto(`/${org}/programs/${UNKNOWN}/recordings/${UNKNOWN}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recording not found');
  await page.goto(`/${org}/programs/${UNKNOWN}/clips/nope`);
  await expect(page.getByText('"nope" is not a valid clip id.')).toBeVisible();
});

/** The id of the seed's 'Castaway Podcasts', which the admin and support users are not members of, as the demo user reads it. */
async function podcastsOrganizationId(request: APIRequestContext): Promise<string> {
  expect((await request.post('/api/internal/session/login', { data: { Email: DEMO.email, Password: DEMO.password } })).status()).toBe(200);
  const organizations = (await (await request.get('/api/internal/users/me/organizations')).json()) as Array<{ Id: string; Name: string }>;
  const podcasts = organizations.find((o) => o.Name === 'Castaway Podcasts');
  if (!podcasts) throw new Error('the seed has no Castaway Podcasts');
  return podcasts.Id;
}

test('Organization not found offers Grant access to an admin, with the 404 alert and the error alert', async ({ page, request }) => {
  await logIn(page, 'admin@example.com', DEMO.password);
  await page.goto(`/${UNKNOWN}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
  await page.getByRole('button', { name: 'Grant access' }).click();
  await expect(page.getByRole('alert')).toHaveText('Organization does not exist');

  // Any other failure: 'Error granting access', and the admin stays where they were.
  const podcasts = await podcastsOrganizationId(request);
  await page.route('**/api/admin/users/me/organizations', (route) => route.fulfill({ status: 500 }));
  await page.goto(`/${podcasts}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
  await page.getByRole('button', { name: 'Grant access' }).click();
  await expect(page.getByRole('alert')).toHaveText('Error granting access');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
});

test('Grant access makes a support user a member: the page reloads into the organization', async ({ page, request }) => {
  const podcasts = await podcastsOrganizationId(request);
  await logIn(page, 'support@example.com', DEMO.password);
  await page.goto(`/${podcasts}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization not found');
  await page.getByRole('button', { name: 'Grant access' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible({ timeout: 20_000 });
  expect(organizationIdOf(page)).toBe(podcasts);
  await expect(page.getByRole('button', { name: 'Organization' })).toContainText('Castaway Podcasts');
  await page.getByRole('region', { name: 'Programs' }).getByRole('link', { name: 'Deep Dive' }).click();
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');
});

test('demo user: programs and Switch organization, no Admin section, Account settings, the help menu with the version', async ({ page }) => {
  await logIn(page);
  await openOrganization(page);
  const org = await menuItems(page, 'Organization');
  expect(org).toContain('Organization programs');
  expect(org).toContain('Switch organization');
  expect(org).not.toContain('Admin');
  expect(org).not.toContain('Enterprises');
  const user = await menuItems(page, 'Account');
  expect(user).toContain('Account settings');
  expect(user).toContain('Log out');
  expect(await menuItems(page, 'Help')).toEqual(['Documentation', 'Contact support', 'Service status', 'About', 'Terms and policies', 'Version: 1.0.2625']);
  await expect(page.getByRole('link', { name: 'Castaway Studio home' })).toHaveAttribute('href', new RegExp(`^/${organizationIdOf(page)}$`));
});

test('admin sees the Admin section with Billing & features, and Enterprises', async ({ page }) => {
  await logIn(page, 'admin@example.com', DEMO.password);
  await openOrganization(page);
  const org = await menuItems(page, 'Organization');
  expect(org).toEqual(expect.arrayContaining(['Admin', 'Organization settings (admin)', 'Admin settings', 'Object search', 'Billing & features', 'Enterprises']));
  expect(org).not.toContain('Switch organization');
});

test('support sees the Admin section without Billing & features or Enterprises', async ({ page }) => {
  await logIn(page, 'support@example.com', DEMO.password);
  await openOrganization(page);
  const org = await menuItems(page, 'Organization');
  expect(org).toEqual(expect.arrayContaining(['Admin', 'Admin settings', 'Object search']));
  expect(org).not.toContain('Billing & features');
  expect(org).not.toContain('Enterprises');
});

test('reseller sees Enterprises and no Admin section', async ({ page }) => {
  await logIn(page, 'reseller@example.com', DEMO.password);
  await openOrganization(page);
  const org = await menuItems(page, 'Organization');
  expect(org).toContain('Enterprises');
  expect(org).not.toContain('Admin');
});

test('an unactivated user gets the menus but no Account settings', async ({ page }) => {
  await logIn(page, 'newbie@example.com', DEMO.password);
  await expect(page.getByText('Your account is not activated yet.')).toBeVisible();
  // One organization: logging in opens its home, and its menu is the organization's.
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  const org = await menuItems(page, 'Organization');
  expect(org).toContain('Organization programs');
  expect(org).not.toContain('Switch organization');
  await expect(page.getByRole('button', { name: 'Help' })).toBeVisible();
  const user = await menuItems(page, 'Account');
  expect(user).not.toContain('Account settings');
  expect(user).toContain('Log out');
});

test('logged out: the login screen and no menus', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Castaway Studio');
  await expect(page.getByRole('img', { name: 'A microphone in front of sound waves' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Help' })).toHaveCount(0);
  // The shell's title is the product's name; the login screen names itself first (issue 36).
  await expect(page).toHaveTitle('Log in · Castaway Studio');
});
