// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalDb, type CastawayDb } from '../db/db.ts';
import { createWrites } from '../db/writes.ts';
import { ConflictNotFoundError, NeedsAttentionNotFoundError } from '../db/conflicts.ts';
import { refuseWritesWhileFull } from '../db/full-disk.testing.ts';
import { Toaster } from '../ui/Toaster.tsx';
import { localWriteFailure, savedLocally } from './local-write.ts';
import { dismissToast, showToast } from './toast.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const opened: CastawayDb[] = [];
afterEach(async () => {
  for (const d of opened.splice(0)) await d.delete();
  document.body.innerHTML = '';
  // Clears the toasts of the test: ids count up from 1.
  act(() => {
    const last = showToast({ type: 'info', title: '' });
    for (let id = 1; id <= last; id++) dismissToast(id);
  });
});

/** A local store whose outbox refuses writes while `full.now`, as a browser over its quota does. */
function storeWithFullDisk(name: string) {
  const d = openLocalDb(name);
  opened.push(d);
  return { d, ...refuseWritesWhileFull(d, ['outbox']) };
}

function toasts(): Array<{ title: string; description: string }> {
  return [...document.querySelectorAll('.toast')].map((t) => ({
    title: t.querySelector('.toast-title')?.textContent ?? '',
    description: t.querySelector('.toast-description')?.textContent ?? '',
  }));
}

function renderToaster() {
  const el = document.createElement('div');
  document.body.append(el);
  act(() => createRoot(el).render(<Toaster />));
}

const C1 = '00000000-0000-4000-8000-0000000000c1';
const CLIP = { Id: C1, OrganizationId: 'o1', ProgramId: 'p1', Title: 'Before', ModifiedAtUtc: '2025-01-01T00:00:00.000Z', Version: 1 };

describe('a local write that fails', () => {
  it('storage full: the user reads why and what to do, nothing is half-written, and the same edit saves once there is room', async () => {
    renderToaster();
    const { d, full } = storeWithFullDisk('castaway-local-write-full');
    await d.clips.put(CLIP as never);
    const writes = createWrites(d);
    full.now = true;
    let saved = true;
    await act(async () => {
      saved = await savedLocally(writes.updateClip(C1, { Title: 'After' }));
    });
    expect(saved).toBe(false);
    expect(toasts()).toEqual([{ title: 'Your change was not saved', description: 'The storage on this device is full. Free up some space, then try again.' }]);
    // One transaction: the row was not changed without its mutation.
    expect((await d.clips.get(C1))?.['Title']).toBe('Before');
    expect(await d.outbox.count()).toBe(0);

    full.now = false;
    expect(await savedLocally(writes.updateClip(C1, { Title: 'After' }))).toBe(true);
    expect(toasts()).toHaveLength(1); // no second toast for the write that saved
    expect((await d.clips.get(C1))?.['Title']).toBe('After');
    expect(await d.outbox.count()).toBe(1);
  });

  it('a row no longer on this device, and a store that cannot be written, each say so; the title names what was not done', async () => {
    renderToaster();
    const d = openLocalDb('castaway-local-write-gone');
    opened.push(d);
    const writes = createWrites(d);
    await act(async () => {
      await savedLocally(writes.deleteClip('00000000-0000-4000-8000-00000000dead'), 'The clip was not deleted');
    });
    await d.clips.put(CLIP as never);
    d.close();
    await act(async () => {
      await savedLocally(writes.updateClip(C1, { Title: 'After' }));
    });
    expect(toasts()).toEqual([
      { title: 'The clip was not deleted', description: 'This item is no longer on this device: it was deleted, or you no longer have access to it.' },
      { title: 'Your change was not saved', description: 'The storage on this device could not be written. Try again, or reload the page if it keeps happening.' },
    ]);
  });

  it('finds the quota error inside the errors Dexie reports (an aborted commit, a bulk write), and knows what was resolved elsewhere', () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    expect(localWriteFailure(new Dexie.AbortError('Transaction aborted', quota))).toBe('storageFull');
    expect(localWriteFailure(new Dexie.AbortError('Transaction aborted'))).toBe('storage');
    expect(localWriteFailure(new Error('x', { cause: quota }))).toBe('storageFull');
    // A bulk write whose requests each failed keeps the browser's errors in `failures`.
    expect(localWriteFailure(new Dexie.BulkError('1 of 1 operations failed', [quota]))).toBe('storageFull');
    expect(localWriteFailure(new ConflictNotFoundError('c1'))).toBe('gone');
    expect(localWriteFailure(new NeedsAttentionNotFoundError('a1'))).toBe('gone');
    expect(localWriteFailure('not an error')).toBe('storage');
  });
});
