// Issue 31's journey, as a new member lives it: the owner invites a producer with Program scope on
// one program from the users screen (the studio has no SMTP, so the dialog shows the link to copy),
// the producer opens the link in their own browser (section 5's rules refuse an empty name and a
// short password at their fields), accepts, lands in the organization seeing that one program,
// turns on two-factor sign-in with the key an authenticator app would take, logs out and back in
// with a code, and still sees only that program. The owner then takes the access away (scope None)
// and the producer's open app drops the program at its next pull, which the change itself sets off.
// Its own server: a member is added to the demo organization, which the run's shared server must
// not see.
import { expect, test, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { logIn, openOrganizationHome } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-invitation-', { SMTP_URL: '', CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(() => server?.stop());

const PROGRAM = 'Morning Briefing';
const EMAIL = 'new.producer@station.example';
const PASSWORD = 'a long enough secret';

function programLinks(page: Page) {
  return page.getByRole('region', { name: 'Programs' }).getByRole('link');
}

/** Exactly the one program (a link's text starts with the program's initial, its artwork stand-in). */
async function seesOnly(page: Page, program: string): Promise<void> {
  await expect(programLinks(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(programLinks(page)).toContainText(program);
}

test('invited with Program scope: accept, two-factor on, back in with a code, one program; revoked, the open app loses it', async ({ browser }) => {
  test.setTimeout(180_000);
  const ownerContext = await browser.newContext({ baseURL: server.baseURL });
  const producerContext = await browser.newContext({ baseURL: server.baseURL });
  const owner = await ownerContext.newPage();
  const producer = await producerContext.newPage();

  // The owner invites from the users screen.
  await logIn(owner);
  const organizationId = await openOrganizationHome(owner);
  await owner.getByRole('button', { name: 'Organization' }).click();
  await owner.getByRole('menuitem', { name: 'Organization users' }).click();
  await owner.getByRole('button', { name: 'Invite' }).click();
  const invite = owner.getByRole('dialog', { name: 'Invite a user' });
  await invite.getByLabel('E-mail address').fill(EMAIL);
  await invite.getByRole('combobox', { name: 'Program' }).selectOption({ label: PROGRAM });
  await invite.getByLabel('Content', { exact: true }).check();
  await invite.getByRole('button', { name: 'Invite' }).click();
  const link = await invite.getByLabel('Invitation link').inputValue();
  await invite.getByRole('button', { name: 'Done' }).click();
  // Pending until accepted, with the program scope it offers.
  const pending = owner.getByRole('region', { name: 'Invited, not joined yet' });
  await expect(pending.getByRole('listitem').filter({ hasText: EMAIL })).toContainText('Program');

  // The producer accepts in their own browser; the rules speak at the fields first.
  await producer.goto(link);
  await expect(producer.getByRole('heading', { level: 1, name: /^Join / })).toBeVisible();
  await expect(producer.getByText(`Dana Demo invited ${EMAIL} to work in`)).toBeVisible();
  await producer.getByLabel('Password', { exact: true }).fill('short');
  await producer.getByRole('button', { name: 'Accept and sign in' }).click();
  await expect(producer.getByLabel('Your name')).toHaveAccessibleDescription('You must enter a name');
  await expect(producer.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(/Password must be 8 characters or longer/);
  await producer.getByLabel('Your name').fill('Nova Producer');
  await producer.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await producer.getByLabel('Confirm password').fill(PASSWORD);
  await producer.getByRole('button', { name: 'Accept and sign in' }).click();
  await expect(producer).toHaveURL(new RegExp(`/${organizationId}$`), { timeout: 30_000 });
  await seesOnly(producer, PROGRAM);

  // Two-factor sign-in, set up the way an authenticator app would be: from the key shown.
  await producer.getByRole('button', { name: 'Account' }).click();
  await producer.getByRole('menuitem', { name: 'Account settings' }).click();
  const card = producer.getByRole('region', { name: 'Two-factor sign-in' });
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const app = new TOTP({ secret: (await card.getByLabel('Key').inputValue()).replace(/\s+/g, '') });
  // A code the app does not show is refused at the field.
  await card.getByLabel('Code from the app').fill(String((Number(app.generate()) + 1) % 1_000_000).padStart(6, '0'));
  await card.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(card.getByLabel('Code from the app')).toHaveAttribute('aria-invalid', 'true');
  await card.getByLabel('Code from the app').fill(app.generate());
  await card.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(card.getByText('Save your recovery codes now', { exact: false })).toBeVisible();
  expect((await card.getByLabel('Recovery codes').inputValue()).trim().split(/\s+/).length).toBeGreaterThanOrEqual(8);
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();

  // Log out, then in: the password alone is not enough. The code used to turn it on may not be
  // used again, so the app's next one is typed (the server takes one step either side).
  await producer.getByRole('button', { name: 'Account' }).click();
  await producer.getByRole('menuitem', { name: 'Log out' }).click();
  await producer.getByRole('alertdialog', { name: 'Log out' }).getByRole('button', { name: 'Log out' }).click();
  await producer.getByLabel('Email').fill(EMAIL);
  await producer.getByLabel('Password').fill(PASSWORD);
  await producer.getByRole('button', { name: 'Log in' }).click();
  await expect(producer.getByText('Two-factor sign-in is on for this account.', { exact: false })).toBeVisible();
  await producer.getByLabel('Code', { exact: true }).fill(app.generate({ timestamp: Date.now() + app.period * 1000 }));
  await producer.getByRole('button', { name: 'Verify' }).click();
  await expect(producer.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 30_000 });
  if (new URL(producer.url()).pathname !== `/${organizationId}`) await producer.goto(`/${organizationId}`);
  await seesOnly(producer, PROGRAM);

  // The owner takes the access away; the producer's open app loses the program at its next pull.
  await owner.reload();
  await expect(pending.getByRole('listitem').filter({ hasText: EMAIL })).toHaveCount(0);
  const item = owner.getByRole('listitem').filter({ hasText: EMAIL });
  // The owner sees two-factor on and resets it (as for a member who lost their phone).
  await expect(item).toContainText('Two-factor sign-in on');
  await item.getByRole('button', { name: 'Reset two-factor' }).click();
  const reset = owner.getByRole('alertdialog', { name: 'Reset two-factor sign-in?' });
  await expect(reset).toContainText('Nova Producer will sign in with their password alone');
  await reset.getByRole('button', { name: 'Reset two-factor' }).click();
  await expect(owner.getByText('Two-factor sign-in is off for Nova Producer')).toBeVisible();
  await expect(item).not.toContainText('Two-factor sign-in on');
  await expect(item.getByRole('button', { name: 'Reset two-factor' })).toHaveCount(0);
  await item.getByRole('button', { name: 'Permissions' }).click();
  const editor = owner.getByRole('dialog', { name: 'Permissions of Nova Producer' });
  await editor.getByRole('radio', { name: 'None' }).check();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(owner.getByText('Permissions of Nova Producer saved')).toBeVisible();
  const programs = producer.getByRole('region', { name: 'Programs' });
  await expect(programs.getByText('No programs yet.')).toBeVisible({ timeout: 30_000 });
  await expect(programLinks(producer)).toHaveCount(0);
  await expect(producer.getByText('You do not have content access in this organization', { exact: false })).toBeVisible();

  await ownerContext.close();
  await producerContext.close();
});
