// The cut editor for the clip and recording screens: trim start and end, remove a selection,
// keep only a selection (a recording turned into a clip), by pointer and keyboard; numeric time
// entry of the selection (section 5's time strings with tenths: HH:MM:SS.s, M:SS.s, hours ≤ 99;
// readPreciseTime), each box saying what is wrong beside it; undo/redo; Play / Pause of the audio
// as it is (Space
// on the waveform), an instant crossfaded preview of the cut; Save hands the edit list to the
// screen: the clip screen queues PUT /internal/clips/{clipId}/cut through the outbox, the recording
// screen makes a new clip of the kept regions (saveLabel names that action). A new initialEdit
// (the server's cut arriving after the editor opened with the device's copy) replaces the cut
// shown only while the user has changed nothing.
//
//   idle ──Play──> playing (the playhead follows the file) ──Pause / end──> idle
//   idle ──Preview cut──> previewing (the playhead follows the preview) ──Stop / end──> idle
//   Either one stops the other.
import { useEffect, useId, useReducer, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { formatFormError } from '../../domain/messages.ts';
import { formatDuration, formatPreciseTime, readPreciseTime, validateTimeWithin } from '../../domain/time.ts';
import { m } from '../../paraglide/messages.js';
import { isMediaError, MediaErrorCode } from '../../media/errors.ts';
import { mediaFailureText } from '../../media/messages.ts';
import type { Region } from '../../media/cut.ts';
import type { Waveform } from '../../media/peaks.ts';
import { CROSSFADE_MS_DEFAULT, CROSSFADE_MS_MAX, CROSSFADE_MS_MIN, type CutEdit } from '../../protocol/media.ts';
import { sourceSecondsAt } from '../../media/cut-timeline.ts';
import { cutReducer, fromCutEdit, initialCut, keptSeconds, toCutEdit } from './cut-model.ts';
import type { PlainPlayer } from './plain-player.ts';
import type { PreviewPlayer } from './preview-player.ts';
import { WaveformView, type WaveformMarker } from './WaveformView.tsx';

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
  /** Points named on the waveform (a recording's annotations); each one seeks the player there. */
  markers?: readonly WaveformMarker[] | undefined;
  /** Points on the cut's OUTPUT (a clip's chapters and mid-rolls, on the episode's timeline): drawn
   *  where they fall in this audio under the cut as it is being edited, so cutting shows what moves. */
  outputMarkers?: readonly WaveformMarker[] | undefined;
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
  const [entryErrors, setEntryErrors] = useState<{ start?: string; end?: string }>({});
  const [crossfadeMs, setCrossfadeMs] = useState(initialEdit?.CrossfadeMs ?? CROSSFADE_MS_DEFAULT);
  const [playing, setPlaying] = useState(false);
  const player = useRef<PreviewPlayer | null>(null);
  const [listening, setListening] = useState(false);
  const plain = useRef<PlainPlayer | null>(null);
  const [playProblem, setPlayProblem] = useState<string | null>(null);
  const saveNoteId = useId();
  const entryId = useId();
  const startInput = useRef<HTMLInputElement>(null);
  const endInput = useRef<HTMLInputElement>(null);
  const { present } = history;
  // The output's points placed on this audio under the present cut; one cut away falls off the waveform.
  const shownMarkers = props.outputMarkers
    ? [
        ...(props.markers ?? []),
        ...props.outputMarkers.flatMap((k) => {
          const at = sourceSecondsAt(present.kept, crossfadeMs, k.seconds);
          return at === null ? [] : [{ ...k, seconds: at }];
        }),
      ]
    : props.markers;

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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new cut to open with resets the editor; the rest is read at that moment
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
  /** Play offline without a copy on the device: why, and when it will play. */
  const playFailureText = (e: unknown) =>
    isMediaError(e) && (e.code === MediaErrorCode.Offline || (props.offline === true && e.code === MediaErrorCode.Unreachable)) ? m.audio_play_not_on_device() : failureText(e);

  /** Play / Pause of the audio as it is, from the playhead (from the start once at the end). */
  const togglePlain = async () => {
    if (!createPlainPlayer) return;
    if (listening) return stopPlain();
    stopPreview();
    plain.current ??= createPlainPlayer({
      onEnded: () => setListening(false),
      onFailure: (e) => {
        setListening(false);
        setPlayProblem(playFailureText(e));
      },
    });
    setPlayProblem(null);
    setListening(true);
    try {
      await plain.current.play(position >= durationSeconds - 0.05 ? 0 : position);
    } catch (e) {
      setListening(false);
      setPlayProblem(playFailureText(e));
    }
  };

  const seek = (t: number) => {
    setPosition(t);
    if (listening) plain.current?.seek(t);
  };

  /** The selection, from the keyboard (I / O), the Mark buttons or a drag on the waveform. */
  const select = (next: Region) => {
    setSelection(next);
    setStartText(formatPreciseTime(next.start));
    setEndText(formatPreciseTime(next.end));
    setEntryErrors({});
  };
  const mark = (which: 'start' | 'end', t: number) =>
    select(which === 'start' ? { start: t, end: Math.max(t, selection?.end ?? durationSeconds) } : { start: Math.min(t, selection?.start ?? 0), end: t });

  /** A box's seconds, or what is wrong with it in words. A time past the end is refused with the
   *  end named, not moved to it without a word. */
  const readBox = (text: string): { seconds: number } | { error: string } => {
    const r = readPreciseTime(text);
    if (!r.ok) return { error: r.problem === 'shape' ? m.audio_time_invalid() : formatFormError(r.error) };
    const past = validateTimeWithin(r.seconds, durationSeconds, props.audioOf ?? 'clip');
    return past ? { error: formatFormError(past) } : { seconds: r.seconds };
  };

  const applyEntry = () => {
    const start = readBox(startText);
    const end = readBox(endText);
    const errors: { start?: string; end?: string } = {};
    if ('error' in start) errors.start = start.error;
    if ('error' in end) errors.end = end.error;
    else if ('seconds' in start && end.seconds <= start.seconds) errors.end = m.media_cut_selection_reversed();
    setEntryErrors(errors);
    // The first box in error takes the focus, so its message (aria-describedby) is read out.
    if (errors.start) return startInput.current?.focus();
    if (errors.end || !('seconds' in start) || !('seconds' in end)) return endInput.current?.focus();
    setSelection({ start: start.seconds, end: end.seconds });
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
        markers={shownMarkers}
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
      <p id={`${entryId}-hint`}>{m.audio_time_hint()}</p>
      {/* Aligned at the top: a box's message below it must not lift that box above the other. */}
      <form noValidate style={{ alignItems: 'flex-start' }} onSubmit={(e) => { e.preventDefault(); applyEntry(); }}>
        <TimeBox id={`${entryId}-start`} hintId={`${entryId}-hint`} label={m.media_cut_selection_start()} value={startText} onChange={setStartText} error={entryErrors.start} inputRef={startInput} />
        <TimeBox id={`${entryId}-end`} hintId={`${entryId}-hint`} label={m.media_cut_selection_end()} value={endText} onChange={setEndText} error={entryErrors.end} inputRef={endInput} />
        {/* Level with the boxes: below the labels' line (0.9rem × 1.5 + 0.3rem gap), centred on the 2.75rem box. */}
        <button type="submit" style={{ marginTop: 'calc(1.65rem + 0.25rem)' }}>{m.media_cut_set_selection()}</button>
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

/** One selection box: its label, and what is wrong with it right under it (announced, and named
 *  by the box's aria-describedby with the shared hint of the accepted forms). */
function TimeBox(props: { id: string; hintId: string; label: string; value: string; onChange: (text: string) => void; error: string | undefined; inputRef: RefObject<HTMLInputElement | null> }) {
  const errorId = `${props.id}-error`;
  return (
    <div className={`field${props.error ? ' has-error' : ''}`} style={{ marginBottom: 0 }}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        ref={props.inputRef}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        // No inputMode: a phone's numeric and decimal keypads have no colon.
        autoComplete="off"
        aria-invalid={props.error !== undefined}
        aria-describedby={props.error ? `${props.hintId} ${errorId}` : props.hintId}
      />
      {props.error && <p id={errorId} role="alert" className="field-error" style={{ maxWidth: '16rem' }}>{props.error}</p>}
    </div>
  );
}
