// Contact support reaches someone (issue 33): the analyst sends an enquiry from the help menu; the
// support user opens Admin → Support inbox, finds it among the open ones with who sent it and from
// which organization, marks it handled (it leaves the open list) and finds it under Handled with
// their name. The analyst has no such menu item and gets Access denied at the address.
import { expect, test } from '@playwright/test';
import { DEMO, logIn } from './support.ts';

test('an enquiry from the help menu reaches the support inbox, where it is marked handled', async ({ browser, baseURL }) => {
  const text = `The waveform stays blank on my tablet (${Date.now()})`;
  const analystContext = await browser.newContext({ baseURL: baseURL! });
  const analyst = await analystContext.newPage();
  await logIn(analyst, 'analyst@example.com', DEMO.password);
  await analyst.getByRole('button', { name: 'Help' }).click();
  await analyst.getByRole('menuitem', { name: 'Contact support' }).click();
  const dialog = analyst.getByRole('dialog', { name: 'Contact support' });
  await dialog.getByLabel('Enquiry').fill(text);
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(analyst.getByText('Enquiry sent', { exact: true })).toBeVisible();
  await analyst.goto('/admin/support');
  await expect(analyst.getByRole('heading', { name: 'Access denied' })).toBeVisible();
  await analystContext.close();

  const supportContext = await browser.newContext({ baseURL: baseURL! });
  const support = await supportContext.newPage();
  await logIn(support, 'support@example.com', DEMO.password);
  await support.getByRole('button', { name: 'Organization' }).click();
  await support.getByRole('menuitem', { name: 'Support inbox' }).click();
  await expect(support.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();
  const card = support.getByRole('listitem').filter({ hasText: text });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Open');
  await expect(card).toContainText('analyst@example.com');
  await card.getByRole('button', { name: 'Mark handled' }).click();
  await expect(card).toContainText('Handled by Sam Support');

  await support.getByRole('radio', { name: 'Handled' }).check();
  await expect(support.getByRole('listitem').filter({ hasText: text })).toContainText('Handled by Sam Support');
  await support.getByRole('radio', { name: 'Open' }).check();
  await expect(support.getByRole('list', { name: 'Support inbox' }).or(support.getByText('No enquiries here.'))).toBeVisible();
  await expect(support.getByRole('listitem').filter({ hasText: text })).toHaveCount(0);
  await supportContext.close();
});
