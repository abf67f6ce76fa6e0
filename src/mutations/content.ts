// The content mutations of section 7 (networks, programs, playlists, clips, recordings,
// annotations): name, arguments and the device's local apply. Their server runs, with the
// permissions and rules of sections 5 and 6, are sync-server/mutations/content.ts.
//
// Arguments name their row and its parent by id and carry what changes as `fields` (a PATCH
// body as the REST API takes it), so a REST call and a queued edit are the same mutation.
import * as z from 'zod';
import { clipDefaults } from '../domain/clip-defaults.ts';
import {
  AnnotationCreateSchema,
  ClipCreateSchema,
  ClipPatchSchema,
  NetworkCreateSchema,
  NetworkPatchSchema,
  PlaylistCreateSchema,
  PlaylistPatchSchema,
  ProgramCreateSchema,
  ProgramPatchSchema,
  RecordingPatchSchema,
  Uuid,
} from '../protocol/entities.ts';
import { AudioFromUrlSchema, CutEditSchema } from '../protocol/media.ts';
import type { SyncEntity } from '../protocol/entity-kinds.ts';
import { defineMutation, type ApplyContext, type Row } from './define.ts';

const lower = (id: string) => id.toLowerCase();
const IdArg = Uuid.transform(lower);

/** A row made on the device: dated by the edit itself until the server's row arrives, so lists
 * that sort by creation or change time place it first; a clip with every field the server gives a
 * new clip, so its screen has what it reads. */
function created(entity: SyncEntity, id: string, parent: Record<string, string>, fields: Record<string, unknown>, row: Row | null, ctx: ApplyContext): Row {
  const at = new Date(ctx.createdAt).toISOString();
  const defaults = entity === 'clips' ? clipDefaults() : {};
  return { ...defaults, Deleted: false, CreatedAtUtc: at, ModifiedAtUtc: at, ...parent, ...(row ?? {}), ...fields, Id: id };
}

const patched = (row: Row | null, fields: Record<string, unknown>): Row | null => (row ? { ...row, ...fields, Id: row.Id } : null);

/** `<entity>.update`: { <idKey>, fields }. */
function update<N extends string, K extends string, P extends z.ZodType<Record<string, unknown>>>(name: N, entity: SyncEntity, idKey: K, patch: P) {
  const args = z.object({ [idKey]: IdArg, fields: patch } as { [k in K]: typeof IdArg } & { fields: P }).strict();
  type A = z.infer<typeof args>;
  return defineMutation({
    name,
    entity,
    kind: 'update',
    args,
    rowId: (a: A) => (a as Record<K, string>)[idKey],
    fields: (a: A) => (a as { fields: Record<string, unknown> }).fields,
    withFields: (a: A, fields) => ({ ...a, fields }) as A,
    apply: (row, a: A) => patched(row, (a as { fields: Record<string, unknown> }).fields),
  });
}

/** `<entity>.delete`: { <idKey> } (and the parent's id where the API path names it). */
function remove<N extends string, S extends z.ZodType>(name: N, entity: SyncEntity, args: S, rowId: (a: z.infer<S>) => string) {
  return defineMutation({ name, entity, kind: 'delete', args, rowId, apply: () => null });
}

// ── Networks ─────────────────────────────────────────────────────────────────────────────────
const NetworkFields = NetworkCreateSchema.omit({ Id: true });
export const networkCreate = defineMutation({
  name: 'network.create',
  entity: 'networks',
  kind: 'create',
  args: z.object({ networkId: IdArg, fields: NetworkFields }).strict(),
  rowId: (a) => a.networkId,
  apply: (row, a, ctx) => created('networks', a.networkId, {}, a.fields, row, ctx),
});
export const networkUpdate = update('network.update', 'networks', 'networkId', NetworkPatchSchema);
export const networkDelete = remove('network.delete', 'networks', z.object({ networkId: IdArg }).strict(), (a) => a.networkId);

// ── Programs ─────────────────────────────────────────────────────────────────────────────────
const ProgramFields = ProgramCreateSchema.omit({ Id: true });
export const programCreate = defineMutation({
  name: 'program.create',
  entity: 'programs',
  kind: 'create',
  args: z.object({ programId: IdArg, fields: ProgramFields }).strict(),
  rowId: (a) => a.programId,
  apply: (row, a, ctx) => created('programs', a.programId, {}, a.fields, row, ctx),
});
export const programUpdate = update('program.update', 'programs', 'programId', ProgramPatchSchema);
export const programDelete = remove('program.delete', 'programs', z.object({ programId: IdArg }).strict(), (a) => a.programId);

// ── Playlists ────────────────────────────────────────────────────────────────────────────────
const PlaylistFields = PlaylistCreateSchema.omit({ Id: true });
export const playlistCreate = defineMutation({
  name: 'playlist.create',
  entity: 'playlists',
  kind: 'create',
  args: z.object({ programId: IdArg, playlistId: IdArg, fields: PlaylistFields }).strict(),
  rowId: (a) => a.playlistId,
  apply: (row, a, ctx) => created('playlists', a.playlistId, { ProgramId: a.programId }, { ClipIds: [], ...a.fields }, row, ctx),
});
export const playlistUpdate = update('playlist.update', 'playlists', 'playlistId', PlaylistPatchSchema);
/** The playlist's complete membership, in feed order (PATCH /v1/playlists/{playlistId}/clips). */
export const playlistSetClips = defineMutation({
  name: 'playlist.setClips',
  entity: 'playlists',
  kind: 'update',
  args: z.object({ playlistId: IdArg, ClipIds: z.array(IdArg).max(10_000) }).strict(),
  rowId: (a) => a.playlistId,
  fields: (a) => ({ ClipIds: a.ClipIds }),
  withFields: (a, fields) => ({ ...a, ClipIds: (fields['ClipIds'] as string[] | undefined) ?? a.ClipIds }),
  apply: (row, a) => patched(row, { ClipIds: [...a.ClipIds] }),
});
export const playlistDelete = remove('playlist.delete', 'playlists', z.object({ playlistId: IdArg }).strict(), (a) => a.playlistId);

// ── Clips ────────────────────────────────────────────────────────────────────────────────────
const ClipFields = ClipCreateSchema.omit({ Id: true });
export const clipCreate = defineMutation({
  name: 'clip.create',
  entity: 'clips',
  kind: 'create',
  args: z.object({ programId: IdArg, clipId: IdArg, fields: ClipFields }).strict(),
  rowId: (a) => a.clipId,
  apply: (row, a, ctx) => created('clips', a.clipId, { ProgramId: a.programId }, a.fields, row, ctx),
});
export const clipUpdate = update('clip.update', 'clips', 'clipId', ClipPatchSchema);
export const clipDelete = remove('clip.delete', 'clips', z.object({ clipId: IdArg }).strict(), (a) => a.clipId);
/** The clip's cut (its edit list), kept beside the clip: no precondition, the last one sent wins.
 * Until it is sent the device shows it as the row's PendingCut. */
export const clipSaveCut = defineMutation({
  name: 'clip.saveCut',
  entity: 'clips',
  kind: 'action',
  args: z.object({ clipId: IdArg, cut: CutEditSchema }).strict(),
  rowId: (a) => a.clipId,
  apply: (row, a) => (row ? { ...row, PendingCut: a.cut } : null),
});
/** New audio for the clip from audio the studio already serves (a recording's or another clip's):
 * PUT /v1/clips/{clipId}/audio?audioUrl=…. The row changes only once the server has processed it. */
export const clipSetAudioFromUrl = defineMutation({
  name: 'clip.setAudioFromUrl',
  entity: 'clips',
  kind: 'action',
  args: z.object({ clipId: IdArg }).extend(AudioFromUrlSchema.shape).strict(),
  rowId: (a) => a.clipId,
  apply: (row) => row,
});

// ── Recordings and annotations ───────────────────────────────────────────────────────────────
export const recordingUpdate = update('recording.update', 'recordings', 'recordingId', RecordingPatchSchema);
export const recordingDelete = remove('recording.delete', 'recordings', z.object({ recordingId: IdArg }).strict(), (a) => a.recordingId);

const AnnotationFields = AnnotationCreateSchema.omit({ Id: true });
export const annotationAdd = defineMutation({
  name: 'annotation.add',
  entity: 'annotations',
  kind: 'create',
  args: z.object({ recordingId: IdArg, annotationId: IdArg, fields: AnnotationFields }).strict(),
  rowId: (a) => a.annotationId,
  apply: (row, a, ctx) => created('annotations', a.annotationId, { RecordingId: a.recordingId }, a.fields, row, ctx),
});
export const annotationDelete = remove(
  'annotation.delete',
  'annotations',
  z.object({ recordingId: IdArg, annotationId: IdArg }).strict(),
  (a) => a.annotationId,
);
