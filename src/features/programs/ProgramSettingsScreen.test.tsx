// @vitest-environment happy-dom
// The program settings as a user meets them: a change the server refused after it synced says why
// at the very field it set (a person's link too), with the value tried; a user without
// manage-settings access sees the settings read only; one with it is refused a bad e-mail before
// anything is queued, and a good change is queued as program.update. Its normalization shows what
// it inherits from the organization, a refused change of it at its field, and resets to inherited.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { ProgramSettingsScreen } from './ProgramSettingsScreen.tsx';
import { signInOffline } from '../../../tests/offline-session.ts';
import { click, field, mountAt, settle, type } from '../../../tests/dom-actions.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const PROGRAM = '9b2e4f10-7a3c-4d5e-8f60-1a2b3c4d5e6f';
const AT = '2026-03-01T10:00:00.000Z';

/** Signs in (the cached session: the server cannot be reached here) with these flags at organization scope. */

async function render(): Promise<HTMLElement> {
  // The row, the refused changes and the session arrive in separate live queries.
  const el = await mountAt(`/${ORG}/programs/${PROGRAM}/settings`, '/:organizationId/programs/:programId/settings', <ProgramSettingsScreen />, { until: 'form' });
  await settle();
  return el;
}

beforeEach(async () => {
  await Promise.all([db.programs.clear(), db.networks.clear(), db.organizations.clear(), db.outbox.clear(), db.needsAttention.clear(), db.shadows.clear()]);
  await db.programs.put({
    Id: PROGRAM, OrganizationId: ORG, Name: 'Book Club', Slug: 'book-club', NetworkId: null, Description: null, Urls: { ImagePublicUrl: null },
    Persons: [{ Name: 'Ada', Role: 'host', Href: null }], CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1,
  });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('program settings', () => {
  it('shows a refused change at the fields it set, a person\'s link included, with the value tried; read only without manage-settings', async () => {
    await signInOffline(ORG, 'organization', { HasContentAccess: true });
    const refusal: NeedsAttentionEntry = {
      id: 'b5a1c2d3-e4f5-4a6b-9c7d-8e9f0a1b2c3d',
      entity: 'programs',
      entityId: PROGRAM,
      mutation: { id: 'b5a1c2d3-e4f5-4a6b-9c7d-8e9f0a1b2c3d', name: 'program.update', args: { programId: PROGRAM, fields: { Slug: 'film-club', Persons: [{ Name: 'Ada', Role: 'host', Href: 'nope' }] } }, base: AT, createdAt: 1 },
      httpStatus: 400,
      errors: [
        { Field: 'Slug', Code: 'SlugExists', Message: 'This slug is already in use', MessageKey: 'domain_slug_exists' },
        { Field: 'Persons[0].Href', Code: 'urlInvalid', Message: 'You must enter a valid URL', MessageKey: 'domain_url_invalid' },
      ],
      createdAt: 1,
    };
    await db.needsAttention.put(refusal);
    const el = await render();
    const slug = field(el, 'Slug');
    expect(slug.control.getAttribute('aria-invalid')).toBe('true');
    expect(slug.described).toEqual(expect.arrayContaining(['You tried: film-club', 'This slug is already in use']));
    expect(field(el, 'Link').described).toContain('You must enter a valid URL');
    expect(el.textContent).toContain('You can view these settings but not change them.');
    expect(slug.control.disabled).toBe(true);
    expect([...el.querySelectorAll('button')].some((b) => b.textContent === 'Delete program')).toBe(false);
    // The artwork is shown, with nothing that offers to change it.
    const artwork = el.querySelector('.artwork-picker')!;
    expect(artwork.textContent).toContain('No artwork yet');
    expect(artwork.querySelector('button, input')).toBeNull();
    expect(artwork.textContent).not.toContain('drop it here');
  });

  it('refuses a bad e-mail at its field before queueing, then queues the good change as program.update', async () => {
    await signInOffline(ORG, 'organization', { HasContentAccess: true, HasManageSettingsAccess: true });
    const el = await render();
    expect([...el.querySelectorAll('.artwork-picker button')].map((b) => b.textContent)).toEqual(['Choose artwork']);
    await type(field(el, 'Owner email').control, 'not-an-address');
    await click(el, 'Save');
    expect(field(el, 'Owner email').described).toContain('"not-an-address" is not a valid email address');
    expect(await db.outbox.count()).toBe(0);
    await type(field(el, 'Owner email').control, 'ada@example.com');
    await type(field(el, 'Author').control, 'The book people');
    await click(el, 'Save');
    const queued = await db.outbox.toArray();
    expect(queued.map((q) => [q.name, q.args])).toEqual([['program.update', { programId: PROGRAM, fields: { OwnerEmail: 'ada@example.com', Author: 'The book people' } }]]);
    expect((await db.programs.get(PROGRAM))?.['Author']).toBe('The book people');
  });

  it('offers as networks only the places the user may create a program in, and where the program is now', async () => {
    const networks = [
      { Id: 'a0000000-0000-4000-8000-00000000000a', Name: 'News' },
      { Id: 'b0000000-0000-4000-8000-00000000000b', Name: 'Sport' },
    ];
    await db.networks.bulkPut(networks.map((n) => ({ ...n, OrganizationId: ORG, Urls: { ImagePublicUrl: null }, CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1 })));
    const options = (el: HTMLElement) => [...(field(el, 'Network').control as unknown as HTMLSelectElement).options].map((o) => o.textContent);
    // Organization scope with create access: none, and every network.
    await signInOffline(ORG, 'organization', { HasContentAccess: true, HasManageSettingsAccess: true, HasCreateProgramAccess: true });
    expect(options(await render())).toEqual(['No network', 'News', 'Sport']);
    document.body.innerHTML = '';
    // Without it: only where the program is (no network).
    await signInOffline(ORG, 'organization', { HasContentAccess: true, HasManageSettingsAccess: true });
    expect(options(await render())).toEqual(['No network']);
  });
  it('normalization: inherited from the organization, a refused change at its field, and Reset to inherited queued as program.setNormalization', async () => {
    await signInOffline(ORG, 'organization', { HasContentAccess: true, HasManageSettingsAccess: true });
    localStorage.setItem('castaway-reference-v1:normalization-presets', JSON.stringify([
      { Id: 'podcast', Name: 'Podcast', Description: 'Speech', IntegratedLoudness: -16, TruePeak: -1, LoudnessRange: 11 },
      { Id: 'streaming', Name: 'Streaming', Description: 'Music', IntegratedLoudness: -14, TruePeak: -1, LoudnessRange: 11 },
    ]));
    await db.organizations.put({ Id: ORG, OrganizationId: ORG, Name: 'Radio', Normalization: { PresetId: 'podcast' }, CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1 });
    let el = await render();
    expect(el.textContent).toContain('Inherited from the organization: Podcast (-16 LUFS, -1 dBTP)');
    expect(field(el, 'Normalization').control.value).toBe('podcast');
    expect([...el.querySelectorAll('button')].some((b) => b.textContent === 'Reset to inherited')).toBe(false);
    document.body.innerHTML = '';

    // Its own choice, and a later change of it the server refused.
    await db.programs.update(PROGRAM, { Normalization: { PresetId: 'streaming' } });
    await db.needsAttention.put({
      id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
      entity: 'programs',
      entityId: PROGRAM,
      mutation: { id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', name: 'program.setNormalization', args: { programId: PROGRAM, Normalization: { PresetId: 'loud' } }, base: AT, createdAt: 1 },
      httpStatus: 400,
      errors: [{ Field: 'PresetId', Code: 'invalid', Message: '"loud" is not a normalization preset', MessageKey: 'domain_normalization_preset_unknown', Params: { value: 'loud' } }],
      createdAt: 1,
    });
    el = await render();
    expect(el.textContent).toContain("This program's own choice (the organization's: Podcast (-16 LUFS, -1 dBTP))");
    const normalization = field(el, 'Normalization');
    expect(normalization.control.value).toBe('streaming');
    expect(normalization.control.getAttribute('aria-invalid')).toBe('true');
    expect(normalization.described).toContain('"loud" is not a normalization preset');

    await click(el, 'Reset to inherited');
    const queued = await db.outbox.toArray();
    expect(queued.map((q) => [q.name, q.args])).toEqual([['program.setNormalization', { programId: PROGRAM, Normalization: null }]]);
    expect((await db.programs.get(PROGRAM))?.['Normalization']).toBeNull();
    expect(await db.needsAttention.count()).toBe(0);
    expect(el.textContent).toContain('Inherited from the organization: Podcast (-16 LUFS, -1 dBTP)');
  });
});

