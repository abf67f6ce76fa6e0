// "Transcribe automatically" in a clip's or recording's transcript section (issue 34): asks the
// server's speech-to-text engine for the transcript (POST /v1/clips/{id}/transcript or
// /v1/recordings/{id}/transcript with the language spoken, and for a clip whether to publish it)
// and says where the job is, as the owner's TranscriptStatus goes:
//
//   none ──Transcribe──> Queued ──> InProgress ──> Completed (the section reloads the cues)
//                          ▲            │
//                          └─ retrying ─┤ (the last attempt's reason shown)
//                                       └──> Failed (why shown; may be asked again)
//
// Jobs take minutes, not seconds, so this polls the state itself (every POLL_MS while Queued or
// InProgress) instead of section 4's 90-second operation polling. It all runs on the server:
// offline the form is disabled and says it needs the connection. A refusal is shown where it
// belongs: an unsupported language at the language, anything else under the button.
import { useCallback, useEffect, useId, useState } from 'react';
import { fieldErrorText } from '../../domain/messages.ts';
import { planRefusalOf } from '../../lib/plan-words.ts';
import { BadRequestBodySchema } from '../../protocol/errors.ts';
import { getLocale } from '../../lib/i18n.ts';
import { isTranscribing, TranscriptStatus } from '../../domain/transcription.ts';
import type { Transcription as TranscriptionState } from '../../protocol/api/transcription.ts';
import { m } from '../../paraglide/messages.js';
import { useOnline } from '../../lib/connectivity.ts';
import { useLanguages } from '../../lib/reference-data.ts';
import type { TranscriptOwner } from './owners.ts';

/** How often the state is asked for while the job is queued or running. */
const POLL_MS = 3000;
/** The engine's language, offered first (a language it has no model for is the server's 400). */
const DEFAULT_LANGUAGE = 'en';

type State = { kind: 'loading' } | { kind: 'none' } | { kind: 'failed' } | { kind: 'known'; transcription: TranscriptionState };

/** unavailable: why it cannot be asked (the owner has no audio), said instead of the form. */
export function Transcription({ owner, id: ownerId, unavailable = null, onCompleted }: { owner: TranscriptOwner; id: string; unavailable?: string | null; onCompleted: () => void }) {
  const online = useOnline();
  const id = useId();
  const [language, setLanguage] = useState(DEFAULT_LANGUAGE);
  const [publish, setPublish] = useState(false);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [problems, setProblems] = useState<{ language?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (): Promise<State> => {
    const res = await owner.getTranscription(ownerId);
    const next: State = res.kind === 'ok' ? { kind: 'known', transcription: res.data } : res.kind === 'notFound' ? { kind: 'none' } : { kind: 'failed' };
    setState(next);
    return next;
  }, [owner, ownerId]);

  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  const status = state.kind === 'known' ? state.transcription.Status : null;
  useEffect(() => {
    if (!online || !isTranscribing(status)) return;
    const timer = setTimeout(() => {
      void load().then((next) => {
        if (next.kind === 'known' && next.transcription.Status === TranscriptStatus.Completed) onCompleted();
      });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [online, status, state, load, onCompleted]);

  const start = async () => {
    setBusy(true);
    setProblems({});
    const res = await owner.startTranscription(ownerId, language, publish);
    setBusy(false);
    if (res.kind === 'ok') return void load();
    if (res.kind === 'badRequest') {
      const next: { language?: string; form?: string } = {};
      for (const error of res.body.Errors) {
        if (error.Field === 'language') next.language ??= fieldErrorText(error);
        else next.form ??= fieldErrorText(error);
      }
      return setProblems(next);
    }
    // The plan's refusal (the month's TranscriptionMinutes cap, or a plan without the feature) says
    // what stops it and who can change that.
    const refusal = planRefusalOf(res, getLocale());
    if (refusal) return setProblems({ form: refusal });
    // 409: the owner has no audio to transcribe (the row changed since it was shown): the server says why.
    const conflict = res.kind === 'status' && res.status === 409 ? BadRequestBodySchema.safeParse(res.body) : null;
    if (conflict?.success && conflict.data.Errors[0]) return setProblems({ form: fieldErrorText(conflict.data.Errors[0]) });
    setProblems({ form: res.kind === 'error' ? m.clips_transcription_offline() : m.clips_transcription_start_failed() });
  };

  const running = isTranscribing(status);
  const disabled = busy || !online || running;

  if (unavailable) {
    return (
      <div className="transcript-automatic" role="group" aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`}>{m.clips_transcription_title()}</h3>
        <p className="muted" role="status">
          {unavailable}
        </p>
      </div>
    );
  }

  return (
    <div className="transcript-automatic" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{m.clips_transcription_title()}</h3>
      <p className="field-hint">{owner.words.transcriptionHint()}</p>
      {!online && (
        <p className="muted" role="status">
          {m.clips_transcription_offline()}
        </p>
      )}
      <div className={`field${problems.language ? ' has-error' : ''}`}>
        <label htmlFor={`${id}-language`}>{m.clips_transcription_language()}</label>
        <select
          id={`${id}-language`}
          value={language}
          disabled={disabled}
          onChange={(e) => (setLanguage(e.target.value), setProblems({}))}
          {...(problems.language ? { 'aria-invalid': true, 'aria-describedby': `${id}-language-error` } : {})}
        >
          {/* Offline, the reference list is not asked for (it would be a request that cannot succeed). */}
          {online ? <LanguageOptions /> : <option value={language}>{language}</option>}
        </select>
        {problems.language && (
          <p className="field-error" id={`${id}-language-error`}>
            {problems.language}
          </p>
        )}
      </div>
      {owner.setPublished && (
        <div className="field checkbox">
          <input id={`${id}-publish`} type="checkbox" checked={publish} disabled={disabled} onChange={(e) => setPublish(e.target.checked)} />
          <label htmlFor={`${id}-publish`}>{m.clips_transcription_publish()}</label>
        </div>
      )}
      <button type="button" className="button" disabled={disabled} onClick={() => void start()}>
        {m.clips_transcription_start()}
      </button>
      {problems.form && (
        <p className="field-error" role="alert">
          {problems.form}
        </p>
      )}
      {online && <TranscriptionStatusLine owner={owner} state={state} />}
    </div>
  );
}

/** The reference languages (kept on the device once fetched); the engine's own until they arrive. */
function LanguageOptions() {
  const languages = useLanguages() ?? [{ Code: DEFAULT_LANGUAGE, Name: DEFAULT_LANGUAGE }];
  return (
    <>
      {languages.map((l) => (
        <option key={l.Code} value={l.Code}>
          {l.Name}
        </option>
      ))}
    </>
  );
}

function TranscriptionStatusLine({ owner, state }: { owner: TranscriptOwner; state: State }) {
  if (state.kind === 'failed') return <p className="field-error">{m.clips_transcription_state_failed()}</p>;
  if (state.kind !== 'known') return null;
  const t = state.transcription;
  switch (t.Status) {
    case TranscriptStatus.Queued:
      return (
        <p className="muted" role="status">
          {m.clips_transcription_queued()} {t.Problem !== null && m.clips_transcription_retrying({ problem: t.Problem })}
        </p>
      );
    case TranscriptStatus.InProgress:
      return (
        <p className="muted" role="status">
          {m.clips_transcription_in_progress()}
        </p>
      );
    case TranscriptStatus.Completed:
      return (
        <p className="muted" role="status">
          {owner.words.transcriptionCompleted(t.Engine)}
        </p>
      );
    case TranscriptStatus.Failed:
      return (
        <p className="field-error" role="alert">
          {m.clips_transcription_failed({ problem: t.Problem ?? '' })}
        </p>
      );
  }
}
