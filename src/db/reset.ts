// Log-out clears what this device holds of the user, so the next person to sign in on it sees
// nothing of theirs: every table of the local store (rows, outbox, conflicts, cursor), the cached
// user names, the waveform and image caches and this tab's session storage. The caller stops the
// sync worker first and has the server end the session; the app shell's precache stays.
import { db as defaultDb, type CastawayDb } from './db.ts';
import { clearProfiles } from './users-cache.ts';
import { WAVEFORM_CACHE_NAME } from '../../workers/audio/waveform-cache.ts';
import { IMAGE_CACHE_NAME } from '../../sw/cache-names.ts';

export const USER_CACHE_NAMES: readonly string[] = [WAVEFORM_CACHE_NAME, IMAGE_CACHE_NAME];

export async function resetLocalData(d: CastawayDb = defaultDb): Promise<void> {
  await d.transaction('rw', d.tables, async () => {
    for (const table of d.tables) await table.clear();
  });
  await clearProfiles();
  if (typeof caches !== 'undefined') await Promise.all(USER_CACHE_NAMES.map((name) => caches.delete(name)));
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
}
