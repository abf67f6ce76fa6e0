// The wire entities as named components of the OpenAPI document (registered once: zod's global
// registry refuses an id twice).
import {
  AnnotationCreateSchema,
  AnnotationSchema,
  ClipCreateSchema,
  ClipPatchSchema,
  ClipSchema,
  NetworkCreateSchema,
  NetworkPatchSchema,
  NetworkSchema,
  OrganizationUserSchema,
  PermissionEntriesSchema,
  PermissionEntrySchema,
  PlaylistClipsPatchSchema,
  PlaylistCreateSchema,
  PlaylistPatchSchema,
  PlaylistSchema,
  ProgramCreateSchema,
  ProgramPatchSchema,
  ProgramSchema,
  RecordingPatchSchema,
  RecordingSchema,
} from '../entities.ts';

export const Clip = ClipSchema.meta({ id: 'Clip' });
export const ClipCreate = ClipCreateSchema.meta({ id: 'ClipCreate' });
export const ClipPatch = ClipPatchSchema.meta({ id: 'ClipPatch' });
export const Program = ProgramSchema.meta({ id: 'Program' });
export const ProgramCreate = ProgramCreateSchema.meta({ id: 'ProgramCreate' });
export const ProgramPatch = ProgramPatchSchema.meta({ id: 'ProgramPatch' });
export const Network = NetworkSchema.meta({ id: 'Network' });
export const NetworkCreate = NetworkCreateSchema.meta({ id: 'NetworkCreate' });
export const NetworkPatch = NetworkPatchSchema.meta({ id: 'NetworkPatch' });
export const Playlist = PlaylistSchema.meta({ id: 'Playlist' });
export const PlaylistCreate = PlaylistCreateSchema.meta({ id: 'PlaylistCreate' });
export const PlaylistPatch = PlaylistPatchSchema.meta({ id: 'PlaylistPatch' });
export const PlaylistClips = PlaylistClipsPatchSchema.meta({ id: 'PlaylistClips' });
export const Recording = RecordingSchema.meta({ id: 'Recording' });
export const RecordingPatch = RecordingPatchSchema.meta({ id: 'RecordingPatch' });
export const Annotation = AnnotationSchema.meta({ id: 'Annotation' });
export const AnnotationCreate = AnnotationCreateSchema.meta({ id: 'AnnotationCreate' });
export const OrganizationUser = OrganizationUserSchema.meta({ id: 'OrganizationUser' });
export const PermissionEntry = PermissionEntrySchema.meta({ id: 'PermissionEntry' });
export const PermissionEntries = PermissionEntriesSchema.meta({ id: 'PermissionEntries' });
