// @vitest-environment happy-dom
// The clip form as a user meets it: a change the server would refuse is refused here first, with
// the domain's message at the field and nothing queued; a visibility that needs a slug fills the
// Slug field from the title, for the user to see; a change the server refused (needs attention)
// says why at the very field, in the user's language, with the value tried and what to do.
import 'fake-indexeddb/auto';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clipDefaults } from '../../domain/clip-defaults.ts';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { baseLocale, setLocale } from '../../lib/i18n.ts';
import { mountAt, settle as settleFor, settleUntil } from '../../../tests/dom-actions.ts';
import { ClipScreen } from './ClipScreen.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const PROGRAM = '9b2e4f10-7a3c-4d5e-8f60-1a2b3c4d5e6f';
const CLIP = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const OTHER = '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const AT = '2026-03-01T10:00:00.000Z';

const row = (id: string, fields: Record<string, unknown>) => ({
  ...clipDefaults(),
  Id: id,
  OrganizationId: ORG,
  ProgramId: PROGRAM,
  PlaylistIds: [],
  CreatedAtUtc: AT,
  ModifiedAtUtc: AT,
  CreatedById: null,
  ModifiedById: null,
  Deleted: false,
  Version: 1,
  ...fields,
});

const settle = () => settleFor(60);

async function render(): Promise<HTMLElement> {
  const el = await mountAt(`/${ORG}/programs/${PROGRAM}/clips/${CLIP}`, '/:organizationId/programs/:programId/clips/:clipId', <ClipScreen />);
  // The screen reads the device's store: on a loaded machine its rows arrive after the first settle.
  await settleUntil(() => el.querySelector('label') !== null, { tries: 50, ms: 60 });
  return el;
}

/** The control a label names, and the texts that describe it (hint, error). */
function field(el: HTMLElement, label: string): { control: HTMLInputElement | HTMLSelectElement; described: string[] } {
  const labelEl = [...el.querySelectorAll('label')].find((l) => l.textContent === label);
  if (!labelEl) throw new Error(`no field labelled ${label}`);
  const control = el.ownerDocument.getElementById(labelEl.htmlFor) as HTMLInputElement | HTMLSelectElement;
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return { control, described: ids.map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '') };
}

async function change(control: HTMLInputElement | HTMLSelectElement, value: string): Promise<void> {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value')!.set!;
    setter.call(control, value);
    control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
  await settle();
}

async function click(el: HTMLElement, name: string): Promise<void> {
  const find = () => [...el.querySelectorAll('button')].find((b) => b.textContent === name);
  // A button shown from a local query (a refusal's Edit again) may come a little after the form.
  await settleUntil(() => find() !== undefined, { tries: 50, ms: 60 });
  const button = find();
  if (!button) throw new Error(`no button ${name}`);
  await act(async () => button.click());
  await settle();
}

beforeEach(async () => {
  // No server here: the sections that ask it (loudness, transcript, brand safety…) meet what an
  // offline browser's fetch does, not a connection refused by a port nobody listens on.
  vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
  await setLocale(baseLocale, { reload: false });
  await Promise.all([db.clips.clear(), db.outbox.clear(), db.needsAttention.clear(), db.shadows.clear()]);
  await db.clips.bulkPut([row(CLIP, { Title: 'Morning News', Slug: null, Visibility: 'Private' }), row(OTHER, { Title: 'Earlier', Slug: 'morning-news' })]);
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('the clip form refuses before saving what the server would refuse', () => {
  it('Public with no slug: "You must enter a slug" at the Slug field, and nothing is queued', async () => {
    const el = await render();
    await change(field(el, 'Visibility').control, 'Public');
    await change(field(el, 'Slug').control, '');
    await click(el, 'Apply');
    const slug = field(el, 'Slug');
    expect(slug.control.getAttribute('aria-invalid')).toBe('true');
    expect(slug.described).toContain('You must enter a slug');
    expect(await db.outbox.count()).toBe(0);
    expect((await db.clips.get(CLIP))?.['Visibility']).toBe('Private');
  });

  it('a reserved slug and a Season below 0 are named at their fields, in the domain\'s words', async () => {
    const el = await render();
    await change(field(el, 'Slug').control, 'admin');
    await change(field(el, 'Season').control, '-1');
    await click(el, 'Apply');
    expect(field(el, 'Slug').described).toContain('This slug is reserved for use by the product');
    expect(field(el, 'Season').described).toContain('Enter a number between 0 and 2147483647');
    expect(await db.outbox.count()).toBe(0);
  });

  it('choosing Public fills the Slug field from the title (the next number when another clip holds it), and Apply saves both', async () => {
    const el = await render();
    await change(field(el, 'Visibility').control, 'Public');
    const slug = field(el, 'Slug');
    expect(slug.control.value).toBe('morning-news-2');
    expect(slug.described).toContain('Made from the title; you can change it');
    // Back to Private: the slug made for Public goes again.
    await change(field(el, 'Visibility').control, 'Private');
    expect(field(el, 'Slug').control.value).toBe('');
    await change(field(el, 'Visibility').control, 'Unlisted');
    await click(el, 'Apply');
    expect(await db.clips.get(CLIP)).toMatchObject({ Visibility: 'Unlisted', Slug: 'morning-news-2' });
    expect(await db.outbox.count()).toBe(1);
  });

  it('a whitespace title is saved as no title (the clip reads "Untitled clip")', async () => {
    const el = await render();
    await change(field(el, 'Title').control, '   ');
    await click(el, 'Apply');
    expect((await db.clips.get(CLIP))?.['Title']).toBeNull();
    expect(el.querySelector('h1')?.textContent).toBe('Untitled clip');
  });
});

describe('a change the server refused', () => {
  const refusal = (): NeedsAttentionEntry => ({
    id: 'b5a1c2d3-e4f5-4a6b-9c7d-8e9f0a1b2c3d',
    entity: 'clips',
    entityId: CLIP,
    mutation: { id: 'b5a1c2d3-e4f5-4a6b-9c7d-8e9f0a1b2c3d', name: 'clip.update', args: { clipId: CLIP, fields: { Slug: 'taken-slug' } }, base: AT, createdAt: 1 },
    httpStatus: 400,
    errors: [{ Field: 'Slug', Code: 'SlugExists', Message: 'This slug is already in use in this program', MessageKey: 'domain_slug_exists_in_program' }],
    createdAt: 1,
  });

  it('says why at the Slug field, in the user\'s language, with the slug tried', async () => {
    await setLocale('de-DE', { reload: false });
    await db.needsAttention.put(refusal());
    const el = await render();
    const slug = field(el, 'Slug');
    expect(slug.control.getAttribute('aria-invalid')).toBe('true');
    expect(slug.described).toContain('Dieser Slug wird in diesem Programm bereits verwendet');
    expect(slug.described).toContain('Nicht gespeichert: Sie hatten „taken-slug“ eingegeben');
    expect(slug.control.value).toBe('');
  });

  it('Edit again puts the slug tried back with the reason; a new slug typed there clears it; Discard forgets the change', async () => {
    await db.needsAttention.put(refusal());
    const el = await render();
    await click(el, 'Edit again');
    expect(field(el, 'Slug').control.value).toBe('taken-slug');
    expect(field(el, 'Slug').described).toContain('This slug is already in use in this program');
    expect(await db.needsAttention.count()).toBe(0);

    await db.needsAttention.put(refusal());
    await settle();
    await click(el, 'Reset');
    expect(field(el, 'Slug').described).toContain('This slug is already in use in this program');
    await change(field(el, 'Slug').control, 'free-slug');
    expect(field(el, 'Slug').control.getAttribute('aria-invalid')).toBeNull();
    await click(el, 'Discard this change');
    expect(await db.needsAttention.count()).toBe(0);
  });
});
