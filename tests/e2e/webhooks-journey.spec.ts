// Issue 33 (webhooks), the journey of an organization's owner in Chromium: a receiver of their own
// (node:http on 127.0.0.1, which the test server lets webhooks reach: CASTAWAY_WEBHOOK_ALLOW_LOOPBACK),
// a webhook to it for ClipUpdated added from Organization settings with its secret shown once, a
// clip's title edited on the clip screen, the receiver given that change signed as Standard
// Webhooks says (HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" keyed by the secret's
// bytes), the delivery in the log as Succeeded with its response status, and a re-send that reaches
// the receiver with the same webhook-id. The webhook is deleted at the end (DELETE typed), so the
// run's other specs, which edit clips of the same organization, send it nothing afterwards.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { firstSyncDone } from './local-data.ts';
import { applyAndSync, logIn, openOrganizationHome } from './support.ts';

type Received = { headers: IncomingHttpHeaders; body: string };

/** A receiver that keeps every request and answers 200 with a small JSON body. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: received.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/castaway-hooks`, received };
}

/** Standard Webhooks' check: one of the space-separated "v1,<base64>" signatures is ours. */
function signedBy(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`).digest('base64');
  return String(r.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

const typeOf = (r: Received) => (JSON.parse(r.body) as { type?: string }).type;

test('webhooks: an owner adds one for ClipUpdated, gets a signed delivery of a title edit, sees it in the log and re-sends it', async ({ page }) => {
  const receiver = await startReceiver();
  const newTitle = `Harbour report ${Date.now().toString(36)}`;
  try {
    await logIn(page);
    await openOrganizationHome(page);

    // Organization settings, from the organization menu.
    await page.getByRole('button', { name: 'Organization' }).click();
    await page.getByRole('menuitem', { name: 'Organization settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Organization settings' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Webhooks', selected: true })).toBeVisible();

    // A webhook to the receiver for ClipUpdated.
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add a webhook' });
    await form.getByLabel('Level').selectOption({ label: 'Organization' });
    await form.getByLabel('Address (URL)').fill(receiver.url);
    await form.getByLabel('Description (optional)').fill('Journey receiver');
    await form.getByRole('checkbox', { name: /ClipUpdated/ }).check();
    await expect(form.getByRole('checkbox', { name: 'Clips: all events' })).toHaveJSProperty('indeterminate', true);
    await form.getByRole('button', { name: 'Add webhook' }).click();

    // Its secret, this once.
    const shown = page.getByRole('alertdialog', { name: 'Webhook added: copy its secret' });
    await expect(shown.getByText('Copy it now: you will not see this secret again.')).toBeVisible();
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: receiver.url }) });
    await expect(card).toContainText('Enabled');
    await expect(card).toContainText('ClipUpdated');
    await expect(page.getByText(secret)).toHaveCount(0);

    // A clip's title edited on the clip screen.
    // A program no other spec edits the clips of (they share this server and run alongside).
    await page.getByRole('link', { name: 'Castaway Studio home' }).click();
    await openOrganizationHome(page);
    await page.getByRole('region', { name: 'Programs' }).getByRole('link', { name: /The Locker Room/ }).click();
    await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
    await page.getByTestId('clip-list').getByRole('link').first().click();
    await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
    const clipId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByRole('form', { name: 'Details' }).getByLabel('Title').fill(newTitle);
    await applyAndSync(page);

    // The receiver is told, signed with the secret.
    const isOurs = (r: Received) => typeOf(r) === 'ClipUpdated' && r.body.includes(clipId) && r.body.includes(newTitle);
    await expect.poll(() => receiver.received.filter(isOurs).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const delivery = receiver.received.find(isOurs)!;
    const webhookId = String(delivery.headers['webhook-id']);
    expect((JSON.parse(delivery.body) as { id: string }).id).toBe(webhookId);
    expect(signedBy(secret, delivery)).toBe(true);

    // The delivery in the webhook's log: Succeeded, with the receiver's answer.
    await page.getByRole('button', { name: 'Organization' }).click();
    await page.getByRole('menuitem', { name: 'Organization settings' }).click();
    await card.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('region', { name: 'Deliveries' });
    await log.getByLabel('Event type').selectOption('ClipUpdated');
    const entryName = new RegExp(`Succeeded.*ClipUpdated.*${newTitle}.*HTTP 200`);
    await expect(log.getByRole('button', { name: entryName })).toBeVisible({ timeout: 15_000 });
    await log.getByRole('button', { name: entryName }).click();
    const details = log.getByRole('listitem').filter({ has: page.getByRole('button', { name: entryName }) });
    await expect(details.getByText(webhookId, { exact: true })).toBeVisible();
    await expect(details.getByText('"received": ', { exact: false })).toBeVisible();

    // Re-sent: the receiver gets the same webhook-id again.
    await details.getByRole('button', { name: 'Re-send' }).click();
    await expect(page.getByText('Delivery queued again')).toBeVisible();
    await expect.poll(() => receiver.received.filter((r) => r.headers['webhook-id'] === webhookId).length, { timeout: 30_000 }).toBe(2);
    const again = receiver.received.filter((r) => r.headers['webhook-id'] === webhookId)[1]!;
    expect(again.body).toBe(delivery.body);
    expect(signedBy(secret, again)).toBe(true);

    // Deleted, after DELETE is typed: back to the list, without it.
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this webhook?' });
    await confirm.getByLabel('Type DELETE to confirm').fill('DELETE');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Webhook deleted')).toBeVisible();
    await expect(page.getByRole('heading', { name: receiver.url })).toHaveCount(0);
  } finally {
    receiver.server.close();
  }
});
