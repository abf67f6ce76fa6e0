// Names of the people who change rows (CreatedById / ModifiedById), kept on the device so the
// conflict screen can say who changed a row even offline. Its own small database: the synced
// store (db.ts) is rebuilt from pulls, these names come from GET /v1/user-profiles.
import { Dexie, type EntityTable } from 'dexie';

export type UserProfile = { Id: string; Name: string; FirstName: string; ImageUrl: string | null; fetchedAt: number };

type UsersDb = Dexie & { profiles: EntityTable<UserProfile, 'Id'> };

export const USERS_DB_NAME = 'castaway-users';

function openUsersDb(): UsersDb {
  const d = new Dexie(USERS_DB_NAME) as UsersDb;
  d.version(1).stores({ profiles: 'Id' });
  return d;
}

export const usersDb: UsersDb = openUsersDb();

export async function putProfiles(profiles: ReadonlyArray<Omit<UserProfile, 'fetchedAt'>>, now = Date.now()): Promise<void> {
  await usersDb.profiles.bulkPut(profiles.map((p) => ({ ...p, Id: p.Id.toLowerCase(), fetchedAt: now })));
}

/** The ids among `ids` with no cached name. */
export async function missingProfileIds(ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await usersDb.profiles.bulkGet(unique);
  return unique.filter((_, i) => found[i] === undefined);
}
