// Log-out clears what this device holds of the user, so the next person to sign in on it sees
// nothing of theirs: every table of the local store (rows, outbox, conflicts, cursor), every other
// 'castaway…' database (cached user names, kept uploads), the waveform, audio and image caches and this
// tab's session storage. The caller stops the sync worker first and has the server end the
// session; the app shell's precache stays.
import { Dexie } from 'dexie';
import { db as defaultDb, type CastawayDb } from './db.ts';
import { AUDIO_CACHE_NAME, IMAGE_CACHE_NAME, WAVEFORM_CACHE_NAME } from '../protocol/cache-names.ts';

export const USER_CACHE_NAMES: readonly string[] = [WAVEFORM_CACHE_NAME, AUDIO_CACHE_NAME, IMAGE_CACHE_NAME];
const USER_DATABASE_PREFIX = 'castaway';

async function clearTables(d: Dexie): Promise<void> {
  await d.transaction('rw', d.tables, async () => {
    for (const table of d.tables) await table.clear();
  });
}

/** The other databases are opened by name (Dexie's dynamic mode: their tables as they are), so
 * this module needs no knowledge of their schema or owner. Tables are cleared, not deleted, so
 * open connections elsewhere in the app keep working. */
async function clearOtherDatabases(mainName: string): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return;
  const names = (await indexedDB.databases()).map((info) => info.name).filter((name): name is string => !!name && name.startsWith(USER_DATABASE_PREFIX) && name !== mainName);
  for (const name of names) {
    const other = new Dexie(name);
    try {
      await other.open();
      await clearTables(other);
    } finally {
      other.close();
    }
  }
}

export async function resetLocalData(d: CastawayDb = defaultDb): Promise<void> {
  await clearTables(d);
  await clearOtherDatabases(d.name);
  if (typeof caches !== 'undefined') await Promise.all(USER_CACHE_NAMES.map((name) => caches.delete(name)));
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
}
