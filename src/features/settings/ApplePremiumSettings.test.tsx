// @vitest-environment happy-dom
// A program's Apple Podcasts Subscriptions section on a device that is offline (the server cannot
// be reached): an empty field shows what it inherits from the network and the organization and
// whose it is; a bad ID, and delivery switched on without the show's ID, are refused at their
// fields with nothing queued; the show's page address is queued as its ID through
// program.setApplePremium, the device's row changed at once, "waiting to be sent" said; a change
// the server refused comes back into the form with the reason at the field; without
// manage-settings access the section is read only.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/db.ts';
import { ApplePremiumSettings } from './ApplePremiumSettings.tsx';
import { signInOffline } from '../../../tests/offline-session.ts';
import { currentSession } from '../../lib/session.ts';
import { choose, click, field, mount, settle, type } from '../../../tests/dom-actions.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const NETWORK = '3f2504e0-4f89-41d3-9a0c-0305e82c3302';
const PROGRAM = '3f2504e0-4f89-41d3-9a0c-0305e82c3303';
const AT = '2026-03-01T10:00:00.000Z';
const meta = { CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1, OrganizationId: ORG };
const none = { Enabled: null, ProviderId: null, ChannelId: null, ShowId: null, DeliverAdFree: null, EarlyAccessHours: null };

/** Signs in (the cached session: the server cannot be reached here) with these flags on the program. */

async function render(): Promise<HTMLElement> {
  const el = await mount(<ApplePremiumSettings level="Program" organizationId={ORG} programId={PROGRAM} networkId={NETWORK} />, { until: 'form' });
  await settle();
  return el;
}

const apply = (el: HTMLElement) => click(el, 'Apply');

beforeEach(async () => {
  await Promise.all([db.organizations.clear(), db.networks.clear(), db.programs.clear(), db.outbox.clear(), db.needsAttention.clear(), db.shadows.clear()]);
  await db.organizations.put({ ...meta, Id: ORG, Name: 'Radio', ApplePremium: { ...none, ProviderId: 'RadioCo', EarlyAccessHours: 12 } });
  await db.networks.put({ ...meta, Id: NETWORK, Name: 'News', ApplePremium: { ...none, ChannelId: '6450011' } });
  await db.programs.put({ ...meta, Id: PROGRAM, Name: 'Morning', NetworkId: NETWORK, ApplePremium: null });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('a program’s Apple Podcasts Subscriptions section, offline', () => {
  it('shows what empty fields inherit, refuses at the field, and queues the show’s address as its ID', async () => {
    await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasManageSettingsAccess: true });
    const el = await render();
    expect(field(el, 'Provider ID').hint).toBe("The provider ID of your Apple Podcasts Connect account. Empty: RadioCo (the organization's).");
    expect(field(el, 'Subscription channel ID').hint).toContain("Empty: 6450011 (the network's).");
    expect(field(el, 'Early access (hours)').hint).toContain("Empty: 12 (the organization's).");
    expect(field(el, 'Delivery to Apple').hint).toBe("Empty: off (the studio's default).");

    await type(field(el, 'Subscription channel ID').control, '64a');
    await choose(field(el, 'Delivery to Apple').control, 'on');
    await apply(el);
    expect(field(el, 'Subscription channel ID').error).toBe("Enter Apple's numeric ID (digits only, at most 19)");
    expect(field(el, 'Apple show ID').error).toBe("Delivery to Apple needs the show's Apple ID");
    expect(field(el, 'Apple show ID').control.getAttribute('aria-invalid')).toBe('true');
    expect(await db.outbox.count()).toBe(0);

    await type(field(el, 'Subscription channel ID').control, '');
    await type(field(el, 'Apple show ID').control, 'https://podcasts.apple.com/us/podcast/morning/id1234567890');
    await apply(el);
    const queued = await db.outbox.toArray();
    expect(queued.map((q) => [q.name, q.args])).toEqual([['program.setApplePremium', { programId: PROGRAM, ApplePremium: { ...none, Enabled: true, ShowId: '1234567890' } }]]);
    expect((await db.programs.get(PROGRAM))?.['ApplePremium']).toEqual({ ...none, Enabled: true, ShowId: '1234567890' });
    expect(el.querySelector('[role="status"]')?.textContent).toBe('Saved on this device: it is sent to the server when you are online.');
    expect(field(el, 'Apple show ID').control.value).toBe('1234567890');
  });

  it('puts a change the server refused back into the form, the reason at the field it names', async () => {
    await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasManageSettingsAccess: true });
    await db.needsAttention.put({
      id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
      entity: 'programs',
      entityId: PROGRAM,
      mutation: { id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', name: 'program.setApplePremium', args: { programId: PROGRAM, ApplePremium: { ...none, Enabled: true } }, base: AT, createdAt: 1 },
      httpStatus: 400,
      errors: [{ Field: 'ShowId', Code: 'required', Message: "Delivery to Apple needs the show's Apple ID", MessageKey: 'domain_apple_show_needed' }],
      createdAt: 1,
    });
    const el = await render();
    expect((field(el, 'Delivery to Apple').control as unknown as HTMLSelectElement).value).toBe('on');
    expect(field(el, 'Apple show ID').error).toBe("Delivery to Apple needs the show's Apple ID");
    await type(field(el, 'Apple show ID').control, '987654');
    expect(field(el, 'Apple show ID').error).toBeNull();
    await apply(el);
    expect((await db.outbox.toArray()).map((q) => q.args)).toEqual([{ programId: PROGRAM, ApplePremium: { ...none, Enabled: true, ShowId: '987654' } }]);
    expect(await db.needsAttention.count()).toBe(0);
  });

  it('in an organization whose plan lacks it (the session kept on the device says so), says so and offers no change, only clearing', async () => {
    await db.programs.put({ ...meta, Id: PROGRAM, Name: 'Morning', NetworkId: NETWORK, ApplePremium: { ...none, ShowId: '1234567890' } });
    await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasManageSettingsAccess: true }, ['automatic-transcription']);
    const el = await render();
    const notice = el.querySelector('[aria-label="Not part of this organization’s plan"]');
    expect(notice?.getAttribute('role')).toBe('status');
    expect(notice?.textContent).toBe(
      'Not part of this organization’s planYour plan does not include Apple Podcasts Subscriptions.Until the plan includes it, these settings cannot be changed; what is set here is kept, and can be cleared.An admin of the studio can add it under Billing & features.',
    );
    expect(field(el, 'Apple show ID').control.value).toBe('1234567890');
    expect(field(el, 'Apple show ID').control.disabled).toBe(true);
    expect([...el.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Inherit everything']);
    await click(el, 'Inherit everything');
    expect((await db.outbox.toArray()).map((q) => q.args)).toEqual([{ programId: PROGRAM, ApplePremium: null }]);
  });

  it('a change the server refused for the plan says the plan does not include it, where it was made, not as a generic error', async () => {
    // The session was read before the plan changed: it says nothing of the plan.
    await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasManageSettingsAccess: true });
    await db.needsAttention.put({
      id: 'd6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
      entity: 'programs',
      entityId: PROGRAM,
      mutation: { id: 'd6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', name: 'program.setApplePremium', args: { programId: PROGRAM, ApplePremium: { ...none, EarlyAccessHours: 24 } }, base: AT, createdAt: 1 },
      httpStatus: 403,
      errors: [{ Field: 'body', Code: 'featureNotInPlan', Message: 'The organization’s plan does not include apple-premium', Params: { feature: 'apple-premium' } }],
      createdAt: 1,
    });
    const el = await render();
    const alert = el.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('Your plan does not include Apple Podcasts Subscriptions.');
    expect(alert?.textContent).toContain('An admin of the studio can add it under Billing & features.');
    expect(el.textContent).not.toContain('The server refused');
    // The form shows what is saved, not the refused change, and offers no Apply.
    expect(field(el, 'Early access (hours)').control.value).toBe('');
    expect([...el.querySelectorAll('button')].map((b) => b.textContent)).toEqual([]);
    // The device keeps what the server said of the plan: the session (and its copy here) lacks it now.
    expect(currentSession().Organizations[0]?.Features).not.toContain('apple-premium');
  });

  it('a refusal for the plan from before the server last confirmed the session neither locks the form nor takes the feature away (the plan may include it again)', async () => {
    await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasManageSettingsAccess: true });
    await db.needsAttention.put({
      id: 'e7c3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f',
      entity: 'programs',
      entityId: PROGRAM,
      mutation: { id: 'e7c3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f', name: 'program.setApplePremium', args: { programId: PROGRAM, ApplePremium: { ...none, EarlyAccessHours: 24 } }, base: AT, createdAt: 1 },
      httpStatus: 403,
      errors: [{ Field: 'body', Code: 'featureNotInPlan', Message: 'The organization’s plan does not include apple-premium', Params: { feature: 'apple-premium' } }],
      createdAt: 1,
    });
    // The server confirmed the session (with apple-premium) after that refusal, in an earlier page.
    localStorage.setItem('castaway.session.confirmedAt', String(Date.now()));
    try {
      const el = await render();
      expect(el.querySelector('[aria-label="Not part of this organization’s plan"]')).toBeNull();
      expect(field(el, 'Early access (hours)').control.disabled).toBe(false);
      expect(currentSession().Organizations[0]?.Features ?? ['apple-premium']).toContain('apple-premium');
    } finally {
      localStorage.removeItem('castaway.session.confirmedAt');
    }
  });

  it('is read only with audit access, and hidden without any settings access', async () => {
    await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasAuditAccess: true });
    const el = await render();
    expect(field(el, 'Provider ID').control.disabled).toBe(true);
    expect(el.textContent).toContain('You can see these settings, but changing them needs manage-settings access.');
    expect([...el.querySelectorAll('button')].map((b) => b.textContent)).toEqual([]);
    document.body.innerHTML = '';
    await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true });
    const hidden = await mount(<ApplePremiumSettings level="Program" organizationId={ORG} programId={PROGRAM} networkId={NETWORK} />);
    expect(hidden.textContent).toBe('');
  });
});
