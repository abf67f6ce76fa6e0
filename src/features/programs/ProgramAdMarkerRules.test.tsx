// @vitest-environment happy-dom
// A program's ad-marker rules on its settings page, on a device signed in from its cached session
// with the server out of reach (fake IndexedDB): rules that contradict each other are refused at
// their field before anything is queued; corrected, they are queued as program.setAdMarkerRules and
// the device's program shows them; without manage-settings access the card is read only.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/db.ts';
import type { Program } from '../../protocol/entities.ts';
import { ProgramAdMarkerRules } from './ProgramAdMarkerRules.tsx';
import { signInOffline } from '../../../tests/offline-session.ts';
import { click, clickOn, field, mount, type } from '../../../tests/dom-actions.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const PROGRAM = '9b2e4f10-7a3c-4d5e-8f60-1a2b3c4d5e6f';
const AT = '2026-03-01T10:00:00.000Z';
const program = {
  Id: PROGRAM, OrganizationId: ORG, Name: 'Book Club', Slug: 'book-club', NetworkId: null, Description: null, Urls: { ImagePublicUrl: null },
  CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1,
} as unknown as Program;


const render = () => mount(<ProgramAdMarkerRules program={program} />);

beforeEach(async () => {
  await Promise.all([db.programs.clear(), db.outbox.clear(), db.shadows.clear()]);
  await db.programs.put(program as never);
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('ad-marker rules in program settings', () => {
  it('refuses contradicting rules at their field, then queues program.setAdMarkerRules', async () => {
    await signInOffline(ORG, 'organization', { HasContentAccess: true, HasManageSettingsAccess: true });
    const el = await render();
    expect(el.textContent).toContain('This program has no ad-marker rules yet.');
    await type(field(el, 'Fewest mid-rolls').control, '3');
    await type(field(el, 'Most mid-rolls').control, '1');
    await type(field(el, 'Most ads in a break').control, '11');
    await click(el, 'Apply');
    expect(field(el, 'Fewest mid-rolls').error).toBe('The fewest mid-rolls cannot be more than the most (1)');
    expect(field(el, 'Most ads in a break').error).toBe('A break holds from 1 to 10 ads');
    expect(await db.outbox.count()).toBe(0);

    await type(field(el, 'Fewest mid-rolls').control, '1');
    await type(field(el, 'Most ads in a break').control, '3');
    await type(field(el, 'No mid-roll in the first … seconds').control, '60');
    await clickOn(el.querySelector<HTMLInputElement>('input[type="checkbox"]'));
    await click(el, 'Apply');
    const rules = { PreRollRequired: true, PostRollRequired: false, MinMidRolls: 1, MaxMidRolls: 1, MinSpacingSeconds: 0, NoMidRollFirstSeconds: 60, NoMidRollLastSeconds: 0, MaxAdsPerBreak: 3 };
    expect((await db.outbox.toArray()).map((q) => [q.name, q.args])).toEqual([['program.setAdMarkerRules', { programId: PROGRAM, AdMarkerRules: rules }]]);
    expect(((await db.programs.get(PROGRAM)) as unknown as Program).AdMarkerRules).toEqual(rules);
  });

  it('is read only without manage-settings access on the program', async () => {
    await signInOffline(ORG, 'organization', { HasContentAccess: true });
    const el = await render();
    expect(el.textContent).toContain('Changing the rules needs content and settings access on this program.');
    expect(field(el, 'Fewest mid-rolls').control.disabled).toBe(true);
    expect([...el.querySelectorAll('button')].some((b) => b.textContent === 'Apply')).toBe(false);
  });
});
