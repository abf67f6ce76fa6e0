// @vitest-environment happy-dom
// The Publishing panel when the server refused what was queued there: a publish (or unpublish)
// refused after it synced says why beside the Publish button, in the server's words, with Discard
// and Try again; a refused schedule says it at the schedule's field it named; publishing again
// answers the refusal. The refusals are made by the server's own rules and 400 shape
// (src/domain/publishing.ts, src/domain/clip-rules.ts, sync-server/errors.ts fieldError) and
// recorded as the sync worker records them (the needsAttention store).
import 'fake-indexeddb/auto';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clipFieldErrors } from '../../domain/clip-rules.ts';
import { publishRequirements } from '../../domain/publishing.ts';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import type { Clip } from '../../protocol/entities.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { fieldError } from '../../../sync-server/errors.ts';
import { PublishPanel } from './PublishPanel.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CLIP = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const AT = '2026-03-01T10:00:00.000Z';

/** A clip this device holds as publishable: Ready audio, Public, with a slug. */
const CLIP_ROW = {
  Id: CLIP, OrganizationId: ORG, ProgramId: '9b2e4f10-7a3c-4d5e-8f60-1a2b3c4d5e6f', Title: 'Episode 1', State: 'Ready', Visibility: 'Public', Slug: 'episode-1',
  PublishState: 'Unpublished', PublishProblem: null, ScheduledVisibility: null, VisibleAtUtc: null, ModifiedAtUtc: AT, Deleted: false,
  Urls: { AudioPrivateUrl: `/api/internal/clips/${CLIP}/audio?v=1` },
};
const clip = CLIP_ROW as unknown as Clip;

/** What the sync worker keeps of a change the server answered 400 with these field errors. */
function refused(name: string, args: Record<string, unknown>, errors: Record<string, FormError | undefined>, createdAt = Date.now()): NeedsAttentionEntry {
  return {
    id: crypto.randomUUID(), entity: 'clips', entityId: CLIP, httpStatus: 400, createdAt,
    mutation: { id: crypto.randomUUID(), name, args, base: null, createdAt },
    errors: Object.entries(errors).flatMap(([field, e]) => (e ? [fieldError(field, e)] : [])),
  };
}

/** The server's refusal of a publish: there, the clip's audio had failed meanwhile (Error). */
const refusedPublish = () => refused('clip.publish', { clipId: CLIP }, publishRequirements({ ...CLIP_ROW, State: 'Error' }));

const roots: Root[] = [];
async function render(): Promise<HTMLElement> {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  roots.push(root);
  await act(async () => root.render(<PublishPanel clip={clip} />));
  await act(() => new Promise((r) => setTimeout(r, 80)));
  return el;
}

const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === name)!;
const describedBy = (el: HTMLElement, control: Element) => el.querySelector(`#${CSS.escape(control.getAttribute('aria-describedby') ?? 'none')}`)?.textContent ?? null;

beforeEach(async () => {
  // The reference time zones cannot be fetched here: the panel offers the device's zone alone.
  globalThis.fetch = () => Promise.reject(new TypeError('offline'));
  await Promise.all([db.clips.clear(), db.needsAttention.clear(), db.outbox.clear()]);
  await db.clips.put(CLIP_ROW);
});
afterEach(() => {
  act(() => roots.splice(0).forEach((r) => r.unmount()));
  document.body.innerHTML = '';
});

describe('a refused publish is said beside the Publish button', () => {
  it('with the server\'s reason and the field it named, as an alert the button is described by', async () => {
    await db.needsAttention.put(refusedPublish());
    const el = await render();
    const text = describedBy(el, button(el, 'Publish'));
    expect(text).toContain('The server refused to publish this clip:');
    expect(text).toContain('State: This value is not valid');
    expect(el.querySelector('[role="alert"]')!.textContent).toBe(text);
  });

  it('publishing again queues clip.publish and answers the refusal', async () => {
    await db.needsAttention.put(refusedPublish());
    const el = await render();
    await act(async () => button(el, 'Publish').click());
    await act(() => new Promise((r) => setTimeout(r, 80)));
    expect((await db.outbox.toArray()).map((e) => e.name)).toEqual(['clip.publish']);
    expect(await db.needsAttention.count()).toBe(0);
    expect(el.textContent).not.toContain('The server refused');
  });

  it('Discard this change forgets the refusal; no refusal, no words', async () => {
    await db.needsAttention.put(refusedPublish());
    const el = await render();
    await act(async () => button(el, 'Discard this change').click());
    await act(() => new Promise((r) => setTimeout(r, 80)));
    expect(await db.needsAttention.count()).toBe(0);
    expect(button(el, 'Publish').getAttribute('aria-describedby')).toBeNull();
    expect(el.querySelector('[role="alert"]')).toBeNull();
  });
});

describe('a refused schedule is said at its field', () => {
  it('the time the server named as missing says so under "Date and time"; the other refusals of the clip stay', async () => {
    const change = { ScheduledVisibility: 'Public', VisibleAtUtc: null };
    await db.needsAttention.bulkPut([
      refused('clip.update', { clipId: CLIP, fields: change }, clipFieldErrors(clip, change, { isNew: false }), 1),
      // A refused title: the clip form's, not the schedule's.
      refused('clip.update', { clipId: CLIP, fields: { Title: '' } }, clipFieldErrors(clip, { Title: '' }, { isNew: false }), 2),
    ]);
    const el = await render();
    const at = el.querySelector('input[type="datetime-local"]')!;
    expect(at.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(el, at)).toBe('The server refused this schedule: This field is required');
    expect(el.textContent).not.toContain('Title');
  });
});
