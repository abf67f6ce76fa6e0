// A recording's transcript on the recording screen (issue 34): the shared transcript editor
// (src/ui/transcript/TranscriptEditor.tsx) on the recording's transcript, edited offline as the
// named mutation recording.setTranscript, transcribed automatically on the server (its
// TranscriptStatus shown as it moves). Never published: a recording has no listeners. While the
// recording is still being captured its audio is a live stream, which cannot be sought: no player.
import type { Recording } from '../../protocol/entities.ts';
import { isLiveAudioUrl } from '../../protocol/api/live-recordings.ts';
import { RECORDING_TRANSCRIPT } from '../../ui/transcript/owners.ts';
import { TranscriptEditor } from '../../ui/transcript/TranscriptEditor.tsx';

export function RecordingTranscript({ recording }: { recording: Recording }) {
  const url = recording.Urls.AudioUrl;
  const audioUrl = url && recording.State !== 'Live' && !isLiveAudioUrl(url) ? url : null;
  return <TranscriptEditor owner={RECORDING_TRANSCRIPT} id={recording.Id} fileName={recording.Title?.trim() || recording.Id} audioUrl={audioUrl} />;
}
