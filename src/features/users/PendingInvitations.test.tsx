// The users screen's pending invitations against the real server (createApp on PGlite answering the
// page's fetches): an expired invitation sent again asks for a seat again, and when the
// organization's seats are at the ExtraSeats cap the server refuses it; the row says so in words,
// the add-on, its cap and what is used, with who can raise it (not "could not be sent").
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { describe, expect, it } from 'vitest';

const { PendingInvitations } = await import('./PendingInvitations.tsx');
const { InviteDialog } = await import('./InviteDialog.tsx');
const { ORG_PODCASTS } = await import('../../../sync-server/seed.ts');
const { saveRestriction } = await import('../../../sync-server/billing/subscriptions.ts');
const { measureUsage } = await import('../../../sync-server/billing/usage.ts');
const { periodOf } = await import('../../domain/billing.ts');
const { setApiOrganization } = await import('../../lib/api.ts');
const { click, clickOn, field, mount, pageOnAppForSuite, settleUntil, type } = await import('../../../tests/page-on-app.ts');

const page = pageOnAppForSuite({ clips: 2 });

describe('pending invitations at the seats’ cap', () => {
  it('an expired invitation sent again is refused, and its row names the cap and the seats used', async () => {
    const email = 'expired.guest@station.example';
    const made = await page().api('/api/v1/users/invitation', {
      method: 'POST',
      headers: { 'x-organization-id': ORG_PODCASTS },
      body: JSON.stringify({ Email: email, Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true } }] }),
    });
    expect(made.status).toBe(201);
    await page().test.store.query(`UPDATE invitations SET expires_at_utc = $2 WHERE email = $1`, [email, new Date(Date.now() - 86_400_000)]);
    // The cap set at the seats held now (Starter's 3 plus a MaxOverage of the rest), nothing else
    // open: the expired invitation, sent again, would be one seat more.
    const seats = (await measureUsage(page().test.store, ORG_PODCASTS, periodOf(new Date()))).seats;
    await saveRestriction(page().test.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: seats - 3 }, new Date());

    setApiOrganization(ORG_PODCASTS);
    const el = await mount(<PendingInvitations online version={0} />, { until: 'li' });
    const row = [...el.querySelectorAll('li')].find((li) => li.textContent?.includes(email))!;
    await clickOn([...row.querySelectorAll('button')].find((b) => b.textContent === 'Resend'));
    await settleUntil(() => row.querySelector('[role="alert"]') !== null);
    expect(row.querySelector('[role="alert"]')?.textContent).toBe(
      `This month’s cap for Extra seats is ${seats} and ${seats} are used: this would go past it. An admin can raise the cap under Billing & features.`,
    );
  }, 60_000);

  // The same cap met by a new invitation: said at the dialog's form, in the same words, not "could
  // not be sent"; nothing is sent, and the dialog keeps what was typed.
  it('a new invitation at the cap is refused in the dialog, naming the cap and the seats used', async () => {
    const seats = (await measureUsage(page().test.store, ORG_PODCASTS, periodOf(new Date()))).seats;
    await saveRestriction(page().test.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: seats - 3 }, new Date());
    const [open] = await page().test.store.query<{ n: string | number }>(`SELECT count(*) AS n FROM invitations WHERE organization_id = $1 AND used_at_utc IS NULL AND expires_at_utc > now()`, [ORG_PODCASTS]);
    setApiOrganization(ORG_PODCASTS);
    const el = await mount(<InviteDialog open organizationId={ORG_PODCASTS} online onClose={() => undefined} onInvited={() => undefined} />);
    const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]') ?? el;
    await type(field(dialog(), 'E-mail address').control, 'capped.guest@station.example');
    // The scope's radio is inside its label; a flag's checkbox is named by its label's for.
    const scope = (text: string) => [...dialog().querySelectorAll('label')].find((l) => l.textContent === text)?.querySelector('input');
    await clickOn(scope('Organization'));
    await clickOn(field(dialog(), 'Content').control);
    await click(dialog(), 'Invite');
    await settleUntil(() => dialog().querySelector('[role="alert"]') !== null);
    const used = seats + Number(open!.n);
    expect(dialog().querySelector('[role="alert"]')?.textContent).toBe(
      `This month’s cap for Extra seats is ${seats} and ${used} are used: this would go past it. An admin can raise the cap under Billing & features.`,
    );
    expect(field(dialog(), 'E-mail address').control.value).toBe('capped.guest@station.example');
    expect(await page().test.store.query(`SELECT 1 FROM invitations WHERE email = 'capped.guest@station.example'`)).toEqual([]);
  }, 60_000);
});
