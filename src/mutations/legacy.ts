// Protocol version 1 queued API calls ({ method, path, body }) as named mutations. The only place
// that reads a mutation's meaning from a URL, and only to carry over what the earlier release
// queued: a device's outbox, conflicts and needs-attention items when its database is upgraded
// (src/db/db.ts), and the pushes of a device still running that release (sync-server/sync).
// Every call that release could queue (its src/db/writes.ts) has its pattern below.
import type { LegacyMutation, Mutation } from '../protocol/sync.ts';
import type { MutationName } from './registry.ts';

type Conversion = { name: MutationName; args: Record<string, unknown> };

const ID = '([0-9A-Fa-f-]{36})';
const body = (m: LegacyMutation) => m.body ?? {};
const withoutId = (b: Record<string, unknown>) => {
  const { Id: _id, ...rest } = b;
  return rest;
};

const PATTERNS: Array<{ method: LegacyMutation['method']; path: RegExp; convert: (ids: string[], m: LegacyMutation) => Conversion }> = [
  { method: 'POST', path: /^\/v1\/networks$/, convert: (_, m) => ({ name: 'network.create', args: { networkId: m.entityId, fields: withoutId(body(m)) } }) },
  { method: 'PATCH', path: new RegExp(`^/v1/networks/${ID}$`), convert: ([id], m) => ({ name: 'network.update', args: { networkId: id, fields: body(m) } }) },
  { method: 'DELETE', path: new RegExp(`^/v1/networks/${ID}$`), convert: ([id]) => ({ name: 'network.delete', args: { networkId: id } }) },
  { method: 'POST', path: /^\/v1\/programs$/, convert: (_, m) => ({ name: 'program.create', args: { programId: m.entityId, fields: withoutId(body(m)) } }) },
  { method: 'PATCH', path: new RegExp(`^/v1/programs/${ID}$`), convert: ([id], m) => ({ name: 'program.update', args: { programId: id, fields: body(m) } }) },
  { method: 'DELETE', path: new RegExp(`^/v1/programs/${ID}$`), convert: ([id]) => ({ name: 'program.delete', args: { programId: id } }) },
  {
    method: 'POST',
    path: new RegExp(`^/v1/programs/${ID}/playlists$`),
    convert: ([programId], m) => ({ name: 'playlist.create', args: { programId, playlistId: m.entityId, fields: withoutId(body(m)) } }),
  },
  { method: 'PATCH', path: new RegExp(`^/v1/playlists/${ID}$`), convert: ([id], m) => ({ name: 'playlist.update', args: { playlistId: id, fields: body(m) } }) },
  {
    method: 'PATCH',
    path: new RegExp(`^/v1/playlists/${ID}/clips$`),
    convert: ([id], m) => ({ name: 'playlist.setClips', args: { playlistId: id, ClipIds: body(m)['ClipIds'] } }),
  },
  { method: 'DELETE', path: new RegExp(`^/v1/playlists/${ID}$`), convert: ([id]) => ({ name: 'playlist.delete', args: { playlistId: id } }) },
  {
    method: 'POST',
    path: new RegExp(`^/v1/programs/${ID}/clips$`),
    convert: ([programId], m) => ({ name: 'clip.create', args: { programId, clipId: m.entityId, fields: withoutId(body(m)) } }),
  },
  { method: 'PATCH', path: new RegExp(`^/v1/clips/${ID}$`), convert: ([id], m) => ({ name: 'clip.update', args: { clipId: id, fields: body(m) } }) },
  { method: 'DELETE', path: new RegExp(`^/v1/clips/${ID}$`), convert: ([id]) => ({ name: 'clip.delete', args: { clipId: id } }) },
  { method: 'PUT', path: new RegExp(`^/internal/clips/${ID}/cut$`), convert: ([id], m) => ({ name: 'clip.saveCut', args: { clipId: id, cut: body(m) } }) },
  { method: 'PUT', path: new RegExp(`^/v1/clips/${ID}/audio$`), convert: ([id], m) => ({ name: 'clip.setAudioFromUrl', args: { clipId: id, ...body(m) } }) },
  { method: 'PATCH', path: new RegExp(`^/v1/recordings/${ID}$`), convert: ([id], m) => ({ name: 'recording.update', args: { recordingId: id, fields: body(m) } }) },
  { method: 'DELETE', path: new RegExp(`^/v1/recordings/${ID}$`), convert: ([id]) => ({ name: 'recording.delete', args: { recordingId: id } }) },
  {
    method: 'POST',
    path: new RegExp(`^/v1/recordings/${ID}/annotations$`),
    convert: ([recordingId], m) => ({ name: 'annotation.add', args: { recordingId, annotationId: m.entityId, fields: withoutId(body(m)) } }),
  },
  {
    method: 'DELETE',
    path: new RegExp(`^/v1/recordings/${ID}/annotations/${ID}$`),
    convert: ([recordingId, annotationId]) => ({ name: 'annotation.delete', args: { recordingId, annotationId } }),
  },
];

/** The named mutation an earlier release's queued call was; null for a call no release queued. */
export function fromLegacy(m: LegacyMutation): Mutation | null {
  for (const p of PATTERNS) {
    if (p.method !== m.method) continue;
    const match = p.path.exec(m.path);
    if (!match) continue;
    const { name, args } = p.convert(match.slice(1).map((id) => id!.toLowerCase()), m);
    return { id: m.id, name, args, base: m.baseModifiedAtUtc, createdAt: m.createdAt };
  }
  return null;
}
