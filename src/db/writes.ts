// Local writes: one function per user action. Each applies the change to the local row and
// appends the mutation (the API call the screen would have made online, plus its base
// ModifiedAtUtc) to the outbox in ONE Dexie transaction, so an edit is either fully recorded or
// not at all, and survives reloads, crashes and restarts.
import { currentOrganization, db as defaultDb, type CastawayDb, type LocalRow } from './db.ts';
import { conflictsFor, pendingFor, rebased, shadowKey } from './rebase.ts';
import type { Mutation, MutationMethod, SyncEntity } from '../protocol/sync.ts';
import type { AudioFromUrl } from '../protocol/media.ts';

export class LocalRowNotFoundError extends Error {
  constructor(
    readonly entity: SyncEntity,
    readonly id: string,
  ) {
    super(`${entity} ${id} is not in the local store`);
    this.name = 'LocalRowNotFoundError';
  }
}

type Fields = Record<string, unknown>;

/** Fields a client never sends: the server owns them. */
const SERVER_OWNED = ['Id', 'ProgramId', 'RecordingId', 'PlaylistIds', 'ModifiedAtUtc', 'ModifiedById', 'CreatedAtUtc', 'CreatedById', 'OrganizationId', 'Deleted', 'Version'];

function clean(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) if (!SERVER_OWNED.includes(k) && v !== undefined) out[k] = v;
  return out;
}

/** What every outbox entry is stamped with: the organization the sync engine works for and the
 * user who owns the local store (whose edit this is). */
export async function outboxStamp(d: CastawayDb): Promise<{ organizationId?: string; userId?: string }> {
  const [organizationId, owner] = await Promise.all([currentOrganization(d), d.syncState.get('owner')]);
  return {
    ...(organizationId !== null ? { organizationId } : {}),
    ...(owner?.key === 'owner' ? { userId: owner.value.userId } : {}),
  };
}

/**
 * Queues a mutation on one row and shows it there, inside the caller's rw transaction over the
 * row's table, outbox, shadows, conflicts and syncState: an outbox entry stamped by outboxStamp,
 * and the row as rebase() makes it. The row's server copy is kept (its shadow) from its
 * first pending edit on, and the row becomes that copy with every pending edit, this one last,
 * and the user's side of its conflicts on top. `make` builds the mutation from the row as stored
 * and its base (the server copy's ModifiedAtUtc; null when the server has no copy yet); null
 * queues nothing, and the row is only shown again.
 *
 * Every read goes out at once, then every write: in Chromium each IndexedDB request waits for the
 * browser process, and the thirteen of an edit one after another took 10-17 ms of its time to
 * screen (bench:sync edit-to-visible, on this 2-core machine class).
 */
export async function enqueue(
  d: CastawayDb,
  entity: SyncEntity,
  entityId: string,
  make: (current: LocalRow | undefined, base: string | null) => Mutation | null,
): Promise<void> {
  const key = shadowKey(entity, entityId);
  const [current, shadow, pending, conflicts, stamp] = await Promise.all([
    d[entity].get(entityId),
    d.shadows.get(key),
    pendingFor(d, entity, entityId),
    conflictsFor(d, entity, entityId),
    outboxStamp(d),
  ]);
  const serverCopy = shadow ? shadow.row : (current ?? null);
  const base = serverCopy?.['ModifiedAtUtc'];
  const m = make(current, typeof base === 'string' ? base : null);
  // Nothing queued and no server copy kept: the row is the server's copy already (rebase()).
  if (!m && !shadow) return;
  const next = rebased(entity, entityId, serverCopy, m ? [...pending, m] : pending, conflicts);
  await Promise.all([
    m ? d.outbox.add({ ...m, attempts: 0, ...stamp }) : null,
    // The copy kept already is the server's: it is written only when it comes or goes.
    next.shadow ? (shadow ? null : d.shadows.put(next.shadow)) : d.shadows.delete(key),
    next.row ? d[entity].put(next.row) : d[entity].delete(entityId),
  ]);
}

export type WriteOptions = {
  /** Called once after the first local edit (the browser build asks for persistent storage). */
  onFirstEdit?: () => void;
  newId?: () => string;
  now?: () => number;
};

export function createWrites(d: CastawayDb, options: WriteOptions = {}) {
  const newId = options.newId ?? (() => crypto.randomUUID());
  const now = options.now ?? (() => Date.now());
  let firstEditSeen = false;

  async function queue(
    entity: SyncEntity,
    entityId: string,
    method: MutationMethod,
    path: string,
    body: Fields | null,
    mustExist: boolean,
  ): Promise<void> {
    await d.transaction('rw', [d[entity], d.outbox, d.shadows, d.conflicts, d.syncState], () =>
      enqueue(d, entity, entityId, (current, base) => {
        if (mustExist && !current) throw new LocalRowNotFoundError(entity, entityId);
        return {
          id: newId(),
          entity,
          entityId,
          method,
          path,
          body,
          baseModifiedAtUtc: method === 'POST' || path.startsWith('/internal/') ? null : base,
          createdAt: now(),
        };
      }),
    );
    if (!firstEditSeen) {
      firstEditSeen = true;
      options.onFirstEdit?.();
    }
  }

  async function parentOrganization(table: 'programs' | 'recordings', id: string): Promise<string | undefined> {
    const parent = await d[table].get(id);
    if (!parent) throw new LocalRowNotFoundError(table, id);
    return parent['OrganizationId'] as string | undefined;
  }

  return {
    updateClip: (clipId: string, patch: Fields) => queue('clips', clipId, 'PATCH', `/v1/clips/${clipId}`, clean(patch), true),

    /** Creates a clip with a client-made Id; it can be edited, listed and deleted before it syncs. */
    async createClip(programId: string, fields: Fields = {}): Promise<string> {
      await parentOrganization('programs', programId);
      const id = newId();
      const body = { ...clean(fields), Id: id };
      await queue('clips', id, 'POST', `/v1/programs/${programId}/clips`, body, false);
      return id;
    },

    deleteClip: (clipId: string) => queue('clips', clipId, 'DELETE', `/v1/clips/${clipId}`, null, true),

    updatePlaylist: (playlistId: string, patch: Fields) =>
      queue('playlists', playlistId, 'PATCH', `/v1/playlists/${playlistId}`, clean(patch), true),

    /** Sets the playlist's clips in this order. */
    setPlaylistClips: (playlistId: string, clipIds: string[]) =>
      queue('playlists', playlistId, 'PATCH', `/v1/playlists/${playlistId}/clips`, { ClipIds: [...clipIds] }, true),

    updateRecording: (recordingId: string, patch: Fields) =>
      queue('recordings', recordingId, 'PATCH', `/v1/recordings/${recordingId}`, clean(patch), true),

    deleteRecording: (recordingId: string) => queue('recordings', recordingId, 'DELETE', `/v1/recordings/${recordingId}`, null, true),

    async addAnnotation(recordingId: string, fields: Fields): Promise<string> {
      await parentOrganization('recordings', recordingId);
      const id = newId();
      await queue('annotations', id, 'POST', `/v1/recordings/${recordingId}/annotations`, { ...clean(fields), Id: id }, false);
      return id;
    },

    deleteAnnotation: (recordingId: string, annotationId: string) =>
      queue('annotations', annotationId, 'DELETE', `/v1/recordings/${recordingId}/annotations/${annotationId}`, null, true),

    updateProgram: (programId: string, patch: Fields) => queue('programs', programId, 'PATCH', `/v1/programs/${programId}`, clean(patch), true),

    /** Saves the clip's cut (edit list, PUT /internal/clips/{clipId}/cut). The cut has no
     * ModifiedAtUtc: the last one sent wins. Until sent, the local clip shows it as PendingCut. */
    saveClipCut: (clipId: string, edit: Fields) => queue('clips', clipId, 'PUT', `/internal/clips/${clipId}/cut`, { ...edit }, true),

    dismissProcessingProblem: (clipId: string) =>
      queue('clips', clipId, 'PATCH', `/v1/clips/${clipId}`, { AudioProcessingProblemDismissed: true }, true),
  };
}

export type Writes = ReturnType<typeof createWrites>;

/** Asks the browser to keep our storage (at the first local edit), once per page. */
function requestPersistentStorage(): void {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  if (storage?.persist) {
    storage.persist().catch(() => {
      // The browser said no or cannot tell: the data still lives in best-effort storage.
    });
  }
}

/** navigator.storage.estimate(), or null where the browser has no storage manager. */
export async function storageEstimate(): Promise<{ usage: number; quota: number; persisted: boolean } | null> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  if (!storage?.estimate) return null;
  const e = await storage.estimate();
  const persisted = storage.persisted ? await storage.persisted() : false;
  return { usage: e.usage ?? 0, quota: e.quota ?? 0, persisted };
}

const writes = createWrites(defaultDb, { onFirstEdit: requestPersistentStorage });
export const {
  updateClip,
  createClip,
  deleteClip,
  updatePlaylist,
  setPlaylistClips,
  updateRecording,
  deleteRecording,
  addAnnotation,
  deleteAnnotation,
  updateProgram,
  dismissProcessingProblem,
  saveClipCut,
} = writes;

export type { LocalRow };

/**
 * A new clip of a recording's kept regions (issue 6: "keep regions, a recording turned into a
 * clip"): created in the recording's program with `fields`, given the recording's audio
 * (`PUT /v1/clips/{clipId}/audio` with the recording's audioUrl; a queued path carries no query, so
 * the server takes the same parameter as a JSON body) and `edit` as its cut. The three mutations are
 * queued in ONE Dexie transaction, in that order: all or nothing, offline too. Until the audio
 * mutation is sent the local row also shows its body (audioUrl), as a pending cut shows PendingCut.
 */
export async function createClipFromRecording(recordingId: string, fields: Fields, edit: Fields, d: CastawayDb = defaultDb, w: Writes = writes): Promise<string> {
  return d.transaction('rw', [d.recordings, d.programs, d.clips, d.outbox, d.shadows, d.conflicts, d.syncState], async () => {
    const recording = await d.recordings.get(recordingId);
    const urls = recording?.['Urls'] as { AudioUrl?: string | null } | undefined;
    const audioUrl = urls?.AudioUrl;
    if (!recording || recording['Deleted'] || !audioUrl) throw new LocalRowNotFoundError('recordings', recordingId);
    const clipId = await w.createClip(String(recording['ProgramId']), fields);
    await enqueue(d, 'clips', clipId, () => ({
      id: crypto.randomUUID(),
      entity: 'clips',
      entityId: clipId,
      method: 'PUT',
      path: `/v1/clips/${clipId}/audio`,
      body: { audioUrl } satisfies AudioFromUrl,
      // The file has no precondition: the last one sent wins (as with an upload).
      baseModifiedAtUtc: null,
      createdAt: Date.now(),
    }));
    await w.saveClipCut(clipId, edit);
    return clipId;
  });
}
