// The audit trail (issue 31): the support user (audit and content access at Organization scope)
// opens Organization settings › Audit trail from the menu and finds their own sign-in, by name;
// filters to sign-ins; a reversed range is refused at the To field before anything is sent; and
// offline the section says the trail needs the network instead of showing nothing.
import { expect, test } from '@playwright/test';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { DEMO, logIn } from './support.ts';

test('the audit trail shows who signed in, filters by event, refuses a reversed range at its field, and says offline that it needs the network', async ({ page, context }) => {
  await logIn(page, 'support@example.com', DEMO.password);
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('menuitem', { name: 'Organization settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Audit trail' }).click();
  await expect(page).toHaveURL(/section=audit/);
  const trail = page.getByRole('list', { name: 'Audit trail' });
  const mine = trail.getByRole('listitem').filter({ hasText: 'Signed in' }).filter({ hasText: 'Sam Support' });
  await expect(mine.first()).toBeVisible({ timeout: 30_000 });

  const filters = page.getByRole('form', { name: 'Audit filters' });
  await filters.getByLabel('Event').selectOption({ label: 'Signed in' });
  await filters.getByRole('button', { name: 'Show' }).click();
  // Until the filtered page has replaced the whole list: the first item read "Signed in" before
  // the filter too, and the list is empty while the filtered page loads (read then, it gave none).
  const kinds = async () => [...new Set(await trail.getByRole('listitem').locator('strong').allTextContents())];
  await expect.poll(kinds, { timeout: 10_000 }).toEqual(['Signed in']);

  // To before From: said at To, the list left as it was.
  const to = filters.getByLabel('To');
  await filters.getByLabel('From').fill('2026-03-10');
  await to.fill('2026-03-01');
  await filters.getByRole('button', { name: 'Show' }).click();
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(filters.getByText('End date must be after the start date')).toBeVisible();
  await expect(mine.first()).toBeVisible();

  await context.setOffline(true);
  await to.fill('2026-12-31');
  await filters.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('The audit trail is kept on the server: it loads when you are back online.')).toBeVisible();
  await context.setOffline(false);
});

// Who audits one program only (the flags at Program scope) has no Organization settings: the
// program's settings screen shows that program's trail. The admin gives the producer audit access
// on Morning Briefing and changes the program; the producer sees the change there, and not the
// organization-wide filter by object. The producer's flags are put back at the end.
test('a program’s own auditor reads its trail on the program’s settings screen', async ({ page, playwright, baseURL }) => {
  const morning = seedId('program:morning');
  const producer = seedId('user:producer@example.com');
  const admin = await playwright.request.newContext({ baseURL: baseURL! });
  expect((await admin.post('/api/internal/session/login', { data: { Email: DEMO.email, Password: DEMO.password } })).status()).toBe(200);
  const xsrf = ((await (await admin.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string }).XsrfToken;
  const headers = { 'x-organization-id': ORG_DEMO, 'x-xsrf-token': xsrf };
  const setFlags = async (flags: Record<string, boolean>) =>
    expect((await admin.put(`/api/v1/programs/${morning}/users/${producer}/permissions`, { headers, data: flags })).status()).toBe(200);
  await setFlags({ HasContentAccess: true, HasAuditAccess: true });
  try {
    const description = `Audited ${Date.now()}`;
    expect((await admin.patch(`/api/v1/programs/${morning}`, { headers, data: { Description: description } })).status()).toBe(200);

    await logIn(page, 'producer@example.com', DEMO.password);
    await page.goto(`/${ORG_DEMO}/programs/${morning}/settings`);
    const trail = page.getByRole('list', { name: 'Audit trail' });
    await expect(trail.getByRole('listitem').filter({ hasText: 'Updated' }).filter({ hasText: 'Morning Briefing' }).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Who changed this program, its episodes, playlists and recordings, and when: newest first.')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Audit filters' }).getByLabel('Object')).toHaveCount(0);
  } finally {
    await setFlags({ HasContentAccess: true });
    await admin.dispose();
  }
});
