// Who made the change a conflicting field is against: the names behind each field's author,
// fetched from GET /v1/user-profiles while online (conflicts are found while online) and kept on
// the device (src/db/users-cache.ts), so the conflict screen names them offline too.
import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type ConflictEntry } from '../../db/db.ts';
import { fieldAuthor } from '../../lib/conflict-origin.ts';
import { missingProfileIds, putProfiles, usersDb } from '../../db/users-cache.ts';
import { call } from '../../lib/api.ts';
import { listUserProfiles } from '../../lib/shell-routes.ts';

// The wording's decisions live in src/lib (the clip screen needs them too); re-exported for the
// conflict screen and its tests.
export { conflictOrigin, fieldAuthor, isOwnChange } from '../../lib/conflict-origin.ts';

type Profile = { Id: string; Name: string; FirstName: string; ImageUrl: string | null };

/** GET /v1/user-profiles?userIds=…: `{ Items: [{ Id, Name, FirstName, ImageUrl }] }` of members
 * (sync-server/routes/content.ts). Checked by hand: zod would add its weight to the first screen. */
function profilesOf(body: unknown): Profile[] {
  const items = (body as { Items?: unknown } | null)?.Items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((raw: unknown) => {
    const p = raw as Record<string, unknown> | null;
    if (!p || typeof p['Id'] !== 'string' || typeof p['Name'] !== 'string') return [];
    return [{ Id: p['Id'], Name: p['Name'], FirstName: typeof p['FirstName'] === 'string' ? p['FirstName'] : '', ImageUrl: typeof p['ImageUrl'] === 'string' ? p['ImageUrl'] : null }];
  });
}

/** Ids of the people whose changes the conflicts' fields are against. */
function authorIds(conflicts: readonly ConflictEntry[]): string[] {
  const ids = conflicts.flatMap((c) => c.fields.map((f) => fieldAuthor(c, f).byId)).filter((id): id is string => id !== null);
  return [...new Set(ids)];
}

/** Keeps the names of the authors of every open conflict on the device (runs while online). */
export function usePrefetchConflictAuthors(online: boolean): void {
  const ids = useLiveQuery(async () => authorIds(await db.conflicts.toArray()).sort().join(','), []);
  useEffect(() => {
    if (!online || !ids) return;
    let cancelled = false;
    void (async () => {
      const missing = await missingProfileIds(ids.split(','));
      if (cancelled || missing.length === 0) return;
      const res = await call(listUserProfiles, { query: { userIds: missing.join(',') } });
      if (res.kind !== 'ok') return; // tried again on the next change or reconnect
      await putProfiles(profilesOf(res.data));
    })();
    return () => {
      cancelled = true;
    };
  }, [online, ids]);
}

/** The cached name of a user, null when this device does not know it (undefined while reading). */
export function useUserName(userId: string | null): string | null | undefined {
  return useLiveQuery(async () => (userId ? ((await usersDb.profiles.get(userId.toLowerCase()))?.Name ?? null) : null), [userId]);
}
