// Where you are signed in (issue 31: "sessions list with sign out everywhere"): a member signed in
// on a laptop and a phone sees both browsers in Account settings, this one marked; "Sign out
// everywhere else", confirmed, signs the phone out: its open app is sent to the login screen at its
// next request. The member is made here (invited through the API and accepted), so no other spec's
// session is ended.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { logIn } from './support.ts';

async function newMember(api: APIRequestContext, email: string, password: string): Promise<void> {
  expect((await api.post('/api/internal/session/login', { data: { Email: 'demo@example.com', Password: 'castaway-demo' } })).status()).toBe(200);
  const { XsrfToken } = (await (await api.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string };
  const [organization] = (await (await api.get('/api/internal/users/me/organizations')).json()) as Array<{ Id: string }>;
  const made = await api.post('/api/v1/users/invitation', { headers: { 'x-organization-id': organization!.Id, 'x-xsrf-token': XsrfToken }, data: { Email: email, Permissions: [] } });
  expect(made.status(), await made.text()).toBe(201);
  const link = new URL(((await made.json()) as { Link: string }).Link);
  await api.post('/api/internal/session/logout', { headers: { 'x-xsrf-token': XsrfToken } });
  const accepted = await api.put(`/api${link.pathname}`, { data: { Token: link.searchParams.get('token'), Name: 'Sol Sessions', Password: password } });
  expect(accepted.status(), await accepted.text()).toBe(204);
  // Accepting signed this request context in: out again, so the member has no session yet.
  const xsrf = ((await (await api.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string }).XsrfToken;
  expect((await api.post('/api/internal/session/logout', { headers: { 'x-xsrf-token': xsrf } })).status()).toBeLessThan(300);
}

test('two browsers are listed, this one marked; signing out everywhere else sends the other to the login screen', async ({ browser, baseURL, playwright }) => {
  const email = `sessions.e2e.${Date.now()}@station.example`;
  const password = 'a long enough secret';
  const api = await playwright.request.newContext({ baseURL: baseURL! });
  await newMember(api, email, password);
  await api.dispose();

  const phoneContext = await browser.newContext({ baseURL: baseURL!, userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36' });
  const phone = await phoneContext.newPage();
  await logIn(phone, email, password);
  const laptopContext = await browser.newContext({ baseURL: baseURL! });
  const laptop = await laptopContext.newPage();
  await logIn(laptop, email, password);

  await laptop.getByRole('button', { name: 'Account' }).click();
  await laptop.getByRole('menuitem', { name: 'Account settings' }).click();
  const card = laptop.getByRole('region', { name: 'Where you are signed in' });
  const rows = card.getByRole('list', { name: 'Where you are signed in' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('This browser');
  await expect(rows.nth(1)).toContainText('Chrome 126 on Android');

  await card.getByRole('button', { name: 'Sign out everywhere else' }).click();
  const confirm = laptop.getByRole('alertdialog', { name: 'Sign out everywhere else' });
  await expect(confirm).toContainText('(1)');
  await confirm.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(laptop.getByText('Signed out everywhere else', { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(1);

  // The phone's next request finds its session gone: the login screen.
  await phone.reload();
  await expect(phone.getByRole('button', { name: 'Log in' })).toBeVisible({ timeout: 30_000 });
  await phoneContext.close();
  await laptopContext.close();
});
