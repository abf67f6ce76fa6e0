// The cut editor for the clip and recording screens: trim start and end, remove a selection,
// keep only a selection (a recording turned into a clip), by pointer and keyboard; numeric time
// entry (HH:MM:SS, hours ≤ 99, section 5); undo/redo; Play / Pause of the audio as it is (Space
// on the waveform), an instant crossfaded preview of the cut; Save hands the edit list to the
// screen: the clip screen queues PUT /internal/clips/{clipId}/cut through the outbox, the recording
// screen makes a new clip of the kept regions (saveLabel names that action). A new initialEdit
// (the server's cut arriving after the editor opened with the device's copy) replaces the cut
// shown only while the user has changed nothing.
//
//   idle ──Play──> playing (the playhead follows the file) ──Pause / end──> idle
//   idle ──Preview cut──> previewing (the playhead follows the preview) ──Stop / end──> idle
//   Either one stops the other.
import { useEffect, useId, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { formatFormError } from '../../domain/messages.ts';
import { formatDuration, formatTimeEntry, parseTimeEntry, validateTimeEntry, validateTimeWithin } from '../../domain/time.ts';
import { m } from '../../paraglide/messages.js';
import { mediaFailureText } from '../../media/messages.ts';
import type { Region } from '../../media/cut.ts';
import type { Waveform } from '../../media/peaks.ts';
import { CROSSFADE_MS_DEFAULT, CROSSFADE_MS_MAX, CROSSFADE_MS_MIN, type CutEdit } from '../../protocol/media.ts';
import { cutReducer, fromCutEdit, initialCut, keptSeconds, toCutEdit } from './cut-model.ts';
import type { PlainPlayer } from './plain-player.ts';
import type { PreviewPlayer } from './preview-player.ts';
import { WaveformView } from './WaveformView.tsx';

export type CutEditorProps = {
  waveforms: readonly Waveform[];
  durationSeconds: number;
  initialEdit?: CutEdit | null;
  onSave: (edit: CutEdit) => void;
  /** Makes the preview player (the screen passes createPreviewPlayer(audioUrl)); none: no preview. */
  createPlayer?: ((events: { onFailure: (e: unknown) => void }) => PreviewPlayer) | undefined;
  /** Makes the player of the audio as it is (createPlainPlayer(audioUrl)); none: no Play button. */
  createPlainPlayer?: ((events: { onEnded: () => void; onFailure: (e: unknown) => void }) => PlainPlayer) | undefined;
  /** The app knows the device is offline (a failure to reach the server is then "not offline yet"). */
  offline?: boolean;
  /** The save button's words (default "Save cut"). */
  saveLabel?: string;
  /** Said beside the save button (offline: where the shown cut comes from, and what Save does). */
  saveNote?: string;
  /** Renders the cut as a WAV (the decode worker's renderWav); none: no WAV button. */
  renderWav?: ((kept: Region[], crossfadeMs: number, onProgress: (fraction: number) => void) => Promise<Blob>) | undefined;
  /** Whose audio this is: a typed time past its end says 'The clip ends at …' or 'The recording ends at …'. */
  audioOf?: 'clip' | 'recording';
  width?: number;
};

export function CutEditor(props: CutEditorProps) {
  const { waveforms, durationSeconds, initialEdit, onSave, createPlayer, createPlainPlayer, renderWav } = props;
  const [history, dispatch] = useReducer(cutReducer, null, () =>
    initialEdit ? fromCutEdit(initialEdit, durationSeconds) : initialCut(durationSeconds),
  );
  const [position, setPosition] = useState(0);
  const [selection, setSelection] = useState<Region | null>(null);
  const [startText, setStartText] = useState('');
  const [endText, setEndText] = useState('');
  const [entryError, setEntryError] = useState<string | null>(null);
  const [crossfadeMs, setCrossfadeMs] = useState(initialEdit?.CrossfadeMs ?? CROSSFADE_MS_DEFAULT);
  const [playing, setPlaying] = useState(false);
  const player = useRef<PreviewPlayer | null>(null);
  const [listening, setListening] = useState(false);
  const plain = useRef<PlainPlayer | null>(null);
  const [playProblem, setPlayProblem] = useState<string | null>(null);
  const saveNoteId = useId();
  const { present } = history;

  // The cut to open with changed after opening: taken unless the user has edited already.
  const opened = useRef(initialEdit);
  const crossfadeOpened = useRef(crossfadeMs);
  useEffect(() => {
    if (opened.current === initialEdit) return;
    opened.current = initialEdit;
    if (history.past.length > 0 || history.future.length > 0 || crossfadeMs !== crossfadeOpened.current) return;
    const next = initialEdit ? fromCutEdit(initialEdit, durationSeconds) : initialCut(durationSeconds);
    dispatch({ type: 'reset', duration: durationSeconds, kept: next.present.kept });
    const fade = initialEdit?.CrossfadeMs ?? CROSSFADE_MS_DEFAULT;
    crossfadeOpened.current = fade;
    setCrossfadeMs(fade);
  }, [initialEdit]);

  useEffect(() => () => {
    player.current?.dispose();
    plain.current?.dispose();
  }, []);
  useEffect(() => {
    if (!playing) return;
    const id = setInterval(() => {
      const p = player.current?.position();
      if (p === null || p === undefined) setPlaying(player.current?.scheduled().length ? playing : false);
      else setPosition(p);
    }, 50);
    return () => clearInterval(id);
  }, [playing]);
  useEffect(() => {
    if (!listening) return;
    const id = setInterval(() => {
      if (plain.current) setPosition(plain.current.position());
    }, 50);
    return () => clearInterval(id);
  }, [listening]);

  const stopPlain = () => {
    plain.current?.pause();
    setListening(false);
  };
  const stopPreview = () => {
    player.current?.stop();
    setPlaying(false);
  };

  const failureText = (e: unknown) => mediaFailureText(e, undefined, { deviceOffline: props.offline === true });

  /** Play / Pause of the audio as it is, from the playhead (from the start once at the end). */
  const togglePlain = async () => {
    if (!createPlainPlayer) return;
    if (listening) return stopPlain();
    stopPreview();
    plain.current ??= createPlainPlayer({
      onEnded: () => setListening(false),
      onFailure: (e) => {
        setListening(false);
        setPlayProblem(failureText(e));
      },
    });
    setPlayProblem(null);
    setListening(true);
    try {
      await plain.current.play(position >= durationSeconds - 0.05 ? 0 : position);
    } catch (e) {
      setListening(false);
      setPlayProblem(failureText(e));
    }
  };

  const seek = (t: number) => {
    setPosition(t);
    if (listening) plain.current?.seek(t);
  };

  /** The selection, from the keyboard (I / O), the Mark buttons or a drag on the waveform. */
  const select = (next: Region) => {
    setSelection(next);
    setStartText(formatTimeEntry(next.start));
    setEndText(formatTimeEntry(next.end));
    setEntryError(null);
  };
  const mark = (which: 'start' | 'end', t: number) =>
    select(which === 'start' ? { start: t, end: Math.max(t, selection?.end ?? durationSeconds) } : { start: Math.min(t, selection?.start ?? 0), end: t });

  const applyEntry = () => {
    const e1 = validateTimeEntry(startText, { required: true });
    const e2 = validateTimeEntry(endText, { required: true });
    if (e1 || e2) return setEntryError(formatFormError((e1 ?? e2)!));
    const s = parseTimeEntry(startText)!;
    const e = parseTimeEntry(endText)!;
    // A time past the end is refused with the end named, not moved to it without a word.
    const past = validateTimeWithin(s, durationSeconds, props.audioOf ?? 'clip') ?? validateTimeWithin(e, durationSeconds, props.audioOf ?? 'clip');
    if (past) return setEntryError(formatFormError(past));
    if (e <= s) return setEntryError(m.media_cut_selection_reversed());
    setEntryError(null);
    setSelection({ start: s, end: e });
  };

  const preview = async () => {
    if (!createPlayer) return;
    player.current ??= createPlayer({
      onFailure: (e) => {
        setPlaying(false);
        setPlayProblem(failureText(e));
      },
    });
    if (playing) return stopPreview();
    stopPlain();
    // From the playhead when it is before the end of what is kept, else from the start.
    const lastEnd = present.kept.at(-1)?.end ?? 0;
    setPlayProblem(null);
    try {
      await player.current.play(present.kept, crossfadeMs, position < lastEnd ? position : 0);
      setPlaying(true);
    } catch (e) {
      setPlayProblem(failureText(e));
    }
  };

  // A WAV of the preview on request, downloaded when rendered.
  const [wavProgress, setWavProgress] = useState<number | null>(null);
  const [wavProblem, setWavProblem] = useState<string | null>(null);
  const saveWav = async () => {
    if (!renderWav || wavProgress !== null) return;
    setWavProgress(0);
    setWavProblem(null);
    try {
      const blob = await renderWav(present.kept, crossfadeMs, setWavProgress);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'cut-preview.wav';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      setWavProblem(failureText(e));
    } finally {
      setWavProgress(null);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'z') {
      e.preventDefault();
      dispatch({ type: e.shiftKey ? 'redo' : 'undo' });
    } else if (mod && e.key.toLowerCase() === 'y') {
      e.preventDefault();
      dispatch({ type: 'redo' });
    }
  };

  return (
    <section className="cut-editor" aria-label={m.media_cut_editor_label()} onKeyDown={onKeyDown}>
      <WaveformView
        waveforms={waveforms}
        durationSeconds={durationSeconds}
        position={position}
        onSeek={seek}
        {...(createPlainPlayer ? { onTogglePlay: () => void togglePlain() } : {})}
        kept={present.kept}
        selection={selection}
        onMark={mark}
        onSelect={select}
        following={listening || playing}
        {...(props.width !== undefined ? { width: props.width } : {})}
      />
      <p>{m.media_cut_mark_hint()}</p>
      <p>{m.media_cut_drag_hint()}</p>
      <div role="toolbar" aria-label={m.media_cut_editor_label()}>
        {createPlainPlayer && (
          <button type="button" onClick={() => void togglePlain()}>{listening ? m.media_pause() : m.media_play()}</button>
        )}
        <button type="button" onClick={() => mark('start', position)}>{m.media_cut_mark_start()}</button>
        <button type="button" onClick={() => mark('end', position)}>{m.media_cut_mark_end()}</button>
        <button type="button" onClick={() => dispatch({ type: 'trimStart', at: position })}>{m.media_cut_trim_start()}</button>
        <button type="button" onClick={() => dispatch({ type: 'trimEnd', at: position })}>{m.media_cut_trim_end()}</button>
        <button type="button" disabled={!selection} onClick={() => selection && dispatch({ type: 'remove', start: selection.start, end: selection.end })}>{m.media_cut_remove()}</button>
        <button type="button" disabled={!selection} onClick={() => selection && dispatch({ type: 'keepOnly', start: selection.start, end: selection.end })}>{m.media_cut_keep()}</button>
        <button type="button" disabled={history.past.length === 0} onClick={() => dispatch({ type: 'undo' })}>{m.media_cut_undo()}</button>
        <button type="button" disabled={history.future.length === 0} onClick={() => dispatch({ type: 'redo' })}>{m.media_cut_redo()}</button>
        {createPlayer && (
          <button type="button" aria-pressed={playing} onClick={() => void preview()}>{playing ? m.media_cut_stop() : m.media_cut_preview()}</button>
        )}
        <button type="button" onClick={() => onSave(toCutEdit(present, crossfadeMs))} aria-describedby={props.saveNote ? saveNoteId : undefined}>{props.saveLabel ?? m.media_cut_save()}</button>
        {renderWav && (
          <button type="button" disabled={wavProgress !== null} onClick={() => void saveWav()}>{m.media_cut_save_wav()}</button>
        )}
      </div>
      {props.saveNote && <p id={saveNoteId} role="status" className="muted">{props.saveNote}</p>}
      {wavProgress !== null && <p role="status">{m.media_cut_rendering_wav({ percent: Math.round(wavProgress * 100) })}</p>}
      {wavProblem && <p role="alert">{wavProblem}</p>}
      {playProblem && <p role="alert">{playProblem}</p>}
      <form onSubmit={(e) => { e.preventDefault(); applyEntry(); }}>
        <label>
          {m.media_cut_selection_start()}
          <input value={startText} onChange={(e) => setStartText(e.target.value)} inputMode="numeric" aria-invalid={entryError !== null} />
        </label>
        <label>
          {m.media_cut_selection_end()}
          <input value={endText} onChange={(e) => setEndText(e.target.value)} inputMode="numeric" aria-invalid={entryError !== null} />
        </label>
        <button type="submit">{m.media_cut_set_selection()}</button>
        {entryError && <p role="alert">{entryError}</p>}
      </form>
      <label>
        {m.media_cut_crossfade({ ms: crossfadeMs })}
        <input type="range" min={CROSSFADE_MS_MIN} max={CROSSFADE_MS_MAX} step={1} value={crossfadeMs} onChange={(e) => setCrossfadeMs(Number(e.target.value))} />
      </label>
      <p aria-live="polite">
        {selection ? m.media_selection_text({ start: formatDuration(selection.start), end: formatDuration(selection.end) }) + ' · ' : ''}
        {m.media_cut_kept_summary({ duration: formatDuration(keptSeconds(present)), count: present.kept.length })}
      </p>
    </section>
  );
}
