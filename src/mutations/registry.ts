// Every named mutation, by name: what a queued edit or a push may name. The server has a run for
// each (sync-server/mutations/registry.ts checks it at start-up).
import * as adMarkers from './ad-markers.ts';
import * as content from './content.ts';
import * as directories from './directories.ts';
import * as loudness from './loudness.ts';
import * as playlists from './playlists.ts';
import * as publishing from './publishing.ts';
import * as programSettings from './program-settings.ts';
import * as settings from './settings.ts';
import * as transcripts from './transcripts.ts';
import type { MutationDef } from './define.ts';

export const MUTATIONS = [
  content.networkCreate,
  content.networkUpdate,
  content.networkDelete,
  content.programCreate,
  content.programUpdate,
  content.programDelete,
  settings.programSetNormalization,
  settings.organizationSetNormalization,
  settings.organizationSetMeasurementPrefixes,
  settings.programSetRecordingSettings,
  settings.organizationSetApplePremium,
  settings.networkSetApplePremium,
  settings.programSetApplePremium,
  programSettings.programSetSettings,
  programSettings.organizationSetProgramDefaults,
  content.playlistCreate,
  content.playlistUpdate,
  content.playlistSetClips,
  content.playlistDelete,
  playlists.playlistSetAutoAdd,
  directories.playlistSetDirectories,
  content.clipCreate,
  content.clipUpdate,
  content.clipDelete,
  content.clipSaveCut,
  adMarkers.clipSetAdMarkers,
  adMarkers.programSetAdMarkerRules,
  adMarkers.clipOverrideAdMarkerRules,
  content.clipSetAudioFromUrl,
  loudness.clipNormalizeLoudness,
  transcripts.clipSetTranscript,
  transcripts.recordingSetTranscript,
  content.recordingUpdate,
  content.recordingDelete,
  content.annotationAdd,
  content.annotationDelete,
  publishing.clipPublish,
  publishing.clipUnpublish,
] as const;

export type MutationName = (typeof MUTATIONS)[number]['name'];

const BY_NAME: ReadonlyMap<string, MutationDef> = new Map(MUTATIONS.map((m) => [m.name, m as unknown as MutationDef]));

/** The definition a queued mutation names; undefined for a name this release does not know. */
export function mutationDef(name: string): MutationDef | undefined {
  return BY_NAME.get(name);
}

/** The fields an update sets (what a screen shows as "yours"); {} for other kinds and unknown names. */
export function mutationFields(m: { name: string; args: Record<string, unknown> }): Record<string, unknown> {
  const def = mutationDef(m.name);
  return def ? def.fields(m.args) : {};
}

/** What kind of change a queued mutation is (undefined for a name this release does not know). */
export function mutationKind(m: { name: string }): MutationDef['kind'] | undefined {
  return mutationDef(m.name)?.kind;
}
