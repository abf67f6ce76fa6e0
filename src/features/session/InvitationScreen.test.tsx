// The invitation screen against the real server (createApp on PGlite answering the page's fetches),
// when the organization has no free seat left: an invitation sent under the ExtraSeats cap, the cap
// lowered since and another invitation accepted meanwhile. Accepting is refused, and the screen
// says so in the invited person's words (the cap in seats and the seats taken), not as "this
// invitation is for another account"; no account is made.
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { describe, expect, it } from 'vitest';

const { InvitationScreen } = await import('./InvitationScreen.tsx');
const { Router } = await import('wouter');
const { memoryLocation } = await import('wouter/memory-location');
const { ORG_PODCASTS } = await import('../../../sync-server/seed.ts');
const { saveRestriction } = await import('../../../sync-server/billing/subscriptions.ts');
const { click, field, mount, pageOnAppForSuite, settleUntil, type } = await import('../../../tests/page-on-app.ts');

const page = pageOnAppForSuite({ clips: 2 });

/** An invitation to Castaway Podcasts made by the demo user (no SMTP here: the answer has its link). */
async function invite(name: string): Promise<{ id: string; token: string }> {
  const res = await page().api('/api/v1/users/invitation', {
    method: 'POST',
    headers: { 'x-organization-id': ORG_PODCASTS },
    body: JSON.stringify({ Email: `${name}@station.example`, Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true } }] }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const link = new URL(((await res.json()) as { Link: string }).Link);
  return { id: link.pathname.split('/').at(-1)!, token: link.searchParams.get('token')! };
}

describe('the invitation screen when the organization has no free seat', () => {
  it('says the plan’s cap in seats and the seats taken, and makes no account', async () => {
    // Starter's 3 seats, 2 held: a cap of 13 while both are invited, then 3; the other one accepts first.
    await saveRestriction(page().test.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 10 }, new Date());
    const late = await invite('late.comer');
    const early = await invite('early.bird');
    await saveRestriction(page().test.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 0 }, new Date());
    const first = await page().app.request(`/api/internal/invitations/${early.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Token: early.token, Name: 'Early Bird', Password: 'a long enough secret' }),
    });
    expect(first.status).toBe(204);

    const { hook, searchHook } = memoryLocation({ path: `/internal/invitations/${late.id}?token=${encodeURIComponent(late.token)}` });
    const el = await mount(
      <Router hook={hook} searchHook={searchHook}>
        <InvitationScreen invitationId={late.id} />
      </Router>,
      { until: 'form' },
    );
    await type(field(el, 'Your name').control, 'Late Comer');
    await type(field(el, 'Password').control, 'a long enough secret');
    await type(field(el, 'Confirm password').control, 'a long enough secret');
    await click(el, 'Accept and sign in');
    // The server hashes the password before it answers: wait for the answer (a few seconds at most).
    await settleUntil(() => el.querySelector('[role="alert"]') !== null, { tries: 50 });
    expect(el.querySelector('[role="alert"]')?.textContent).toBe(
      'Castaway Podcasts has no free seat for you: its plan’s cap is 3 seats and 3 are taken. Ask whoever invited you to have an admin raise the cap under Billing & features; this invitation stays open until it expires.',
    );
    expect(await page().test.store.query(`SELECT 1 FROM users WHERE email = 'late.comer@station.example'`)).toEqual([]);
  }, 60_000);
});
