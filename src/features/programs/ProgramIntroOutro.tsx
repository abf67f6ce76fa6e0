// The program's intro and outro on its settings page (issue 33; section 7 …/settings/audio/{type}):
// for each, the file in effect (its name, length and upload date, from the program's row, so it
// shows offline too) with a player, and a drop zone with a file picker. A file chosen is checked on
// the device by the section 5 file rules (src/domain/file.ts), sent (PUT), and its operation
// polled until the server has decoded it: its progress is said as it goes, and a refusal is said at
// that field (the server's 400 at file or fileName, a body that is not audio, or the operation's
// reason). Removing and "apply to existing episodes" are server calls too. All of it needs the
// network, and offline the card says so instead of failing. Changing needs the program's settings'
// write access (section 6: content and manage-settings access); with read access it is shown only.
import { useEffect, useId, useRef, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { AUDIO_EXTENSIONS } from '../../domain/constants.ts';
import { validateFile } from '../../domain/file.ts';
import { formatFormError } from '../../domain/messages.ts';
import { INTRO_OUTRO_KEY, INTRO_OUTRO_POLL_MS, INTRO_OUTRO_TYPES, introOutroAccess, type IntroOutroFailure, type IntroOutroType } from '../../domain/intro-outro.ts';
import { permissionsFor } from '../../domain/permissions.ts';
import { formatDuration } from '../../domain/time.ts';
import { applyProgramAudio, deleteProgramAudio, getProgramAudioOperation, putProgramAudio, type ProgramAudioOperation } from '../../protocol/api/program-audio.ts';
import type { BadRequestBody } from '../../protocol/errors.ts';
import type { IntroOutroFile, Program } from '../../protocol/entities.ts';
import { call, organizationHeaders, routeUrl, xsrfToken } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { FileInput, useFileDrop } from '../../ui/FileDrop.tsx';

type Props = { program: Program; organizationId: string };

const ACCEPT = AUDIO_EXTENSIONS.map((e) => `.${e}`).join(',');

const label = (type: IntroOutroType) => (type === 'intro' ? m.introoutro_intro() : m.introoutro_outro());
/** The same word inside a sentence ("Replace the intro"; German keeps its capital). */
const word = (type: IntroOutroType) => (type === 'intro' ? m.introoutro_intro_in_sentence() : m.introoutro_outro_in_sentence());

const FAILURE_TEXT: Record<IntroOutroFailure, () => string> = {
  NotAudio: () => m.introoutro_failed_not_audio(),
  TooShort: () => m.introoutro_failed_too_short(),
  TooLong: () => m.introoutro_failed_too_long(),
  Error: () => m.introoutro_failed_error(),
};

export function ProgramIntroOutro({ program, organizationId }: Props) {
  const id = useId();
  const online = useOnline();
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  const access = introOutroAccess(permissionsFor(entries, { kind: 'program', programId: program.Id, networkId: program.NetworkId ?? null }));
  const [applied, setApplied] = useState<string | null>(null);
  const [applyError, setApplyError] = useState<string | null>(null);
  if (!access.read) return null;

  const apply = async () => {
    setApplied(null);
    setApplyError(null);
    const result = await call(applyProgramAudio, { params: { programId: program.Id } });
    if (result.kind === 'ok') setApplied(m.introoutro_applied({ count: result.data.Clips }));
    else setApplyError(result.kind === 'error' ? m.introoutro_needs_connection() : m.introoutro_request_failed());
  };

  return (
    <section className="card form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m.introoutro_title()}</h2>
      <p className="muted">{m.introoutro_text()}</p>
      {!access.write && <p className="muted">{m.introoutro_read_only()}</p>}
      {access.write && !online && (
        <p className="alert alert-info" role="status">
          {m.introoutro_offline()}
        </p>
      )}
      {INTRO_OUTRO_TYPES.map((type) => (
        <Slot key={type} type={type} program={program} file={program.IntroOutro?.[INTRO_OUTRO_KEY[type]] ?? null} writable={access.write} online={online} />
      ))}
      {access.write && (
        <div className="intro-outro-apply">
          <h3>{m.introoutro_apply_title()}</h3>
          <p className="muted">{m.introoutro_apply_text()}</p>
          <div className="form-actions">
            <button type="button" className="button" disabled={!online} onClick={() => void apply()}>
              {m.introoutro_apply()}
            </button>
          </div>
          {applied && <p role="status">{applied}</p>}
          {applyError && <p className="field-error" role="alert">{applyError}</p>}
        </div>
      )}
    </section>
  );
}

type Progress = { stage: 'uploading' | 'checking'; fileName: string } | null;

/** The words for a refused upload: the first error of the server's 400, or what the status says. */
function refusalText(status: number, body: unknown): string {
  if (status === 400) {
    // In the user's language: the catalogue key the server names beside its English words.
    const first = (body as BadRequestBody | null)?.Errors?.[0];
    return first ? refusedFieldText(first, 'programs') : m.introoutro_request_failed();
  }
  if (status === 415) return m.introoutro_not_audio_type();
  if (status === 413) return m.introoutro_failed_too_large();
  return m.introoutro_request_failed();
}

function Slot({ type, program, file, writable, online }: { type: IntroOutroType; program: Program; file: IntroOutroFile | null; writable: boolean; online: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<Progress>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const busy = progress !== null;
  const canChange = writable && online && !busy;

  /** Polls the operation until the server is done with it (the page may be left meanwhile: then it stops). */
  const follow = async (operation: ProgramAudioOperation) => {
    let current = operation;
    while (current.Status === 'Busy' && mounted.current) {
      await new Promise((resolve) => setTimeout(resolve, INTRO_OUTRO_POLL_MS));
      const result = await call(getProgramAudioOperation, { params: { operationId: operation.Id } });
      if (result.kind === 'ok') current = result.data;
      else if (result.kind !== 'error') return setError(m.introoutro_request_failed());
    }
    if (!mounted.current) return;
    if (current.Status === 'Success') {
      setDone(m.introoutro_ready({ label: label(type), fileName: current.FileName }));
      showSavedToast(m.introoutro_ready({ label: label(type), fileName: current.FileName }));
    } else {
      setError(current.FailureReason ? FAILURE_TEXT[current.FailureReason.Code]() : m.introoutro_failed_error());
    }
  };

  const take = async (chosen: File | undefined) => {
    if (!chosen || !canChange) return;
    setError(null);
    setDone(null);
    // The same rules the server applies (section 5), said here before a byte is sent.
    const problem = validateFile({ name: chosen.name, size: chosen.size });
    if (problem) return setError(formatFormError(problem));
    setProgress({ stage: 'uploading', fileName: chosen.name });
    try {
      const res = await fetch(routeUrl(putProgramAudio, { params: { programId: program.Id, type }, query: { fileName: chosen.name } }), {
        method: 'PUT',
        headers: { 'content-type': chosen.type || 'application/octet-stream', 'x-xsrf-token': await xsrfToken(), ...organizationHeaders() },
        body: chosen,
        credentials: 'same-origin',
      });
      if (res.status !== 202) {
        const text = await res.text();
        setError(refusalText(res.status, text ? (JSON.parse(text) as unknown) : null));
        return;
      }
      setProgress({ stage: 'checking', fileName: chosen.name });
      await follow((await res.json()) as ProgramAudioOperation);
    } catch {
      setError(m.introoutro_needs_connection());
    } finally {
      if (mounted.current) setProgress(null);
    }
  };

  const remove = async () => {
    setError(null);
    setDone(null);
    const result = await call(deleteProgramAudio, { params: { programId: program.Id, type } });
    if (result.kind === 'ok') showSavedToast(m.introoutro_removed({ label: label(type) }));
    else setError(result.kind === 'error' ? m.introoutro_needs_connection() : m.introoutro_request_failed());
  };

  const { dragging, zone } = useFileDrop(canChange, (chosen) => void take(chosen));

  const uploaded = file ? new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium' }).format(new Date(file.UploadedAtUtc)) : null;
  return (
    <div
      className={`field intro-outro-slot${dragging ? ' is-dragging' : ''}${error ? ' has-error' : ''}`}
      data-testid={`intro-outro-${type}`}
      {...zone}
      style={{ border: `1px dashed ${dragging ? 'var(--brand)' : 'var(--border, #ccc)'}`, borderRadius: 8, padding: '0.75rem' }}
    >
      <label htmlFor={id}>{label(type)}</label>
      {file ? (
        <div>
          <p>{m.introoutro_current({ fileName: file.FileName, duration: formatDuration(file.DurationSeconds), date: uploaded ?? '' })}</p>
          {/* A file of the studio's: it plays online (the offline note above says why it may not). */}
          <audio controls preload="none" src={file.AudioUrl} aria-label={m.introoutro_listen({ label: word(type) })} style={{ width: '100%', maxWidth: 420 }} />
        </div>
      ) : (
        <p className="muted">{m.introoutro_none()}</p>
      )}
      {writable && (
        <div>
          <FileInput inputRef={input} id={id} accept={ACCEPT} disabled={!canChange} describedBy={`${id}-hint${error ? ` ${id}-error` : ''}`} invalid={Boolean(error)} onFile={(chosen) => void take(chosen)} />
          <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
            <button type="button" className="button" disabled={!canChange} onClick={() => input.current?.click()}>
              {file ? m.introoutro_replace({ label: word(type) }) : m.introoutro_choose({ label: word(type) })}
            </button>
            {file && (
              <button type="button" className="button danger-outline" disabled={!canChange} onClick={() => void remove()}>
                {m.introoutro_remove({ label: word(type) })}
              </button>
            )}
          </div>
          <p id={`${id}-hint`} className="field-hint">
            {m.introoutro_drop_hint()}
          </p>
        </div>
      )}
      {progress && (
        <p role="status">
          <progress aria-label={progress.stage === 'uploading' ? m.introoutro_uploading({ fileName: progress.fileName }) : m.introoutro_checking({ fileName: progress.fileName })} />{' '}
          {progress.stage === 'uploading' ? m.introoutro_uploading({ fileName: progress.fileName }) : m.introoutro_checking({ fileName: progress.fileName })}
        </p>
      )}
      {done && !progress && <p role="status">{done}</p>}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
