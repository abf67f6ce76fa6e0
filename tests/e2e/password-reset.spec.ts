// A forgotten password (issue 31), on a phone: from the login screen a person asks for a reset link,
// opens the link the studio really mailed (an SMTP server this spec starts on 127.0.0.1 receives it;
// the spec's own server sends through it), is told section 5's rules at the fields, sets a new
// password, and signs in with it; the old one no longer works. Its own server: the password of a
// demo user changes, which the run's shared server must not see.
import { expect, test } from '@playwright/test';
import { startSmtp } from '../helpers/smtp-server.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

const EMAIL = 'producer@example.com';
const NEW_PASSWORD = 'a brand new secret';

let server: OwnServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  smtp = await startSmtp();
  server = await startOwnServer('castaway-reset-', { SMTP_URL: smtp.url, CASTAWAY_DEMO_CLIPS: '24', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});

test.afterAll(async () => {
  server?.stop();
  await smtp?.close();
});

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('forgot password on the login screen: the mailed link sets a new password, and it signs in', async ({ page }) => {
  await page.goto(`${server.baseURL}/`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Please enter an email address');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toHaveText(`If ${EMAIL} has an account, a link to choose a new password is on its way. It works once, for an hour.`);

  // The mail, as the SMTP server got it: its link is the way in.
  await expect.poll(() => smtp.received.filter((m) => m.subject === 'Reset your Castaway Studio password').length, { timeout: 30_000 }).toBe(1);
  const mail = smtp.received.find((m) => m.subject === 'Reset your Castaway Studio password')!;
  const link = /https?:\/\/\S+\/account\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeDefined();
  await page.goto(link!);

  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAccessibleDescription(/Password must be 8 characters or longer/);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}!`);
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByLabel('Confirm new password')).toHaveAccessibleDescription('Password does not match');
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByText('Your password is changed. Log in with it.')).toBeVisible();

  // The login screen: the old password is refused, the new one signs in.
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill('castaway-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Account' })).toBeVisible({ timeout: 30_000 });
  // The studio said so by mail too.
  await expect.poll(() => smtp.received.some((m) => m.subject === 'Your Castaway Studio password was changed'), { timeout: 30_000 }).toBe(true);

  // The link was used: opened again, it says so at once it is sent.
  await page.goto(link!);
  await page.getByLabel('New password', { exact: true }).fill('yet another secret');
  await page.getByLabel('Confirm new password').fill('yet another secret');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This password reset link was already used: ask for a new one if you need it');
});
