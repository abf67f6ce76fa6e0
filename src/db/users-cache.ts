// Names of the people who change rows (CreatedById / ModifiedById), kept on the device so the
// conflict screen can say who changed a row even offline. Its own small database: the synced
// store (db.ts) is rebuilt from pulls, these names come from GET /v1/user-profiles.
//
// And the organization's users with their permissions as GET /v1/users last listed them (the
// users screen, for a member with manage-user access), so the list stays readable offline.
// Memberships are not synced rows; this is a copy with the time it was taken, replaced whole at
// each successful listing and cleared with the rest at sign-out (reset.ts).
import { Dexie, type EntityTable } from 'dexie';
import type { OrganizationUser } from '../protocol/entities.ts';

export type UserProfile = { Id: string; Name: string; FirstName: string; ImageUrl: string | null; fetchedAt: number };

export type UserList = { organizationId: string; fetchedAt: number; users: OrganizationUser[] };

type UsersDb = Dexie & { profiles: EntityTable<UserProfile, 'Id'>; userLists: EntityTable<UserList, 'organizationId'> };

export const USERS_DB_NAME = 'castaway-users';

function openUsersDb(): UsersDb {
  const d = new Dexie(USERS_DB_NAME) as UsersDb;
  d.version(1).stores({ profiles: 'Id' });
  d.version(2).stores({ profiles: 'Id', userLists: 'organizationId' });
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

export async function putUserList(organizationId: string, users: OrganizationUser[], now = Date.now()): Promise<void> {
  await usersDb.userLists.put({ organizationId, fetchedAt: now, users });
}

/** The organization's users as last listed on this device, or undefined. */
export async function getUserList(organizationId: string): Promise<UserList | undefined> {
  return usersDb.userLists.get(organizationId);
}
