// The recording screen's audio: the same panel as a clip's (waveform, Play / Pause, the cut editor
// and its crossfaded preview), by the recording's State (section 4):
//   Processing          no audio yet: says so
//   Live                audio, no waveform files: the waveform is made on this device from the audio
//   Live from an agent's stream (no audio file yet): its waveform as it arrives (RecordingLive)
//   Finalized           audio and both waveform files
//   Finalized, 0 s      no audio: says so
//   HasTornAudio        the stream was cut off (its encoder, or its instance died): says what was
//                       kept, the audio that arrived or none (tornAudio)
// The cut editor's action here is to make a new clip of the kept regions in the recording's program
// (createClipFromRecording: create, the recording's audio, the cut; queued together, offline too),
// and the clips made from the recording are listed below it. The recording's annotations are
// markers on the waveform: each seeks the player to its time.
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { clipLabel, clipStateDisplay, CLIP_STATE_LABEL } from '../../domain/clip.ts';
import { domainMessage, formatFormError } from '../../domain/messages.ts';
import { tornAudio } from '../../domain/live-streams.ts';
import { normalizeRecording } from '../../domain/recording.ts';
import { formatDuration } from '../../domain/time.ts';
import { validateTitle } from '../../domain/validators.ts';
import { createClipFromRecording } from '../../db/writes.ts';
import { Link } from '../../lib/router.ts';
import { reportLocalWriteFailure } from '../../lib/local-write.ts';
import { m } from '../../paraglide/messages.js';
import type { Annotation, Recording } from '../../protocol/entities.ts';
import type { CutEdit } from '../../protocol/media.ts';
import { Field } from '../../ui/Field.tsx';
import { useClipsFromRecording } from './clips-from-recording.ts';
import { RecordingLive } from './RecordingLive.tsx';
import { isLiveAudioUrl } from '../../protocol/api/live-recordings.ts';

const ClipAudioPanel = lazy(() => import('../../ui/audio/ClipAudioPanel.tsx').then((mod) => ({ default: mod.ClipAudioPanel })));

const keptSeconds = (edit: CutEdit) => edit.KeptRegions.reduce((t, r) => t + (r.EndSeconds - r.StartSeconds), 0);

export function RecordingAudio({ recording, programHref, annotations }: { recording: Recording; programHref: string; annotations?: readonly Annotation[] | undefined }) {
  const n = normalizeRecording(recording);
  const phase = n.ok ? n.value.Phase : null;
  const audioUrl = n.ok ? n.value.Urls.AudioUrl : null;
  const torn = tornAudio(recording);
  return (
    <section className="card" aria-labelledby="recording-audio">
      <h2 id="recording-audio">{m.app_clip_audio()}</h2>
      {torn && <p className="alert alert-warning">{torn === 'lost' ? m.live_torn_lost() : m.live_torn_kept()}</p>}
      {recording.State === 'Live' && (!recording.Urls.AudioUrl || isLiveAudioUrl(recording.Urls.AudioUrl)) ? (
        // An agent's stream coming in: its waveform as it grows, and the stream to listen to.
        <RecordingLive recordingId={recording.Id} listenUrl={recording.Urls.AudioUrl} />
      ) : phase === 'processing' ? (
        <p className="muted">{m.media_recording_processing()}</p>
      ) : !audioUrl ? (
        // A torn recording with no audio says why above.
        torn !== 'lost' && <p className="muted">{m.media_recording_no_audio()}</p>
      ) : (
        <ClipMaker recording={recording} live={phase === 'live'} programHref={programHref} annotations={annotations} />
      )}
      <ClipsFromRecording recording={recording} programHref={programHref} />
    </section>
  );
}

function ClipMaker({ recording, live, programHref, annotations }: { recording: Recording; live: boolean; programHref: string; annotations: readonly Annotation[] | undefined }) {
  const markers = useMemo(() => annotations?.map((a) => ({ id: a.Id, seconds: a.OffsetSeconds, label: a.Text })), [annotations]);
  const [title, setTitle] = useState(recording.Title ?? '');
  const [titleError, setTitleError] = useState<string | null>(null);
  const [made, setMade] = useState<{ clipId: string; title: string; seconds: number } | null>(null);
  const titleInput = useRef<HTMLInputElement>(null);

  const makeClip = async (edit: CutEdit) => {
    const problem = validateTitle(title, { required: true });
    setTitleError(problem ? formatFormError(problem) : null);
    if (problem) {
      titleInput.current?.focus();
      return;
    }
    try {
      const clipId = await createClipFromRecording(recording.Id, { Title: title.trim() }, { ...edit });
      setMade({ clipId, title: title.trim(), seconds: keptSeconds(edit) });
    } catch (error) {
      reportLocalWriteFailure(error, m.media_make_clip_failed());
    }
  };

  return (
    <>
      {live && <p className="muted">{m.media_recording_live()}</p>}
      <p className="muted">{m.media_recording_make_clip_hint()}</p>
      <Field label={m.media_new_clip_title()} error={titleError}>
        <input ref={titleInput} value={title} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Suspense fallback={<p className="muted">{m.app_loading()}</p>}>
        <ClipAudioPanel
          audio={{ key: recording.Id, durationSeconds: recording.DurationSeconds, urls: recording.Urls }}
          saveLabel={m.media_make_clip()}
          onSaveCut={(edit) => void makeClip(edit)}
          markers={markers}
        />
      </Suspense>
      {made && (
        <p role="status" className="alert alert-info">
          {m.media_clip_made({ title: made.title, duration: formatDuration(made.seconds) })}{' '}
          <Link href={`${programHref}/clips/${made.clipId}`}>{m.media_open_clip()}</Link>
        </p>
      )}
    </>
  );
}

function ClipsFromRecording({ recording, programHref }: { recording: Recording; programHref: string }) {
  const clips = useClipsFromRecording(recording);
  if (!clips) return null;
  return (
    <>
      <h3 id="recording-clips">{m.media_clips_from_recording()}</h3>
      {clips.length === 0 ? (
        <p className="muted">{m.media_clips_from_recording_none()}</p>
      ) : (
        <ul aria-labelledby="recording-clips" className="annotation-list">
          {clips.map(({ clip, waitingToSync }) => {
            const state = clipStateDisplay(clip.State);
            return (
              <li key={clip.Id}>
                <Link className="annotation-text" href={`${programHref}/clips/${clip.Id}`}>{clipLabel(clip)}</Link>
                {waitingToSync ? (
                  <span className="pill pill-pending">{m.media_clip_waiting_sync()}</span>
                ) : (
                  state && <span className={`pill pill-${state}`}>{domainMessage(CLIP_STATE_LABEL[state])}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
