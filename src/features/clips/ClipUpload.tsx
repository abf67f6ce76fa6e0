// The clip's audio upload: pick a file (kept on the device at once, online or not) and follow it
// to the server with a progress bar per file: percent, paused while offline, refused; once the
// server has it, the row follows the clip's State (processing, ready, ready with a warning, error),
// so it never says "processing" about audio that is long ready.
//
// Replacing audio asks first. A file picked for a clip that serves audio (Ready or Warning), or
// while another file of it is still uploading or processing, opens a confirmation that names the
// file; Cancel keeps everything as it was (nothing queued), Replace queues it. The server keeps the
// current audio published until the new file is ready, and keeps it when the new file cannot be
// used (sync-server/audio/versions.ts), and the row says both:
//
//   pick ──clip serves audio or a file is under way──> "Replace the audio?" ──Cancel──> nothing
//     │                                                       └──Replace──┐
//     └──otherwise──────────────────────────────────────────────────────> queued (upload-queue.ts)
//   sending / processing, the clip serving audio: "listeners still get the current audio"
//   done, the clip still Ready with an AudioProcessingProblem: the new file failed, the previous
//   audio is still published ('kept')
// A clip serving audio stays Ready (or Warning) while the new file processes, and an edit of its
// title meanwhile changes its ModifiedAtUtc: the row says "ready" only once the audio the clip
// serves (servedAudioOf: its versioned audio URL, State and problem) is no longer what it was.
//   <ClipUpload organizationId={organizationId} clipId={clip.Id} />
import { useState } from 'react';
import { ClipState } from '../../domain/clip.ts';
import { AUDIO_EXTENSIONS } from '../../domain/constants.ts';
import { formatFileSize } from '../../domain/file.ts';
import { formatFormError } from '../../domain/messages.ts';
import { validateFile } from '../../domain/file.ts';
import { hasReadyAudio } from '../../domain/publishing.ts';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { processingProblemText } from '../../media/messages.ts';
import { storageFullText } from '../../lib/plan-words.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { useSession } from '../../lib/session.ts';
import { m } from '../../paraglide/messages.js';
import { localWriteFailureText, reportLocalWriteFailure, savedLocally } from '../../lib/local-write.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { cancelUpload, dismissUpload, queueUpload, servedAudioOf } from '../../lib/upload-queue.ts';
import { uploadsDb, type UploadRecord } from '../../db/upload-db.ts';

const ACCEPT = AUDIO_EXTENSIONS.map((e) => `.${e}`).join(',');

/** The clip's local row (its State, ModifiedAtUtc, AudioProcessingProblem and Urls are read). */
export type ClipAudioState = Readonly<Record<string, unknown>>;

type Phase = 'sending' | 'processing' | 'ready' | 'warning' | 'error' | 'kept' | 'refused';

const problemOf = (clip: ClipAudioState | undefined): string | null => {
  const raw = clip?.['AudioProcessingProblem'];
  return typeof raw === 'string' && raw.trim() !== '' ? raw : null;
};

/** Whether the clip row is still the one from before the server took the file (it then says nothing
 * about this file). A clip that served audio then is past it once it serves other audio or a new
 * problem; one that served none is AudioUploaded or Processing until the file's outcome (a field
 * edit meanwhile reads as processing), so any later row does. */
function rowFromBefore(u: UploadRecord, clip: ClipAudioState): boolean {
  const before = u.clipServedAudio;
  if (!before) return Boolean(u.clipModifiedAtUtc) && clip['ModifiedAtUtc'] === u.clipModifiedAtUtc;
  const now = servedAudioOf(clip);
  return now !== null && now.audioUrl === before.audioUrl && now.state === before.state && now.problem === before.problem;
}

/** Where an upload is: sending, refused, or (done) what the clip row says became of the file. */
export function uploadPhase(u: UploadRecord, clip: ClipAudioState | undefined): Phase {
  if (u.state === 'failed') return 'refused';
  if (u.state !== 'done') return 'sending';
  if (!clip || rowFromBefore(u, clip)) return 'processing';
  // A new version is Ready without a problem (or Warning with one) at a new audio URL; the same
  // audio with a new problem, or (records without clipServedAudio) a Ready row WITH a problem, is a
  // clip that kept its audio, Ready or Warning, because this file could not be used (versions.ts).
  const sameAudio = u.clipServedAudio ? servedAudioOf(clip)?.audioUrl === u.clipServedAudio.audioUrl : clip['State'] === ClipState.Ready;
  if (sameAudio && problemOf(clip) !== null) return 'kept';
  if (clip['State'] === ClipState.Ready) return 'ready';
  if (clip['State'] === ClipState.Warning) return 'warning';
  if (clip['State'] === ClipState.Error) return 'error';
  return 'processing';
}

const FILL: Record<Phase, string> = {
  sending: 'var(--brand)', processing: 'var(--brand)', ready: 'var(--success)', warning: 'var(--success)', error: 'var(--danger)', kept: 'var(--danger)', refused: 'var(--danger)',
};

function statusText(u: UploadRecord, phase: Phase, clip: ClipAudioState | undefined, percent: number, online: boolean): string {
  const raw = problemOf(clip);
  const problem = raw === null ? '' : processingProblemText(raw);
  switch (phase) {
    case 'processing':
      return m.media_upload_status_done();
    case 'kept':
      return m.clips_replace_failed({ problem });
    case 'ready':
      return m.media_upload_status_ready();
    case 'warning':
      return m.media_upload_status_warning({ problem });
    case 'error':
      return m.media_upload_status_error({ problem });
    case 'refused':
      // The month's stored-audio cap: its figures, where the file was picked (the plan's words).
      if (u.problem === 'storageCap' && u.cap) return storageFullText({ kind: 'cap', addOn: 'ExtraStorage', ...u.cap }, getLocale());
      // Any other reason the server gave (an account not activated…), in the user's language.
      if (u.problem === 'refused' && u.refusal) return refusedFieldText(u.refusal, 'clips');
      return u.problem === 'clipGone' ? m.media_upload_failed_clip() : m.media_upload_failed_rejected();
    case 'sending': {
      if (!online) return m.media_upload_status_paused({ percent });
      const sizes = { sent: formatFileSize(u.offset, getLocale()), total: formatFileSize(u.size, getLocale()), percent };
      return u.state === 'uploading' ? m.media_upload_status_uploading(sizes) : m.media_upload_status_queued(sizes);
    }
  }
}

function UploadRow({ upload, clip, online }: { upload: UploadRecord; clip: ClipAudioState | undefined; online: boolean }) {
  const percent = upload.state === 'done' ? 100 : upload.size === 0 ? 0 : Math.floor((upload.offset / upload.size) * 100);
  const phase = uploadPhase(upload, clip);
  const text = statusText(upload, phase, clip, percent, online);
  const alert = phase === 'refused' || phase === 'error' || phase === 'kept';
  const finished = upload.state === 'done' || upload.state === 'failed';
  // While this file is on its way, a clip serving audio goes on serving it.
  const stillPublished = (phase === 'sending' || phase === 'processing') && clip !== undefined && hasReadyAudio(clip);
  return (
    <li className="upload-row">
      <div
        role="progressbar"
        aria-label={m.media_upload_bar({ fileName: upload.fileName })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        style={{ height: '0.5rem', borderRadius: '0.25rem', background: 'var(--border)', overflow: 'hidden' }}
      >
        <div style={{ width: `${percent}%`, height: '100%', background: FILL[phase] }} />
      </div>
      <p className={alert ? 'alert alert-danger' : 'muted'} role={alert ? 'alert' : 'status'}>
        <strong>{upload.fileName}</strong> {text}
        {stillPublished && (
          <>
            <br />
            {m.clips_replace_still_published()}
          </>
        )}
      </p>
      <button type="button" className="button" onClick={() => void savedLocally(finished ? dismissUpload(upload.id) : cancelUpload(upload.id))}>
        {finished ? m.media_upload_dismiss() : m.media_upload_cancel()}
      </button>
    </li>
  );
}

export function ClipUpload({ organizationId, clipId }: { organizationId: string; clipId: string }) {
  const userId = useSession()?.session.User?.Id ?? null;
  const uploads = useLiveQuery(() => uploadsDb.uploads.where('clipId').equals(clipId).sortBy('createdAt'), [clipId]);
  const clip = useLiveQuery(() => db.clips.get(clipId), [clipId]);
  const online = useOnline();
  const [error, setError] = useState<string | null>(null);
  /** A file picked for a clip that has audio (or a file under way), waiting for Replace or Cancel. */
  const [replacement, setReplacement] = useState<File | null>(null);
  // Audio the clip serves, or a file of it not yet settled: a new file would replace it.
  const underWay = (clip && (clip['State'] === ClipState.AudioUploaded || clip['State'] === ClipState.Processing)) || (uploads ?? []).some((u) => {
    const phase = uploadPhase(u, clip);
    return phase === 'sending' || phase === 'processing';
  });
  const servesAudio = clip !== undefined && hasReadyAudio(clip);

  /** Keeps the file and queues it; a section-5 problem is shown at the field. Throws when the
   * device cannot keep it (a full disk). */
  async function queue(file: File) {
    if (!userId) return;
    const problem = await queueUpload({ userId, organizationId, clipId, file });
    setError(problem ? formatFormError(problem) : null);
  }

  async function pick(file: File | undefined) {
    if (!file || !userId) return;
    // A file the rules refuse replaces nothing: say why without asking first.
    const invalid = validateFile({ name: file.name, size: file.size });
    if (invalid) return setError(formatFormError(invalid));
    if (servesAudio || underWay) {
      setError(null);
      return setReplacement(file);
    }
    try {
      await queue(file);
    } catch (failure) {
      // The file is kept on this device until it is sent: a full disk refuses it.
      setError(null);
      reportLocalWriteFailure(failure, m.media_upload_not_queued());
    }
  }

  return (
    <div className="clip-upload">
      <label className="field">
        <span>{m.media_upload_pick()}</span>
        <input
          type="file"
          accept={ACCEPT}
          onChange={(e) => {
            const input = e.currentTarget;
            void pick(input.files?.[0]).finally(() => {
              input.value = '';
            });
          }}
        />
      </label>
      {error && <p role="alert" className="alert alert-danger">{error}</p>}
      {uploads && uploads.length > 0 && (
        <ul className="upload-list" aria-label={m.media_upload_list()} style={{ listStyle: 'none', padding: 0 }}>
          {uploads.map((u) => (
            <UploadRow key={u.id} upload={u} clip={clip} online={online} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={replacement !== null}
        onClose={() => setReplacement(null)}
        title={m.clips_replace_title()}
        description={
          replacement &&
          (servesAudio ? m.clips_replace_text({ fileName: replacement.name }) : m.clips_replace_pending_text({ fileName: replacement.name }))
        }
        actionLabel={m.clips_replace_action()}
        onConfirm={() => (replacement ? queue(replacement) : undefined)}
        failureDescription={m.media_upload_not_queued()}
        failureReason={localWriteFailureText}
      />
    </div>
  );
}
