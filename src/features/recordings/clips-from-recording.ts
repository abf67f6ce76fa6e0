// The clips made from a recording, from the local store so the list shows a clip made offline at
// once: clips whose RecordingMetadata.RecordingId names the recording (the server sets it when it
// copies the recording's audio into the clip), and clips whose audio from the recording is still
// waiting in the outbox (clip.setAudioFromUrl with the recording's audioUrl).
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type CastawayDb } from '../../db/db.ts';
import { asClip, live } from '../../lib/rows.ts';
import type { Clip, Recording } from '../../protocol/entities.ts';
import { clipSetAudioFromUrl } from '../../mutations/content.ts';

export type ClipFromRecording = { clip: Clip; waitingToSync: boolean };

export async function clipsFromRecording(d: CastawayDb, recording: Pick<Recording, 'Id' | 'ProgramId' | 'Urls'>): Promise<ClipFromRecording[]> {
  const audioUrl = recording.Urls.AudioUrl;
  const queued = audioUrl
    ? await d.outbox.filter((e) => e.name === clipSetAudioFromUrl.name && e.args['audioUrl'] === audioUrl).toArray()
    : [];
  const waiting = new Set(queued.map((e) => e.entityId));
  const clips = live((await d.clips.where('ProgramId').equals(recording.ProgramId).toArray()).map(asClip));
  return clips
    .filter((c) => waiting.has(c.Id) || c.RecordingMetadata?.['RecordingId'] === recording.Id)
    .sort((a, b) => b.CreatedAtUtc.localeCompare(a.CreatedAtUtc))
    .map((clip) => ({ clip, waitingToSync: waiting.has(clip.Id) }));
}

export function useClipsFromRecording(recording: Recording): ClipFromRecording[] | undefined {
  return useLiveQuery(() => clipsFromRecording(db, recording), [recording.Id, recording.ProgramId, recording.Urls.AudioUrl]);
}
