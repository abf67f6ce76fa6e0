// An invitation accepted (issue 31): an admin invites an address with Program scope on one program
// (through the API: the invite dialog is the users screen's), the studio has no SMTP so the answer
// carries the link, and the invited person opens it: the organization and who invited are shown,
// section 5's rules refuse an empty name and a short password at their fields, and accepting signs
// the new account in, in the organization, seeing its one program. Its own server: a member is
// added to the demo organization, which the run's shared server must not see.
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-invitation-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(() => server?.stop());

/** The invitation as the admin makes it: Program scope with content access on the organization's first program. */
async function invite(email: string): Promise<{ link: string; organizationId: string; program: string }> {
  const api = await playwrightRequest.newContext({ baseURL: server.baseURL });
  expect((await api.post('/api/internal/session/login', { data: { Email: 'demo@example.com', Password: 'castaway-demo' } })).status()).toBe(200);
  const { XsrfToken } = (await (await api.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string };
  const [organization] = (await (await api.get('/api/internal/users/me/organizations')).json()) as Array<{ Id: string }>;
  const headers = { 'x-organization-id': organization!.Id, 'x-xsrf-token': XsrfToken };
  const programs = (await (await api.get('/api/v1/programs', { headers })).json()) as { Items: Array<{ Id: string; Name: string }> };
  const program = programs.Items[0]!;
  const made = await api.post('/api/v1/users/invitation', { headers, data: { Email: email, Permissions: [{ ObjectType: 'Program', ObjectId: program.Id, Permissions: { HasContentAccess: true } }] } });
  expect(made.status(), await made.text()).toBe(201);
  const { Link, Delivery } = (await made.json()) as { Link: string; Delivery: string };
  expect(Delivery).toBe('Kept');
  await api.dispose();
  return { link: Link, organizationId: organization!.Id, program: program.Name };
}

test('an invitation link: refused at the fields until they are right, then accepted, signed in and in the organization', async ({ page }) => {
  const { link, organizationId, program } = await invite('new.producer@station.example');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: /^Join / })).toBeVisible();
  await expect(page.getByText('Dana Demo invited new.producer@station.example to work in')).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await expect(page.getByLabel('Your name')).toHaveAccessibleDescription('You must enter a name');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(/Password must be 8 characters or longer/);

  await page.getByLabel('Your name').fill('Nova Producer');
  await page.getByLabel('Password', { exact: true }).fill('a long enough secret');
  await page.getByLabel('Confirm password').fill('a long enough secret');
  await page.getByRole('button', { name: 'Accept and sign in' }).click();

  await expect(page).toHaveURL(new RegExp(`/${organizationId}$`), { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Account' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(program).first()).toBeVisible({ timeout: 30_000 });
});
