// A clip's transcript on the clip screen (issue 34): the shared transcript editor
// (src/ui/transcript/TranscriptEditor.tsx) on the clip's transcript, edited offline as the named
// mutation clip.setTranscript, published with the clip in its feed items.
import { CLIP_TRANSCRIPT } from '../../ui/transcript/owners.ts';
import { TranscriptEditor } from '../../ui/transcript/TranscriptEditor.tsx';

/** audioUrl: the clip's audio as listeners hear it (its published version), which begins with the
 *  program's intro when it has one: audioOffsetSeconds, the intro's length (the row's
 *  PublishedIntroSeconds), puts the cues' times on it. Each cue plays from its start in the
 *  section's player. */
export function ClipTranscript({ clipId, fileName, audioUrl = null, audioOffsetSeconds = 0 }: { clipId: string; fileName: string; audioUrl?: string | null; audioOffsetSeconds?: number }) {
  return <TranscriptEditor owner={CLIP_TRANSCRIPT} id={clipId} fileName={fileName} audioUrl={audioUrl} audioOffsetSeconds={audioOffsetSeconds} />;
}
