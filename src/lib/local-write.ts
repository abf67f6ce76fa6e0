// When a local write fails. Every edit is first a write to this device's IndexedDB (db/writes.ts),
// so offline there is no server to blame: the write fails because the device's storage is full
// (db/storage-errors.ts), because the row has left this device (deleted by a pull, or access
// lost), or because IndexedDB itself failed (closed by an upgrade in another tab, a browser
// fault). The user is told which, in a danger toast, and the screen keeps what they typed so
// they can try again.
import { errorNames, isStorageFull } from '../db/storage-errors.ts';
import { showToast } from './toast.ts';
import { m } from '../paraglide/messages.js';

export type LocalWriteFailure = 'storageFull' | 'gone' | 'storage';

const GONE = ['LocalRowNotFoundError', 'ConflictNotFoundError', 'NeedsAttentionNotFoundError'];

export function localWriteFailure(error: unknown): LocalWriteFailure {
  if (isStorageFull(error)) return 'storageFull';
  // By name (this module stays free of the database's code): db/writes.ts LocalRowNotFoundError,
  // db/conflicts.ts ConflictNotFoundError and NeedsAttentionNotFoundError (resolved elsewhere).
  if (errorNames(error).some((name) => GONE.includes(name))) return 'gone';
  return 'storage';
}

/** Why the change was not saved, and what the user can do, in the interface language. */
export function localWriteFailureText(error: unknown): string {
  switch (localWriteFailure(error)) {
    case 'storageFull':
      return m.app_local_write_storage_full();
    case 'gone':
      return m.app_local_write_gone();
    case 'storage':
      return m.app_local_write_error();
  }
}

/** Shows a failed local write: `title` says what was not done, the description why. */
export function reportLocalWriteFailure(error: unknown, title: string = m.app_local_write_failed()): void {
  // Kept in the console too: support asks for it when the cause is the browser's.
  console.warn('A local write failed', error);
  showToast({ type: 'danger', title, description: localWriteFailureText(error) });
}

/** Awaits a local write: true when it was saved; on failure the user is told why (a danger toast,
 * `title` saying what was not done) and it resolves false, never rejects. */
export async function savedLocally(work: Promise<unknown>, title?: string): Promise<boolean> {
  try {
    await work;
    return true;
  } catch (error) {
    reportLocalWriteFailure(error, title);
    return false;
  }
}
