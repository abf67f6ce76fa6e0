// The clip's audio upload: pick a file (kept on the device at once, online or not) and follow it
// to the server with a progress bar per file: percent, paused while offline, refused; once the
// server has it, the row follows the clip's State (processing, ready, ready with a warning, error),
// so it never says "processing" about audio that is long ready.
//   <ClipUpload organizationId={organizationId} clipId={clip.Id} />
import { useState } from 'react';
import { ClipState } from '../../domain/clip.ts';
import { AUDIO_EXTENSIONS } from '../../domain/constants.ts';
import { formatFileSize } from '../../domain/file.ts';
import { formatFormError } from '../../domain/messages.ts';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { processingProblemText } from '../../media/messages.ts';
import { useSession } from '../../lib/session.ts';
import { m } from '../../paraglide/messages.js';
import { reportLocalWriteFailure, savedLocally } from '../../lib/local-write.ts';
import { cancelUpload, dismissUpload, queueUpload } from '../../lib/upload-queue.ts';
import { uploadsDb, type UploadRecord } from '../../db/upload-db.ts';

const ACCEPT = AUDIO_EXTENSIONS.map((e) => `.${e}`).join(',');

/** The clip's local row (its State, ModifiedAtUtc and AudioProcessingProblem are read). */
export type ClipAudioState = Readonly<Record<string, unknown>>;

type Phase = 'sending' | 'processing' | 'ready' | 'warning' | 'error' | 'refused';

/** Where an upload is: sending, refused, or (done) what the clip row says became of the file. */
export function uploadPhase(u: UploadRecord, clip: ClipAudioState | undefined): Phase {
  if (u.state === 'failed') return 'refused';
  if (u.state !== 'done') return 'sending';
  // The row from before the server took the file says nothing about this file.
  if (!clip || (u.clipModifiedAtUtc && clip['ModifiedAtUtc'] === u.clipModifiedAtUtc)) return 'processing';
  if (clip['State'] === ClipState.Ready) return 'ready';
  if (clip['State'] === ClipState.Warning) return 'warning';
  if (clip['State'] === ClipState.Error) return 'error';
  return 'processing';
}

const FILL: Record<Phase, string> = { sending: 'var(--brand)', processing: 'var(--brand)', ready: 'var(--success)', warning: 'var(--success)', error: 'var(--danger)', refused: 'var(--danger)' };

function statusText(u: UploadRecord, phase: Phase, clip: ClipAudioState | undefined, percent: number, online: boolean): string {
  const raw = clip?.['AudioProcessingProblem'];
  const problem = typeof raw === 'string' ? processingProblemText(raw) : '';
  switch (phase) {
    case 'processing':
      return m.media_upload_status_done();
    case 'ready':
      return m.media_upload_status_ready();
    case 'warning':
      return m.media_upload_status_warning({ problem });
    case 'error':
      return m.media_upload_status_error({ problem });
    case 'refused':
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
  const alert = phase === 'refused' || phase === 'error';
  const finished = upload.state === 'done' || upload.state === 'failed';
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

  async function pick(file: File | undefined) {
    if (!file || !userId) return;
    try {
      const problem = await queueUpload({ userId, organizationId, clipId, file });
      setError(problem ? formatFormError(problem) : null);
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
    </div>
  );
}
