// A layer of editable markers over the waveform (issue 34): a clip's chapters, its ad breaks. It is
// a strip the width of the waveform's view; each marker is a flag in it (a line drawn down over the
// waveform when lineHeight is given) that the pointer drags and the keyboard moves. The screen keeps
// the markers; this layer only says what the user asked for (onSelect, onMove, onAdd, onRemove).
//
// Each flag is a slider (role="slider": its value is the marker's time, which the arrows change),
// named "Chapter 2, Intro, at 1:05", in time order, so Tab walks the markers along the audio.
// Focusing a flag selects its marker. Keys on a flag, as the waveform's (WaveformView):
//   ← / → (↓ / ↑)  move by 1 s (Shift: 10 s)   Home / End  to the start / end of the audio
//   Delete / Backspace  remove it (the focus goes to its neighbour)   M  add a marker at the playhead
//   Escape during a drag  put it back where the drag began
// M works on any flag and on the strip itself (focusable while it is empty), and the screen can
// give the same key to its waveform with isMarkerAddKey. The shortcuts list (ShortcutsDialog) says so.
//
// Pointer (mouse, pen, touch): a press on a flag selects it, a drag moves it (touch-action none on
// the flags, so a finger drags rather than scrolls); a double click on the strip adds a marker there.
// Times are kept to a tenth of a second.
//
// The strip spans the whole audio unless `view` says which part the waveform shows (zoomed);
// flags outside the view stay in the tab order, clipped by the strip.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatDuration } from '../../domain/time.ts';
import { m } from '../../paraglide/messages.js';

/** What a marker marks: its accessible name and colour follow it. */
export type WaveformMarkerKind = 'chapter' | 'ad';

export type EditableMarker = {
  id: string;
  seconds: number;
  /** The marker's words (a chapter's title); read out in its name. */
  label: string;
  kind: WaveformMarkerKind;
};

export type WaveformMarkersProps = {
  durationSeconds: number;
  markers: readonly EditableMarker[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** A marker moved, as it is dragged and once per key press (seconds within [0, duration]). */
  onMove: (id: string, seconds: number) => void;
  /** Add a marker at this time (M at the playhead, a double click on the strip); none: no adding. */
  onAdd?: ((seconds: number) => void) | undefined;
  /** Remove a marker (Delete); none: no removing here. */
  onRemove?: ((id: string) => void) | undefined;
  /** Where M adds a marker; none: M does nothing. */
  playheadSeconds?: number | undefined;
  /** The strip's name (the group), e.g. "Chapters". */
  label: string;
  /** The part of the audio the strip spans (the waveform's view when zoomed); default the whole. */
  view?: { startSeconds: number; endSeconds: number } | undefined;
  /** Height (CSS px) of the line each marker draws down over the waveform under the strip; none: no line. */
  lineHeight?: number | undefined;
};

/** Height of the strip of flags (CSS px): a 24 px target (WCAG 2.5.8) and its margin. */
export const MARKER_STRIP_PX = 28;
/** Pointer movement (CSS px) that turns a press into a drag, as on the waveform. */
const DRAG_PX = 4;

/** The key that adds a marker at the playhead (M, no modifier), for a screen's other elements too. */
export function isMarkerAddKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): boolean {
  return e.key.toLowerCase() === 'm' && !e.ctrlKey && !e.metaKey && !e.altKey;
}

/** A time kept to a tenth of a second, inside the audio. */
export function clampMarkerSeconds(seconds: number, durationSeconds: number): number {
  return Math.min(Math.max(0, Math.round(seconds * 10) / 10), Math.max(0, durationSeconds));
}

/** "Chapter 2, Intro, at 1:05": the kind, its place among that kind's markers, the words and the time. */
export function markerName(marker: EditableMarker, ordinal: number): string {
  const time = formatDuration(marker.seconds);
  const label = marker.label.trim() || m.audio_marker_untitled();
  return marker.kind === 'ad' ? m.audio_marker_ad_name({ n: ordinal, label, time }) : m.audio_marker_chapter_name({ n: ordinal, label, time });
}

export function WaveformMarkers(props: WaveformMarkersProps) {
  const { durationSeconds, markers, selectedId, onSelect, onMove, onAdd, onRemove, playheadSeconds } = props;
  const stripRef = useRef<HTMLDivElement>(null);
  const flagRefs = useRef(new Map<string, HTMLElement>());
  const drag = useRef<{ id: string; pointerId: number; startX: number; from: number; moved: boolean } | null>(null);
  // After a removal by keyboard, the neighbour that takes the focus once the marker is gone.
  const [focusNext, setFocusNext] = useState<string | null>(null);

  const viewStart = props.view?.startSeconds ?? 0;
  const viewEnd = props.view?.endSeconds ?? durationSeconds;
  const span = Math.max(viewEnd - viewStart, 1e-9);
  const sorted = [...markers].sort((a, b) => a.seconds - b.seconds || a.id.localeCompare(b.id));
  const ordinals = new Map<string, number>();
  const counts: Record<string, number> = {};
  for (const k of sorted) ordinals.set(k.id, (counts[k.kind] = (counts[k.kind] ?? 0) + 1));

  useEffect(() => {
    if (focusNext === null) return;
    (flagRefs.current.get(focusNext) ?? stripRef.current)?.focus();
    setFocusNext(null);
  }, [focusNext, markers]);

  /** The time under a pointer at clientX. */
  const secondsAt = (clientX: number) => {
    const rect = stripRef.current?.getBoundingClientRect();
    if (!rect || rect.width <= 0) return 0;
    return clampMarkerSeconds(viewStart + ((clientX - rect.left) / rect.width) * span, durationSeconds);
  };

  const addAtPlayhead = (e: KeyboardEvent) => {
    if (!onAdd || playheadSeconds === undefined || !isMarkerAddKey(e)) return false;
    e.preventDefault();
    onAdd(clampMarkerSeconds(playheadSeconds, durationSeconds));
    return true;
  };

  const onFlagKeyDown = (e: KeyboardEvent, k: EditableMarker) => {
    const step = e.shiftKey ? 10 : 1;
    let to: number | null = null;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') to = k.seconds - step;
    else if (e.key === 'ArrowRight' || e.key === 'ArrowUp') to = k.seconds + step;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = durationSeconds;
    else if (e.key === 'Escape' && drag.current?.id === k.id) {
      e.preventDefault();
      onMove(k.id, drag.current.from);
      drag.current = null;
      return;
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && onRemove) {
      e.preventDefault();
      const i = sorted.findIndex((x) => x.id === k.id);
      const neighbour = sorted[i + 1] ?? sorted[i - 1];
      onRemove(k.id);
      setFocusNext(neighbour?.id ?? '');
      return;
    } else {
      addAtPlayhead(e);
      return;
    }
    e.preventDefault();
    // The strip's own keys are handled here, not also by a waveform or form around it.
    e.stopPropagation();
    const next = clampMarkerSeconds(to, durationSeconds);
    if (next !== k.seconds) onMove(k.id, next);
  };

  const onFlagPointerDown = (e: PointerEvent, k: EditableMarker) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    drag.current = { id: k.id, pointerId: e.pointerId, startX: e.clientX, from: k.seconds, moved: false };
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    onSelect(k.id);
  };
  const onFlagPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    if (!d.moved && Math.abs(e.clientX - d.startX) < DRAG_PX) return;
    d.moved = true;
    onMove(d.id, secondsAt(e.clientX));
  };
  const onFlagPointerUp = (e: PointerEvent) => {
    if (drag.current?.pointerId === e.pointerId) drag.current = null;
  };

  return (
    <div
      ref={stripRef}
      role="group"
      aria-label={props.label}
      className="waveform-markers waveform-markers-editable"
      // Focusable only while empty, so M can add the first marker; with flags, Tab goes to them.
      tabIndex={sorted.length === 0 && onAdd && playheadSeconds !== undefined ? 0 : undefined}
      onKeyDown={(e) => {
        if (e.target === e.currentTarget) addAtPlayhead(e);
      }}
      onDoubleClick={(e) => {
        if (e.target === e.currentTarget && onAdd) onAdd(secondsAt(e.clientX));
      }}
      style={{ position: 'relative', width: '100%', height: MARKER_STRIP_PX, overflow: props.lineHeight ? 'visible' : 'clip' }}
    >
      {sorted.map((k) => {
        const x = ((k.seconds - viewStart) / span) * 100;
        const selected = k.id === selectedId;
        const name = markerName(k, ordinals.get(k.id) ?? 0);
        return (
          <div
            key={k.id}
            ref={(el) => {
              if (el) flagRefs.current.set(k.id, el);
              else flagRefs.current.delete(k.id);
            }}
            role="slider"
            tabIndex={0}
            className={`waveform-marker waveform-marker-${k.kind}${selected ? ' is-selected' : ''}`}
            aria-label={name}
            aria-valuemin={0}
            aria-valuemax={durationSeconds}
            aria-valuenow={k.seconds}
            aria-valuetext={formatDuration(k.seconds)}
            aria-current={selected ? 'true' : undefined}
            data-marker-id={k.id}
            data-seconds={k.seconds}
            title={name}
            onFocus={() => {
              if (!selected) onSelect(k.id);
            }}
            onKeyDown={(e) => onFlagKeyDown(e, k)}
            onPointerDown={(e) => onFlagPointerDown(e, k)}
            onPointerMove={onFlagPointerMove}
            onPointerUp={onFlagPointerUp}
            onPointerCancel={onFlagPointerUp}
            style={{
              position: 'absolute',
              top: 0,
              // The flag's left edge is the marker's time; one at the very end stays inside the strip.
              left: `min(${x}%, calc(100% - 24px))`,
              minWidth: 24,
              height: 24,
              maxWidth: '12rem',
              padding: '0 0.3rem',
              overflow: 'hidden',
              whiteSpace: 'nowrap',
              textOverflow: 'ellipsis',
              fontSize: '0.75rem',
              lineHeight: '24px',
              borderLeft: '2px solid var(--brand)',
              background: selected ? 'var(--brand)' : 'var(--neutral-soft)',
              color: selected ? 'var(--on-brand, #fff)' : 'inherit',
              cursor: 'grab',
              touchAction: 'none',
              zIndex: selected ? 2 : 1,
            }}
          >
            <span aria-hidden="true">{ordinals.get(k.id)} {k.label}</span>
          </div>
        );
      })}
      {props.lineHeight !== undefined &&
        sorted.map((k) => (
          <span
            key={`line-${k.id}`}
            aria-hidden="true"
            className="waveform-marker-line"
            style={{ position: 'absolute', left: `${((k.seconds - viewStart) / span) * 100}%`, top: MARKER_STRIP_PX, height: props.lineHeight, borderLeft: '2px solid var(--brand)', pointerEvents: 'none' }}
          />
        ))}
    </div>
  );
}
