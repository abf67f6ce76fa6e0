// A recording's transcript on the recording screen (issue 34): the shared transcript editor
// (src/ui/transcript/TranscriptEditor.tsx) on the recording's transcript, edited offline as the
// named mutation recording.setTranscript, transcribed automatically on the server (its
// TranscriptStatus shown as it moves). Never published: a recording has no listeners. While the
// recording is still being captured its audio is a live stream, which cannot be sought: no player.
// One with no audio to transcribe (still live, processing, cut off with nothing kept, 0 s, none) is
// not offered "Transcribe automatically": the section says why.
import { formatFormError } from '../../domain/messages.ts';
import { NO_AUDIO_MESSAGE, recordingNoAudio } from '../../domain/transcription.ts';
import type { Recording } from '../../protocol/entities.ts';
import { isLiveAudioUrl } from '../../protocol/api/live-recordings.ts';
import { RECORDING_TRANSCRIPT } from '../../ui/transcript/owners.ts';
import { TranscriptEditor } from '../../ui/transcript/TranscriptEditor.tsx';

export function RecordingTranscript({ recording }: { recording: Recording }) {
  const url = recording.Urls.AudioUrl;
  const audioUrl = url && recording.State !== 'Live' && !isLiveAudioUrl(url) ? url : null;
  // A recording with no audio to transcribe is not offered it: why is said instead (the server refuses it too).
  const noAudio = recordingNoAudio(recording);
  const unavailable = noAudio ? formatFormError({ type: 'invalid', message: NO_AUDIO_MESSAGE[noAudio] }) : null;
  return <TranscriptEditor owner={RECORDING_TRANSCRIPT} id={recording.Id} fileName={recording.Title?.trim() || recording.Id} audioUrl={audioUrl} transcriptionUnavailable={unavailable} />;
}
