// Local writes: one function per user action. Each applies a named mutation (src/mutations) to the
// local row and appends it to the outbox ({ id, name, args, base: the row's ModifiedAtUtc }) in ONE
// Dexie transaction, so an edit is either fully recorded or not at all, and survives reloads,
// crashes and restarts.
import { currentOrganization, db as defaultDb, type CastawayDb, type LocalRow } from './db.ts';
import { conflictsFor, pendingFor, rebased, shadowKey } from './rebase.ts';
import type { Mutation, SyncEntity } from '../protocol/sync.ts';
import type { AudioFromUrl, CutEdit } from '../protocol/media.ts';
import * as m from '../mutations/content.ts';
import { clipPublish, clipUnpublish } from '../mutations/publishing.ts';
import { clipNormalizeLoudness } from '../mutations/loudness.ts';
import { SET_TRANSCRIPT } from '../mutations/transcripts.ts';
import type { TranscriptCueWire } from '../protocol/api/transcripts.ts';
import { playlistSetAutoAdd } from '../mutations/playlists.ts';
import type { DirectorySubmissions } from '../domain/directories.ts';
import { playlistSetDirectories } from '../mutations/directories.ts';
import {
  networkSetApplePremium,
  organizationSetApplePremium,
  organizationSetMeasurementPrefixes,
  organizationSetNormalization,
  programSetApplePremium,
  programSetNormalization,
  programSetRecordingSettings,
} from '../mutations/settings.ts';
import type { ApplePremiumLevel, ApplePremiumValues } from '../domain/apple-premium.ts';
import type { NormalizationChoice } from '../domain/settings.ts';
import type { AdMarker, AdMarkerRules } from '../domain/ad-markers.ts';
import { clipOverrideAdMarkerRules, clipSetAdMarkers, programSetAdMarkerRules } from '../mutations/ad-markers.ts';
import { organizationSetProgramDefaults, programSetSettings } from '../mutations/program-settings.ts';
import type { AutoAddRule } from '../protocol/entities.ts';
import { hasPrecondition, type MutationDef } from '../mutations/define.ts';
import type { OutboxEntry } from './db.ts';
import { requestPersistentStorage } from './storage.ts';

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

/** A change the mutation's own schema refuses (a screen sent what no server would take). */
export class InvalidMutationError extends Error {
  constructor(
    readonly mutation: string,
    readonly issues: string[],
  ) {
    super(`${mutation}: ${issues.join('; ')}`);
    this.name = 'InvalidMutationError';
  }
}

/** A queued mutation: its arguments through the mutation's own schema (their normal form: ids in
 * lower case), the row it names, and its base when it has one. */
export function makeMutation<A>(def: MutationDef<string, A>, args: A, base: string | null, id: string, createdAt: number): OutboxEntry {
  const parsed = def.args.safeParse(args);
  if (!parsed.success) throw new InvalidMutationError(def.name, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return {
    id,
    name: def.name,
    args: parsed.data as Record<string, unknown>,
    base: hasPrecondition(def) ? base : null,
    createdAt,
    entity: def.entity,
    entityId: def.rowId(parsed.data),
  };
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
    m ? d.outbox.add({ ...m, entity, entityId, attempts: 0, ...stamp }) : null,
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

  /** Queues a named mutation on the row it names and shows it there, in one transaction. */
  async function queue<A>(def: MutationDef<string, A>, args: A, mustExist: boolean): Promise<void> {
    const entity = def.entity;
    const probe = makeMutation(def, args, null, newId(), now());
    await d.transaction('rw', [d[entity], d.outbox, d.shadows, d.conflicts, d.syncState], () =>
      enqueue(d, entity, probe.entityId, (current, base) => {
        if (mustExist && !current) throw new LocalRowNotFoundError(entity, probe.entityId);
        const { entity: _e, entityId: _id, ...mutation } = probe;
        return { ...mutation, base: hasPrecondition(def) ? base : null };
      }),
    );
    if (!firstEditSeen) {
      firstEditSeen = true;
      options.onFirstEdit?.();
    }
  }

  /** A transcript's edit queued: an edit saved again before the earlier one was sent replaces it,
   * on the earlier one's base (two queued edits of one transcript would refuse the second: its
   * base gone by the first). */
  async function saveTranscript(owner: keyof typeof SET_TRANSCRIPT, id: string, Cues: TranscriptCueWire[], BaseModifiedAtUtc: string | null): Promise<void> {
    const def = SET_TRANSCRIPT[owner];
    await d.transaction('rw', [d[def.entity], d.outbox, d.shadows, d.conflicts, d.syncState], async () => {
      const earlier = await d.outbox.where('entityId').equals(id).filter((e) => e.name === def.name).sortBy('seq');
      const base = earlier.length > 0 ? (earlier[0]!.args as { BaseModifiedAtUtc: string | null }).BaseModifiedAtUtc : BaseModifiedAtUtc;
      await d.outbox.bulkDelete(earlier.map((e) => e.seq!));
      if (owner === 'clip') await queue(SET_TRANSCRIPT.clip, { clipId: id, Cues, BaseModifiedAtUtc: base }, true);
      else await queue(SET_TRANSCRIPT.recording, { recordingId: id, Cues, BaseModifiedAtUtc: base }, true);
    });
  }

  async function parentOrganization(table: 'programs' | 'recordings', id: string): Promise<string | undefined> {
    const parent = await d[table].get(id);
    if (!parent) throw new LocalRowNotFoundError(table, id);
    return parent['OrganizationId'] as string | undefined;
  }

  return {
    updateClip: (clipId: string, patch: Fields) => queue(m.clipUpdate, { clipId, fields: clean(patch) }, true),

    /** Creates a clip with a client-made Id; it can be edited, listed and deleted before it syncs. */
    async createClip(programId: string, fields: Fields = {}): Promise<string> {
      await parentOrganization('programs', programId);
      const clipId = newId();
      await queue(m.clipCreate, { programId, clipId, fields: clean(fields) }, false);
      return clipId;
    },

    deleteClip: (clipId: string) => queue(m.clipDelete, { clipId }, true),

    updatePlaylist: (playlistId: string, patch: Fields) => queue(m.playlistUpdate, { playlistId, fields: clean(patch) }, true),

    /** Sets the playlist's clips in this order. */
    setPlaylistClips: (playlistId: string, clipIds: string[]) => queue(m.playlistSetClips, { playlistId, ClipIds: [...clipIds] }, true),

    /** Creates a playlist with a client-made Id (playlist.create): it can be opened, filled and
     * edited before it syncs. */
    async createPlaylist(programId: string, fields: Fields): Promise<string> {
      await parentOrganization('programs', programId);
      const playlistId = newId();
      await queue(m.playlistCreate, { programId, playlistId, fields: clean(fields) as never }, false);
      return playlistId;
    },

    deletePlaylist: (playlistId: string) => queue(m.playlistDelete, { playlistId }, true),

    /** The playlist's whole auto-add rule (playlist.setAutoAdd). */
    setPlaylistAutoAdd: (playlistId: string, rule: AutoAddRule) => queue(playlistSetAutoAdd, { playlistId, AutoAdd: rule }, true),

    /** Where the playlist's feed is listed: the whole record (playlist.setDirectories). */
    setPlaylistDirectories: (playlistId: string, record: DirectorySubmissions) => queue(playlistSetDirectories, { playlistId, Directories: { ...record } }, true),

    /** The clip's whole list of ad markers (clip.setAdMarkers). */
    setClipAdMarkers: (clipId: string, markers: readonly AdMarker[]) => queue(clipSetAdMarkers, { clipId, AdMarkers: markers.map((k) => ({ ...k })) }, true),

    /** The program's ad-marker rules; null: none (program.setAdMarkerRules). */
    setProgramAdMarkerRules: (programId: string, rules: AdMarkerRules | null) => queue(programSetAdMarkerRules, { programId, AdMarkerRules: rules === null ? null : { ...rules } }, true),

    /** The clip's own ad-marker rules in place of its program's; null: its program's again (clip.overrideAdMarkerRules). */
    overrideClipAdMarkerRules: (clipId: string, rules: AdMarkerRules | null) => queue(clipOverrideAdMarkerRules, { clipId, Rules: rules === null ? null : { ...rules } }, true),

    updateRecording: (recordingId: string, patch: Fields) => queue(m.recordingUpdate, { recordingId, fields: clean(patch) }, true),

    deleteRecording: (recordingId: string) => queue(m.recordingDelete, { recordingId }, true),

    async addAnnotation(recordingId: string, fields: Fields): Promise<string> {
      await parentOrganization('recordings', recordingId);
      const annotationId = newId();
      await queue(m.annotationAdd, { recordingId, annotationId, fields: clean(fields) as never }, false);
      return annotationId;
    },

    deleteAnnotation: (recordingId: string, annotationId: string) => queue(m.annotationDelete, { recordingId, annotationId }, true),

    updateProgram: (programId: string, patch: Fields) => queue(m.programUpdate, { programId, fields: clean(patch) }, true),

    /** Creates a program with a client-made Id (program.create), offline too. */
    async createProgram(fields: Fields): Promise<string> {
      const programId = newId();
      await queue(m.programCreate, { programId, fields: clean(fields) as never }, false);
      return programId;
    },

    deleteProgram: (programId: string) => queue(m.programDelete, { programId }, true),

    /** Creates a network with a client-made Id (network.create), offline too. */
    async createNetwork(fields: Fields): Promise<string> {
      const networkId = newId();
      await queue(m.networkCreate, { networkId, fields: clean(fields) as never }, false);
      return networkId;
    },

    updateNetwork: (networkId: string, patch: Fields) => queue(m.networkUpdate, { networkId, fields: clean(patch) }, true),

    deleteNetwork: (networkId: string) => queue(m.networkDelete, { networkId }, true),

    /** The organization's loudness normalization (organization.setNormalization). */
    setOrganizationNormalization: (organizationId: string, choice: NormalizationChoice) => queue(organizationSetNormalization, { organizationId, Normalization: choice }, true),

    /** The organization's measurement URL prefixes, in order; []: none (organization.setMeasurementPrefixes). */
    setOrganizationMeasurementPrefixes: (organizationId: string, prefixes: readonly string[]) =>
      queue(organizationSetMeasurementPrefixes, { organizationId, MeasurementPrefixes: [...prefixes] }, true),

    /** The program's own normalization; null: inherit the organization's again (program.setNormalization). */
    setProgramNormalization: (programId: string, choice: NormalizationChoice | null) => queue(programSetNormalization, { programId, Normalization: choice }, true),

    /** One level's Apple Podcasts Subscriptions settings; null: none set there, every field
     * inherited ({organization,network,program}.setApplePremium). */
    setApplePremium: (level: ApplePremiumLevel, id: string, values: ApplePremiumValues | null) =>
      level === 'Organization'
        ? queue(organizationSetApplePremium, { organizationId: id, ApplePremium: values }, true)
        : level === 'Network'
          ? queue(networkSetApplePremium, { networkId: id, ApplePremium: values }, true)
          : queue(programSetApplePremium, { programId: id, ApplePremium: values }, true),

    /** The program's own monetization, video-monetization or headliner-video values, whole, for
     * the settings named; null: all inherited from the organization (program.setSettings). */
    setProgramSettings: (programId: string, settings: Omit<Parameters<typeof programSetSettings.rowId>[0], 'programId'>) => queue(programSetSettings, { programId, ...settings }, true),

    /** The organization's defaults of those settings, what its programs inherit (organization.setProgramDefaults). */
    setOrganizationProgramDefaults: (organizationId: string, settings: Omit<Parameters<typeof organizationSetProgramDefaults.rowId>[0], 'organizationId'>) =>
      queue(organizationSetProgramDefaults, { organizationId, ...settings }, true),

    /** The program's recording retention in days; null: keep for ever (program.setRecordingSettings). */
    setProgramRecordingRetention: (programId: string, days: number | null) => queue(programSetRecordingSettings, { programId, DeleteRecordingsAfterDays: days }, true),

    /** Saves the clip's cut (its edit list: clip.saveCut). The cut has no ModifiedAtUtc: the last
     * one sent wins. Until sent, the local clip shows it as PendingCut. */
    saveClipCut: (clipId: string, cut: CutEdit) => queue(m.clipSaveCut, { clipId, cut }, true),

    /** New audio for the clip from audio the studio serves (clip.setAudioFromUrl). */
    setClipAudioFromUrl: (clipId: string, audio: AudioFromUrl) => queue(m.clipSetAudioFromUrl, { clipId, ...audio }, true),

    dismissProcessingProblem: (clipId: string) => queue(m.clipUpdate, { clipId, fields: { AudioProcessingProblemDismissed: true } }, true),

    /** Publish / Unpublish (clip.publish, clip.unpublish): the row shows Publishing / Unpublishing until the server's arrives. */
    publishClip: (clipId: string) => queue(clipPublish, { clipId }, true),
    unpublishClip: (clipId: string) => queue(clipUnpublish, { clipId }, true),

    /** "Normalize again to the current preset" (clip.normalizeLoudness): sent when online; the row does not change here. */
    normalizeClipLoudness: (clipId: string) => queue(clipNormalizeLoudness, { clipId }, true),

    /** The clip's transcript as edited, on the transcript it was edited from (clip.setTranscript): sent when online; the row does not change here. */
    saveClipTranscript: (clipId: string, Cues: TranscriptCueWire[], BaseModifiedAtUtc: string | null) => saveTranscript('clip', clipId, Cues, BaseModifiedAtUtc),
    /** The recording's, the same way (recording.setTranscript). */
    saveRecordingTranscript: (recordingId: string, Cues: TranscriptCueWire[], BaseModifiedAtUtc: string | null) => saveTranscript('recording', recordingId, Cues, BaseModifiedAtUtc),
  };
}

export type Writes = ReturnType<typeof createWrites>;



const writes = createWrites(defaultDb, { onFirstEdit: requestPersistentStorage });
export const {
  updateClip,
  createClip,
  deleteClip,
  updatePlaylist,
  setPlaylistClips,
  createPlaylist,
  deletePlaylist,
  setPlaylistAutoAdd,
  setPlaylistDirectories,
  updateRecording,
  deleteRecording,
  addAnnotation,
  deleteAnnotation,
  updateProgram,
  dismissProcessingProblem,
  saveClipCut,
  setClipAudioFromUrl,
  publishClip,
  unpublishClip,
  normalizeClipLoudness,
  saveClipTranscript,
  saveRecordingTranscript,
} = writes;
export const { createProgram, deleteProgram, createNetwork, updateNetwork, deleteNetwork } = writes;
export const { setOrganizationNormalization, setOrganizationMeasurementPrefixes, setProgramNormalization, setProgramRecordingRetention, setApplePremium } = writes;

export type { LocalRow };
export const { setClipAdMarkers, setProgramAdMarkerRules, overrideClipAdMarkerRules } = writes;
export const { setProgramSettings, setOrganizationProgramDefaults } = writes;

/**
 * A new clip of a recording's kept regions (issue 6: "keep regions, a recording turned into a
 * clip"): created in the recording's program with `fields` (clip.create), given the recording's
 * audio (clip.setAudioFromUrl with the recording's AudioUrl) and `edit` as its cut (clip.saveCut).
 * The three mutations are queued in ONE Dexie transaction, in that order: all or nothing, offline
 * too. Until the audio mutation is sent the clips-from-recording list finds it in the outbox.
 */
export async function createClipFromRecording(recordingId: string, fields: Fields, edit: CutEdit, d: CastawayDb = defaultDb, w: Writes = writes): Promise<string> {
  return d.transaction('rw', [d.recordings, d.programs, d.clips, d.outbox, d.shadows, d.conflicts, d.syncState], async () => {
    const recording = await d.recordings.get(recordingId);
    const urls = recording?.['Urls'] as { AudioUrl?: string | null } | undefined;
    const audioUrl = urls?.AudioUrl;
    if (!recording || recording['Deleted'] || !audioUrl) throw new LocalRowNotFoundError('recordings', recordingId);
    const clipId = await w.createClip(String(recording['ProgramId']), fields);
    await w.setClipAudioFromUrl(clipId, { audioUrl });
    await w.saveClipCut(clipId, edit);
    return clipId;
  });
}
