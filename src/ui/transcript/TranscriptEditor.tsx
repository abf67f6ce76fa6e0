// A clip's or a recording's transcript (issue 34): one editor for both, given its owner
// (owners.ts: the routes, the named mutation, the words that name it), the row's id and its audio.
// The transcript is held by the server, not synced to the device: the section loads it when
// online. Edits are saved on the device as the owner's named mutation (clip.setTranscript,
// recording.setTranscript: the whole cue list, on the transcript it was edited from) and sent by the
// sync engine, offline too: a transcript loaded before the connection went stays editable, and an
// edit waiting to be sent is shown (after a reload too) until the server has it.
//
//   loading ──> none ──import a file──> draft (unsaved) ──Save──> queued ──sent──> saved (loaded again)
//          └──> saved ──edit a cue (start, speaker, text)──> draft ──Save──┘      └─refused──> the
//                                                                 └──Discard──> saved   edit as a draft
//   offline, nothing loaded or queued ──> "needs the network"      failed ──Try again──> loading
//
// A sent edit stays shown as the saved transcript until it is loaded again (the connection may go
// between the two). A refusal (the transcript changed elsewhere meanwhile, a cue the server would
// not take) is shown here with the edit kept as the draft: Save puts it over the server's
// transcript as it is now, Discard drops it. "Changed elsewhere" by this section's own earlier edit
// (sent, not yet loaded back, when this one was made on it) is no conflict: nothing of anyone
// else's is there, so the edit is saved again on the server's version. Publishing (a clip's only), going back to the imported cues and deleting are
// asked of the server directly (online only).
//   a finished automatic transcription (Transcription.tsx) ──> loading (its cues)
//
// A file is read here with the formats the server uses (src/domain/transcripts.ts): one that
// cannot be read is refused at the import with its line. A draft is checked the same way before it
// is sent; what the server refuses is shown at the cue it names (Cues.<n>). While a draft is
// unsaved, leaving asks first (section 4's unsaved-changes prompt, for a transcript).
//
// The cues are on the owner's own timeline; the audio played may not be (a clip's published audio
// begins with the program's intro): audioOffsetSeconds is how much later the audio is, applied both
// ways (a seek goes to the cue's start on the audio's timeline, the cue heard is found from the
// player's time on the cues').
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { onEpisodeTimeline, onPublishedTimeline } from '../../domain/intro-outro.ts';
import { formatFormError } from '../../domain/messages.ts';
import { absoluteUrl } from '../../domain/public-urls.ts';
import {
  checkCues,
  detectTranscriptFormat,
  formatTimestamp,
  joinCues,
  parseTimestamp,
  parseTranscript,
  TRANSCRIPT_CONTENT_TYPES,
  TRANSCRIPT_EXTENSIONS,
  TRANSCRIPT_FORMATS,
  splitCue,
  writeTranscript,
  type TranscriptCue,
  type TranscriptFormat,
} from '../../domain/transcripts.ts';
import { cueFromWire, cueToWire, type Transcript, type TranscriptCueWire } from '../../protocol/api/transcripts.ts';
import { db } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { useQueuedSetting } from '../../lib/normalization.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { m } from '../../paraglide/messages.js';
import { useOnline } from '../../lib/connectivity.ts';
import { showToast } from '../../lib/toast.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import type { TranscriptOwner } from './owners.ts';
import { Transcription } from './Transcription.tsx';
import './transcript.css';

type DraftCue = { start: string; end: number; speaker: string; text: string };
type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'none' } | { kind: 'saved'; transcript: Transcript };
/** The server's answer is known: its transcript, or that there is none. */
const isKnown = (l: Loaded) => l.kind === 'saved' || l.kind === 'none';
/** Problems shown where they are: at a cue's field, at the import, or for the whole section. */
type Problems = { cues: Record<number, { start?: string; text?: string }>; file?: string; form?: string };

const FORMAT_LABEL: Record<TranscriptFormat, () => string> = {
  vtt: () => m.clips_transcript_format_vtt(),
  srt: () => m.clips_transcript_format_srt(),
  json: () => m.clips_transcript_format_json(),
  text: () => m.clips_transcript_format_text(),
};

const toDraft = (cues: readonly TranscriptCue[]): DraftCue[] => cues.map((c) => ({ start: formatTimestamp(c.start), end: c.end, speaker: c.speaker ?? '', text: c.text }));
const sameDraft = (a: readonly DraftCue[], b: readonly DraftCue[]) => JSON.stringify(a) === JSON.stringify(b);
const cuesKey = (cues: readonly TranscriptCueWire[]) => JSON.stringify(cues.map((c) => cueToWire(cueFromWire(c))));

/** The draft as cues, or the first cue whose start is not a time. */
function cuesOf(draft: readonly DraftCue[]): { cues: TranscriptCue[] } | { badStart: number } {
  const cues: TranscriptCue[] = [];
  for (const [i, d] of draft.entries()) {
    const start = parseTimestamp(d.start);
    if (start === null) return { badStart: i };
    cues.push({ start, end: d.end, text: d.text, speaker: d.speaker.trim() || null });
  }
  return { cues };
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export type TranscriptEditorProps = {
  owner: TranscriptOwner;
  /** The clip's or recording's Id. */
  id: string;
  /** What a downloaded file is named (its extension added). */
  fileName: string;
  /** The owner's audio, played from a cue's start in the section's player (none: no player). */
  audioUrl?: string | null;
  /** How much later the audio is than the cues' timeline (a clip's published intro); 0: the same. */
  audioOffsetSeconds?: number;
  /** Why "Transcribe automatically" cannot be asked (a recording with no audio), said in its place; null: it can. */
  transcriptionUnavailable?: string | null;
};

export function TranscriptEditor({ owner, id, fileName, audioUrl = null, audioOffsetSeconds = 0, transcriptionUnavailable = null }: TranscriptEditorProps) {
  const introSeconds = audioOffsetSeconds;
  const player = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState<number | null>(null);
  const online = useOnline();
  const headingId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [draft, setDraft] = useState<DraftCue[] | null>(null);
  const [problems, setProblems] = useState<Problems>({ cues: {} });
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);

  const queued = useQueuedSetting(owner.entity, id, owner.mutationName);
  // The edit waiting to be sent (the last saved on the device), if any: what the section shows as saved.
  const queuedCues = useLiveQuery(
    async () => {
      const entries = await db.outbox.where('entityId').equals(id).filter((e) => e.name === owner.mutationName).sortBy('seq');
      const last = entries[entries.length - 1];
      return last ? (last.args as { Cues: TranscriptCueWire[] }).Cues : null;
    },
    [id, owner.mutationName],
    null,
  );
  // The edit last sent, until the transcript is loaded again: what the server now holds, shown in
  // the meantime (with the connection gone just after sending, the load waits for it to return).
  // Taken in the same render as the edit leaves the outbox (not in an effect after it): a render
  // in between would have nothing to show and take the cues, and the field being typed into, away.
  const [sentCues, setSentCues] = useState<TranscriptCueWire[] | null>(null);
  const [lastQueued, setLastQueued] = useState<TranscriptCueWire[] | null>(null);
  if (queuedCues !== lastQueued) {
    setLastQueued(queuedCues);
    // Gone from the outbox: sent (a refusal comes back as the draft, shown over this).
    if (!queuedCues && lastQueued) setSentCues(lastQueued);
  }
  const saved = useMemo(() => {
    const cues = queuedCues ?? sentCues ?? (loaded.kind === 'saved' ? loaded.transcript.Cues : []);
    return toDraft(cues.map(cueFromWire));
  }, [loaded, queuedCues, sentCues]);
  // Every cue list this section has seen waiting to be sent: the versions of the transcript that are
  // its own edits (compared as cues, whatever order the server keeps a cue's fields in).
  const ours = useRef(new Set<string>());
  useEffect(() => {
    if (queuedCues) ours.current.add(cuesKey(queuedCues));
  }, [queuedCues]);
  // Something to show as the transcript: until then the section says it is loading, needs the
  // network or could not load. Once there is, loading it again (after an edit is sent, after a
  // transcription) happens behind the cues shown, never in their place.
  const showing = draft !== null || queuedCues !== null || sentCues !== null || isKnown(loaded);
  const shown = draft ?? saved;
  const dirty = draft !== null && !sameDraft(draft, saved);
  useUnsavedGuard('transcript', dirty);

  // Loaded again over a transcript already shown, that one stays until the answer; a failed reload
  // keeps it too (the next Save is checked against the server's version, a refusal shown here).
  const load = useCallback(async () => {
    setLoaded((l) => (isKnown(l) ? l : { kind: 'loading' }));
    const res = await owner.get(id);
    if (res.kind === 'ok' || res.kind === 'notFound') setSentCues(null);
    setLoaded((l) => (res.kind === 'ok' ? { kind: 'saved', transcript: res.data } : res.kind === 'notFound' ? { kind: 'none' } : isKnown(l) ? l : { kind: 'failed' }));
  }, [owner, id]);

  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  // Sent: the server's transcript as it now is (its new ModifiedAtUtc is the next edit's base).
  const wasPending = useRef(queued.pending);
  useEffect(() => {
    if (wasPending.current && !queued.pending && online) void load();
    wasPending.current = queued.pending;
  }, [queued.pending, online, load]);

  // Refused: the edit comes back as the draft, its problems at the cues they name.
  const refusedItem = queued.refused[queued.refused.length - 1];
  const refusalText = queued.refusal;
  // Once per refusal (its id): a later change of the local database does not undo the user's typing.
  const refusedId = refusedItem?.id;
  const refusedRef = useRef(refusedItem);
  refusedRef.current = refusedItem;
  useEffect(() => {
    const refusedItem = refusedRef.current;
    if (!refusedItem) return;
    const cues = (refusedItem.mutation.args as { Cues?: TranscriptCueWire[] }).Cues;
    if (cues) setDraft(toDraft(cues.map(cueFromWire)));
    const next: Problems = { cues: {} };
    for (const error of refusedItem.errors) {
      const cue = /^Cues\.(\d+)(?:\.(\w+))?$/.exec(error.Field);
      if (cue) next.cues[Number(cue[1])] = { [cue[2] === 'StartSeconds' ? 'start' : 'text']: refusedFieldText(error, owner.entity) };
      else next.form ??= refusedFieldText(error, owner.entity);
    }
    if (refusedItem.errors.length === 0 && refusalText) next.form = refusalText;
    setProblems(next);
    // "Changed elsewhere" when what changed it is this section's own earlier edit: sent, but not yet
    // loaded back before this one was made on it (the connection went in between). The server's
    // version is then one made here, so saving over it loses nothing of anyone else's: the edit is
    // saved again on it rather than shown as a conflict.
    if (refusedItem.httpStatus === 409 && cues) {
      void (async () => {
        const res = await owner.get(id);
        if (res.kind !== 'ok' || !ours.current.has(cuesKey(res.data.Cues))) return;
        setSentCues(null);
        setLoaded({ kind: 'saved', transcript: res.data });
        if (!(await savedLocally(owner.save(id, cues, res.data.ModifiedAtUtc)))) return;
        await savedLocally(dismissNeedsAttention(refusedItem.id));
        setDraft(null);
        setProblems({ cues: {} });
      })();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refusalText is refusedItem's own wording
  }, [refusedId]);

  /** Drops the refused edits (a new save or a discard answers them). */
  const answerRefusals = () => {
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
  };

  const edit = (index: number, change: Partial<DraftCue>) => {
    setDraft(shown.map((c, i) => (i === index ? { ...c, ...change } : c)));
    setProblems((p) => ({ ...p, cues: { ...p.cues, [index]: {} } }));
  };

  /** The section's player from cue `index`'s start (as typed: a start that is not a time is refused there). */
  const playFrom = (index: number) => {
    const start = parseTimestamp(shown[index]?.start ?? '');
    const audio = player.current;
    if (start === null) return setProblems({ cues: { [index]: { start: m.clips_transcript_start_invalid() } } });
    if (!audio) return;
    audio.currentTime = onPublishedTimeline(start, { introSeconds });
    setPlaying(index);
    // A browser that refuses to play (no user gesture, no audio yet) leaves the player where it was put.
    void Promise.resolve()
      .then(() => audio.play())
      .catch(() => undefined);
  };

  /** Cue `index` split at the text's cursor, or joined with the next: on the cues as typed (a
   *  start that is not a time is refused at that cue first), the rule's refusal at the cue's text. */
  const reshape = (index: number, change: (cues: TranscriptCue[]) => { ok: true; cues: TranscriptCue[] } | { ok: false; error: Parameters<typeof formatFormError>[0] }) => {
    const read = cuesOf(shown);
    if ('badStart' in read) return setProblems({ cues: { [read.badStart]: { start: m.clips_transcript_start_invalid() } } });
    const next = change(read.cues);
    if (!next.ok) return setProblems({ cues: { [index]: { text: formatFormError(next.error) } } });
    setProblems({ cues: {} });
    setDraft(toDraft(next.cues));
  };

  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const text = await file.text();
    const read = parseTranscript(text, detectTranscriptFormat(text, { fileName: file.name, contentType: file.type }));
    if (!read.ok) return setProblems({ cues: {}, file: formatFormError(read.error) });
    setProblems({ cues: {} });
    setDraft(toDraft(read.cues));
  };

  const save = async () => {
    const read = cuesOf(shown);
    if ('badStart' in read) return setProblems({ cues: { [read.badStart]: { start: m.clips_transcript_start_invalid() } } });
    const checked = checkCues(read.cues);
    if (!checked.ok) {
      const at = checked.cue;
      // A time's problem at the cue's start (its end is not edited here), any other at its text.
      const timing = checked.error.message === 'domain_transcript_reversed' || checked.error.message === 'domain_transcript_bad_time';
      return setProblems(at === undefined ? { cues: {}, form: formatFormError(checked.error) } : { cues: { [at]: { [timing ? 'start' : 'text']: formatFormError(checked.error) } } });
    }
    // On the transcript as the server last gave it: a refused edit saved again goes over the one
    // the server has now, as the refusal offered.
    const base = loaded.kind === 'saved' ? loaded.transcript.ModifiedAtUtc : null;
    setBusy(true);
    const ok = await savedLocally(owner.save(id, checked.cues.map(cueToWire), base));
    setBusy(false);
    if (!ok) return;
    answerRefusals();
    setDraft(null);
    setProblems({ cues: {} });
    showToast({ type: 'success', title: online ? m.clips_transcript_saved() : m.clips_transcript_saved_on_device() });
  };

  const discard = () => {
    answerRefusals();
    setDraft(null);
    setProblems({ cues: {} });
  };

  const setPublished = async (published: boolean) => {
    if (loaded.kind !== 'saved' || !owner.setPublished) return;
    const before = loaded;
    // The box shows the choice at once; a refusal puts it back and says why.
    setLoaded({ kind: 'saved', transcript: { ...before.transcript, Published: published } });
    setBusy(true);
    const res = await owner.setPublished(id, before.transcript.Cues, published);
    setBusy(false);
    if (res.kind === 'ok') return setLoaded({ kind: 'saved', transcript: res.data });
    setLoaded(before);
    setProblems((p) => ({ ...p, form: res.kind === 'error' ? m.clips_transcript_offline() : m.clips_transcript_save_failed() }));
  };

  const remove = async () => {
    const res = await owner.remove(id);
    if (res.kind !== 'ok' && res.kind !== 'notFound') throw new Error(res.kind === 'error' ? m.clips_transcript_offline() : m.clips_transcript_delete_failed());
    setSentCues(null);
    setLoaded({ kind: 'none' });
    setDraft(null);
    setProblems({ cues: {} });
  };

  /** Back to the cues as first imported (or transcribed): the server's, so online only. */
  const resetToImported = async () => {
    const res = await owner.reset(id);
    if (res.kind !== 'ok') throw new Error(res.kind === 'error' ? m.transcripts_reset_offline() : m.transcripts_reset_failed());
    setSentCues(null);
    setLoaded({ kind: 'saved', transcript: res.data });
    setDraft(null);
    setProblems({ cues: {} });
  };

  const exportAs = (format: TranscriptFormat) => {
    const read = cuesOf(shown);
    if ('badStart' in read) return setProblems({ cues: { [read.badStart]: { start: m.clips_transcript_start_invalid() } } });
    download(`${fileName}.${TRANSCRIPT_EXTENSIONS[format]}`, TRANSCRIPT_CONTENT_TYPES[format], writeTranscript(read.cues, format));
  };

  const publicUrl = loaded.kind === 'saved' && loaded.transcript.PublicUrl ? absoluteUrl(loaded.transcript.PublicUrl, window.location.origin) : null;

  return (
    <section className="card transcript" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.clips_transcript_title()}</h2>
      {!showing && !online && loaded.kind === 'loading' ? (
        <p className="muted" role="status">
          {m.clips_transcript_offline()}
        </p>
      ) : !showing && loaded.kind === 'loading' ? (
        <p className="muted">{m.clips_transcript_loading()}</p>
      ) : !showing && loaded.kind === 'failed' ? (
        <div className="alert alert-error" role="alert">
          <p>{m.clips_transcript_load_failed()}</p>
          <button type="button" className="button small" onClick={() => void load()}>
            {m.clips_transcript_retry()}
          </button>
        </div>
      ) : (
        <>
          {!online && <p className="muted">{owner.words.offlineEditing()}</p>}
          {queued.pending && (
            <p className="muted" role="status">
              {online ? m.clips_transcript_sending() : m.clips_transcript_waiting()}
            </p>
          )}
          <div className={`field${problems.file ? ' has-error' : ''}`}>
            <label htmlFor={`${headingId}-file`}>{m.clips_transcript_import()}</label>
            <input
              id={`${headingId}-file`}
              type="file"
              accept=".vtt,.srt,.json,text/vtt,application/x-subrip,application/json"
              aria-describedby={`${headingId}-file-hint${problems.file ? ` ${headingId}-file-error` : ''}`}
              {...(problems.file ? { 'aria-invalid': true } : {})}
              onChange={(e) => void importFile(e)}
            />
            <p className="field-hint" id={`${headingId}-file-hint`}>
              {m.clips_transcript_import_hint()}
            </p>
            {problems.file && (
              <p className="field-error" id={`${headingId}-file-error`} role="alert">
                {problems.file}
              </p>
            )}
          </div>
          {shown.length === 0 ? (
            <p className="muted">{owner.words.none()}</p>
          ) : (
            <>
            {audioUrl && (
              <audio
                ref={player}
                className="transcript-player"
                controls
                preload="none"
                src={audioUrl}
                aria-label={owner.words.player()}
                onTimeUpdate={(e) => setPlaying(cueAt(shown, onEpisodeTimeline(e.currentTarget.currentTime, { introSeconds })))}
              />
            )}
            <ol className="transcript-cues" aria-label={m.clips_transcript_cues({ count: shown.length })}>
              {shown.map((cue, i) => (
                <TranscriptCueRow
                  key={i}
                  index={i}
                  cue={cue}
                  last={i === shown.length - 1}
                  problems={problems.cues[i] ?? {}}
                  disabled={busy}
                  onChange={(change) => edit(i, change)}
                  onSplit={(at) => reshape(i, (cues) => splitCue(cues, i, at))}
                  onJoin={() => reshape(i, (cues) => joinCues(cues, i))}
                  current={playing === i}
                  {...(audioUrl ? { onPlay: () => playFrom(i) } : {})}
                />
              ))}
            </ol>
            </>
          )}
          {problems.form && (
            <p className="field-error" role="alert">
              {problems.form}
            </p>
          )}
          <div className="form-actions">
            {dirty && (
              <button type="button" className="button" disabled={busy} onClick={discard}>
                {m.clips_transcript_discard()}
              </button>
            )}
            <button type="button" className="button primary" disabled={!dirty || busy} onClick={() => void save()}>
              {m.clips_transcript_save()}
            </button>
          </div>
          {shown.length > 0 && (
            <div className="transcript-export" role="group" aria-label={m.clips_transcript_download()}>
              <span>{m.clips_transcript_download()}:</span>
              {TRANSCRIPT_FORMATS.map((format) => (
                <button key={format} type="button" className="button small" onClick={() => exportAs(format)}>
                  {FORMAT_LABEL[format]()}
                </button>
              ))}
            </div>
          )}
          {loaded.kind === 'saved' && (
            <div className="transcript-publish">
              {owner.setPublished && (
                <div className="field checkbox">
                  <input id={`${headingId}-publish`} type="checkbox" checked={loaded.transcript.Published} disabled={busy || !online || dirty || queued.pending} onChange={(e) => void setPublished(e.target.checked)} />
                  <label htmlFor={`${headingId}-publish`}>{m.clips_transcript_publish()}</label>
                </div>
              )}
              {publicUrl && (
                <p className="muted">
                  {m.clips_transcript_public_url()}: <a href={publicUrl}>{publicUrl}</a>
                </p>
              )}
              {loaded.transcript.Edited && (
                <button type="button" className="button small" disabled={busy || !online || dirty || queued.pending} onClick={() => setConfirmReset(true)}>
                  {m.transcripts_reset()}
                </button>
              )}
              <button type="button" className="button danger small" disabled={busy || !online || queued.pending} onClick={() => setConfirmDelete(true)}>
                {m.clips_transcript_delete()}
              </button>
            </div>
          )}
        </>
      )}
      {/* Below the cues it would replace; it says itself when it needs the network. */}
      <Transcription owner={owner} id={id} unavailable={transcriptionUnavailable} onCompleted={() => void load()} />
      <ConfirmDialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        danger
        title={m.clips_transcript_delete_title()}
        description={owner.words.deleteText()}
        actionLabel={m.clips_transcript_delete()}
        onConfirm={remove}
        successToast={m.clips_transcript_deleted()}
        failureDescription={m.clips_transcript_delete_failed()}
        failureReason={(error) => (error instanceof Error ? error.message : m.clips_transcript_delete_failed())}
      />
      <ConfirmDialog
        open={confirmReset}
        onClose={() => setConfirmReset(false)}
        title={m.transcripts_reset_title()}
        description={m.transcripts_reset_text()}
        actionLabel={m.transcripts_reset()}
        onConfirm={resetToImported}
        successToast={m.transcripts_reset_done()}
        failureDescription={m.transcripts_reset_failed()}
        failureReason={(error) => (error instanceof Error ? error.message : m.transcripts_reset_failed())}
      />
    </section>
  );
}

/** The cue being heard at `seconds` (the last one started by then), or null before the first. */
function cueAt(cues: readonly DraftCue[], seconds: number): number | null {
  let at: number | null = null;
  cues.forEach((c, i) => {
    const start = parseTimestamp(c.start);
    if (start !== null && start <= seconds && seconds < c.end) at = i;
  });
  return at;
}

type CueRowProps = {
  /** Heard now in the section's player. */
  current: boolean;
  /** Plays the clip from this cue's start (absent without audio). */
  onPlay?: () => void;
  index: number;
  cue: DraftCue;
  last: boolean;
  problems: { start?: string; text?: string };
  disabled: boolean;
  onChange: (change: Partial<DraftCue>) => void;
  /** Split at this character of the text (its field's cursor). */
  onSplit: (at: number) => void;
  onJoin: () => void;
};

function TranscriptCueRow({ index, cue, last, problems, disabled, onChange, onSplit, onJoin, current, onPlay }: CueRowProps) {
  const id = useId();
  const text = useRef<HTMLTextAreaElement>(null);
  const label = m.clips_transcript_cue({ number: index + 1 });
  const field = (name: 'start' | 'speaker' | 'text') => `${id}-${name}`;
  const described = (name: 'start' | 'text') => (problems[name] ? { 'aria-invalid': true, 'aria-describedby': `${field(name)}-error` } : {});
  return (
    <li className={`transcript-cue${current ? ' transcript-cue-current' : ''}`} aria-label={label} {...(current ? { 'aria-current': 'true' as const } : {})}>
      <div className={`field${problems.start ? ' has-error' : ''}`}>
        <label htmlFor={field('start')}>{m.clips_transcript_cue_start()}</label>
        <input id={field('start')} className="transcript-time" value={cue.start} disabled={disabled} inputMode="decimal" onChange={(e) => onChange({ start: e.target.value })} {...described('start')} />
        {problems.start && (
          <p className="field-error" id={`${field('start')}-error`}>
            {problems.start}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={field('speaker')}>{m.clips_transcript_cue_speaker()}</label>
        <input id={field('speaker')} value={cue.speaker} disabled={disabled} autoComplete="off" onChange={(e) => onChange({ speaker: e.target.value })} />
      </div>
      <div className={`field transcript-text${problems.text ? ' has-error' : ''}`}>
        <label htmlFor={field('text')}>{m.clips_transcript_cue_text()}</label>
        <textarea ref={text} id={field('text')} value={cue.text} rows={2} disabled={disabled} onChange={(e) => onChange({ text: e.target.value })} {...described('text')} />
        {problems.text && (
          <p className="field-error" id={`${field('text')}-error`}>
            {problems.text}
          </p>
        )}
      </div>
      <div className="transcript-cue-actions">
        {onPlay && (
          <button type="button" className="button small" aria-label={m.clips_transcript_play_cue({ number: index + 1, time: cue.start })} onClick={onPlay}>
            {m.clips_transcript_play()}
          </button>
        )}
        {/* The cursor is read as the button is pressed: a click keeps the text's selection. */}
        <button type="button" className="button small" disabled={disabled} aria-label={m.clips_transcript_split_cue({ number: index + 1 })} onMouseDown={(e) => e.preventDefault()} onClick={() => onSplit(text.current?.selectionStart ?? 0)}>
          {m.clips_transcript_split()}
        </button>
        {!last && (
          <button type="button" className="button small" disabled={disabled} aria-label={m.clips_transcript_join_cue({ number: index + 1, next: index + 2 })} onClick={onJoin}>
            {m.clips_transcript_join()}
          </button>
        )}
      </div>
    </li>
  );
}
