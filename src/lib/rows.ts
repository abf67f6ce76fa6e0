// Typed views of the local rows (the wire entities of src/protocol/entities.ts).
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type LocalRow, type SyncStatus } from '../db/db.ts';
import type { Annotation, Clip, Network, Playlist, Program, Recording } from '../protocol/entities.ts';

export const asProgram = (r: LocalRow) => r as unknown as Program;
export const asClip = (r: LocalRow) => r as unknown as Clip;
export const asPlaylist = (r: LocalRow) => r as unknown as Playlist;
export const asRecording = (r: LocalRow) => r as unknown as Recording;
export const asAnnotation = (r: LocalRow) => r as unknown as Annotation;
export const live = <T extends { Deleted: boolean }>(rows: T[]) => rows.filter((r) => !r.Deleted);

type SyncedTable = 'organizations' | 'programs' | 'playlists' | 'clips' | 'recordings' | 'networks';

/** Whether the local store has synced at least once: only then does a row's absence mean it is gone. */
export async function hasSynced(): Promise<boolean> {
  const status = await db.syncState.get('status');
  return status?.key === 'status' && (status.value as SyncStatus).lastSyncedAt !== null;
}

/**
 * One local row by id. `missing` only once the local store has synced at least once (before the
 * first pull an empty store says nothing about the server), otherwise `loading`.
 */
export function useRow(table: SyncedTable, id: string): { state: 'loading' } | { state: 'missing' } | { state: 'ok'; row: LocalRow } {
  const result = useLiveQuery(async () => {
    const row = await db[table].get(id);
    return { row: row && !row['Deleted'] ? row : undefined, synced: await hasSynced() };
  }, [table, id]);
  if (!result) return { state: 'loading' };
  if (result.row) return { state: 'ok', row: result.row };
  return result.synced ? { state: 'missing' } : { state: 'loading' };
}

/** Rows of the organization: a row made on this device has no OrganizationId until the server's
 * copy arrives, and the device keeps one organization at a time (OrganizationScope), so such a
 * row is of the organization shown. */
const ofOrganization = (organizationId: string) => (r: LocalRow) => (r['OrganizationId'] ?? organizationId) === organizationId;

/** The organization's programs (not deleted), by name; undefined while loading. */
export function usePrograms(organizationId: string): Program[] | undefined {
  return useLiveQuery(
    async () => live((await db.programs.filter(ofOrganization(organizationId)).toArray()).map(asProgram)).sort((a, b) => a.Name.localeCompare(b.Name)),
    [organizationId],
  );
}

/** The organization's networks (not deleted), by name; undefined while loading. */
export function useNetworks(organizationId: string): Network[] | undefined {
  return useLiveQuery(
    async () => live((await db.networks.filter(ofOrganization(organizationId)).toArray()).map((r) => r as unknown as Network)).sort((a, b) => a.Name.localeCompare(b.Name)),
    [organizationId],
  );
}
