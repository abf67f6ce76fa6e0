// @vitest-environment happy-dom
// A program's monetization section on a device that is offline (the server cannot be reached):
// each field shows the organization's default it inherits, or the studio's, and whose it is; a
// field set here is checked by the domain's rules before anything is queued (a CPM floor out of
// range, more ads in a break than the program's ad-marker rules allow: refused at the field,
// nothing queued); a good change is queued through program.setSettings and the device's row
// changed at once, "waiting to be sent" said on its form only; "Reset to the organization's" queues none; a change
// the server refused comes back into the form with the reason at the field it names.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/db.ts';
import { DEFAULT_AD_MARKER_RULES } from '../../domain/ad-markers.ts';
import type { Program } from '../../protocol/entities.ts';
import { ProgramMonetization } from './ProgramMonetization.tsx';
import { signInOffline } from '../../../tests/offline-session.ts';
import { choose, clickOn, mount, settle, type } from '../../../tests/dom-actions.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3401';
const PROGRAM = '3f2504e0-4f89-41d3-9a0c-0305e82c3403';
const AT = '2026-03-01T10:00:00.000Z';
const meta = { CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1, OrganizationId: ORG };
const none = { DynamicAdsEnabled: null, AdPositions: null, MemberDownloadsAdFree: null, HouseAdsFallback: null, CpmFloor: null };

async function render(editable = true): Promise<HTMLElement> {
  const program = (await db.programs.get(PROGRAM)) as unknown as Program;
  const el = await mount(<ProgramMonetization program={program} organizationId={ORG} editable={editable} />, { until: 'form' });
  await settle();
  return el;
}

const form = (el: HTMLElement) => el.querySelector<HTMLFormElement>('form[data-setting="Monetization"]')!;
const fieldset = (el: HTMLElement, name: string) => form(el).querySelector<HTMLFieldSetElement>(`fieldset[data-field="${name}"]`)!;
const text = (el: HTMLElement, name: string, selector: string) => fieldset(el, name).querySelector(selector)?.textContent ?? null;

const button = (el: HTMLElement, name: string) => [...form(el).querySelectorAll('button')].find((b) => b.textContent === name)!;
const setHere = (el: HTMLElement, name: string) => fieldset(el, name).querySelector<HTMLInputElement>('.inherited-toggle input')!;

beforeEach(async () => {
  await Promise.all([db.organizations.clear(), db.programs.clear(), db.outbox.clear(), db.needsAttention.clear(), db.shadows.clear()]);
  await db.organizations.put({ ...meta, Id: ORG, Name: 'Radio', MonetizationDefaults: { ...none, DynamicAdsEnabled: true, CpmFloor: { Amount: 18.5, Currency: 'EUR' } } });
  await db.programs.put({ ...meta, Id: PROGRAM, Name: 'Morning', NetworkId: null, Monetization: null, AdMarkerRules: { ...DEFAULT_AD_MARKER_RULES, MaxAdsPerBreak: 2 } });
  await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasManageSettingsAccess: true });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('a program’s monetization section, offline', () => {
  it('shows what each field inherits and whose, refuses at the field, and queues a good change', async () => {
    const el = await render();
    expect(text(el, 'DynamicAdsEnabled', '.field-hint')).toBe("Organization's default: On");
    expect(text(el, 'CpmFloor', '.field-hint')).toBe("Organization's default: €18.50");
    expect(text(el, 'HouseAdsFallback', '.field-hint')).toBe('Studio default: Off');
    expect(fieldset(el, 'CpmFloor').querySelector<HTMLInputElement>('input[type="number"]')!.disabled).toBe(true);

    // Set here: starts from the inherited value; out of range, refused at the field.
    await clickOn(setHere(el, 'CpmFloor'));
    const amount = fieldset(el, 'CpmFloor').querySelector<HTMLInputElement>('input[type="number"]')!;
    expect([amount.disabled, amount.value]).toEqual([false, '18.5']);
    await type(amount, '1200');
    // The positions: the studio's three, a mid-roll of 2 ads; 3 ads is more than the program's rules allow.
    await clickOn(setHere(el, 'AdPositions'));
    await type(fieldset(el, 'AdPositions').querySelector<HTMLInputElement>('input[aria-label="Most ads in the Mid-roll"]')!, '3');
    await clickOn(button(el, 'Apply'));
    expect(text(el, 'CpmFloor', '.field-error')).toBe('Enter a number between 0 and 1000');
    expect(text(el, 'AdPositions', '.field-error')).toBe('The ad-marker rules allow 2 ads in a break at most');
    expect(await db.outbox.count()).toBe(0);

    await type(amount, '25');
    await type(fieldset(el, 'AdPositions').querySelector<HTMLInputElement>('input[aria-label="Most ads in the Mid-roll"]')!, '2');
    await clickOn(button(el, 'Apply'));
    const queued = await db.outbox.toArray();
    const own = { ...none, CpmFloor: { Amount: 25, Currency: 'EUR' }, AdPositions: [{ Type: 'PreRoll', MaxAds: 1 }, { Type: 'MidRoll', MaxAds: 2 }, { Type: 'PostRoll', MaxAds: 1 }] };
    expect(queued.map((q) => [q.name, q.args])).toEqual([['program.setSettings', { programId: PROGRAM, Monetization: own }]]);
    expect((await db.programs.get(PROGRAM))?.['Monetization']).toEqual(own);
    expect(form(el).querySelector('[role="status"]')?.textContent).toBe('Saved on this device: it is sent to the server when you are online.');
    // Said of this setting's change only: the other forms have none waiting.
    expect(el.querySelector('form[data-setting="VideoMonetization"] [role="status"]')).toBeNull();
    expect(text(el, 'DynamicAdsEnabled', '.field-hint')).toBe("Organization's default: On");

    // Back to the organization's: every own value dropped.
    await clickOn(button(el, "Reset to the organization's"));
    expect((await db.outbox.toArray()).at(-1)?.args).toEqual({ programId: PROGRAM, Monetization: null });
    expect((await db.programs.get(PROGRAM))?.['Monetization']).toBeNull();
    expect(setHere(el, 'CpmFloor').checked).toBe(false);
  });

  it('puts a change the server refused back into the form, the reason at the field it names', async () => {
    await db.needsAttention.put({
      id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d60',
      entity: 'programs',
      entityId: PROGRAM,
      mutation: { id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d60', name: 'program.setSettings', args: { programId: PROGRAM, Monetization: { ...none, CpmFloor: { Amount: 5, Currency: 'XYZ' } } }, base: AT, createdAt: 1 },
      httpStatus: 400,
      errors: [{ Field: 'Monetization.CpmFloor.Currency', Code: 'invalid', Message: '"XYZ" is not a currency ads are sold in here', MessageKey: 'domain_monetization_currency_unknown', Params: { value: 'XYZ' } }],
      createdAt: 1,
    });
    const el = await render();
    expect(setHere(el, 'CpmFloor').checked).toBe(true);
    expect(text(el, 'CpmFloor', '.field-error')).toBe('"XYZ" is not a currency ads are sold in here');
    // The other settings' forms say nothing of it.
    expect(el.querySelector('form[data-setting="VideoMonetization"] .field-error')).toBeNull();
    const currency = fieldset(el, 'CpmFloor').querySelector<HTMLSelectElement>('select')!;
    await choose(currency, 'USD');
    expect(text(el, 'CpmFloor', '.field-error')).toBeNull();
    await clickOn(button(el, 'Apply'));
    expect((await db.outbox.toArray()).map((q) => q.args)).toEqual([{ programId: PROGRAM, Monetization: { ...none, CpmFloor: { Amount: 5, Currency: 'USD' } } }]);
    expect(await db.needsAttention.count()).toBe(0);
  });

  it('is read only without manage-settings access', async () => {
    const el = await render(false);
    expect(form(el).textContent).toContain('Changing these needs content and manage-settings access on the program.');
    expect(setHere(el, 'CpmFloor').disabled).toBe(true);
    expect([...form(el).querySelectorAll('button')]).toEqual([]);
  });
});
