// The waveform: a canvas of min/max peaks with a playhead (an OffscreenCanvas painted by a worker,
// workers/audio/waveform-draw.worker.ts, where the browser has one), zoomable from the whole episode down
// to single words, scrollable, and a keyboard-operable slider (role="slider") whose value is the
// playhead time, read out as "1:23 of 12:00".
//   ← / →  ±1 s (Shift: ±10 s)   Page Up / Page Down  ±1 min   Home / End
//   + / −  zoom in / out   0  whole episode   I / O  mark selection start / end (via onMark)
//   Space  play / pause (via onTogglePlay)
//
// Pointer (mouse, pen, touch): a tap seeks; a drag selects from where it began (via onSelect).
// Scrolling is the browser's own: the slider is a horizontal scroller over a canvas that stays in
// place (position: sticky), so a trackpad, a wheel or a finger moves the view where the user puts
// it. On a touch screen a horizontal drag must both scroll (zoomed in) and select, so the waveform
// is split: a drag on its upper half scrolls (touch-action pan-x pan-y, the browser pans), a drag
// on its lower half selects (touch-action none there, marked by a faint band). A mouse drag selects
// anywhere. A long press was the other choice, but it fights the browser's own long-press menu and
// cannot be seen; the band can.
//
// The view follows the playhead only while the audio plays (`following`) or right after a seek
// (keyboard, tap, a typed time): a scroll that leaves the playhead off screen stays where it was put.
//
// Markers (a recording's annotations) are drawn as a line across the waveform and a flag above it.
// The flags are buttons in a strip outside the slider (a slider's content is not operable), in time
// order: a click, Enter or Space seeks the player to the marker's time. Flags of markers outside the
// view stay in the tab order, clipped by the strip; focusing one scrolls the view to it, so Tab walks
// the annotations along the waveform.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { formatDuration } from '../../domain/time.ts';
import { m } from '../../paraglide/messages.js';
import type { Region } from '../../media/cut.ts';
import type { Waveform } from '../../media/peaks.ts';
import { waveformPainter, type WaveformPainter } from '../../../workers/audio/waveform-canvas.ts';
import { LIGHT_WAVEFORM_COLORS, type WaveformColors } from '../../media/waveform-draw.ts';
import { useDocumentTheme } from '../../lib/theme.ts';
import { clampZoom, columns, levelFor, wholeViewSpp, ZOOM_STEP } from './waveform-model.ts';

/** Pointer movement (CSS px) that turns a press into a drag; less is a tap. */
const DRAG_PX = 4;

/** A point of the audio named on the waveform (an annotation); `label` is read out and shown on hover. */
export type WaveformMarker = { id: string; seconds: number; label: string };

/** Height of the markers' strip of flags (CSS px): a 24 px target (WCAG 2.5.8) and its margin. */
const MARKER_STRIP_PX = 28;

export type WaveformViewProps = {
  waveforms: readonly Waveform[];
  durationSeconds: number;
  position: number;
  onSeek: (seconds: number) => void;
  /** Kept regions of a cut, drawn on top (removed parts greyed). */
  kept?: readonly Region[] | undefined;
  selection?: Region | null | undefined;
  onMark?: ((which: 'start' | 'end', seconds: number) => void) | undefined;
  /** A selection made by dragging on the waveform (start ≤ end), as it is dragged. */
  onSelect?: ((selection: Region) => void) | undefined;
  /** The audio is playing: the view scrolls to keep the playhead in sight. */
  following?: boolean;
  onTogglePlay?: (() => void) | undefined;
  /** Drawn over the waveform; each one seeks to its time. */
  markers?: readonly WaveformMarker[] | undefined;
  height?: number;
  /** Canvas width in CSS pixels (tests and fixed layouts); default: the container's width. */
  width?: number;
};

/** The waveform's colours in the page's theme (styles.css --waveform*), the light ones where unset. */
function waveformColors(): WaveformColors {
  if (typeof document === 'undefined' || typeof getComputedStyle !== 'function') return LIGHT_WAVEFORM_COLORS;
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    wave: read('--waveform', LIGHT_WAVEFORM_COLORS.wave),
    removed: read('--waveform-removed', LIGHT_WAVEFORM_COLORS.removed),
    selection: read('--waveform-selection', LIGHT_WAVEFORM_COLORS.selection),
    playhead: read('--waveform-playhead', LIGHT_WAVEFORM_COLORS.playhead),
  };
}

export function WaveformView(props: WaveformViewProps) {
  const { waveforms, durationSeconds, position, onSeek, kept, selection, onMark, onSelect, onTogglePlay, markers, following = false, height = 120 } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // Drawn again in the new theme's colours when the theme changes (account settings, the device).
  const theme = useDocumentTheme();
  const scrollerRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(props.width ?? 800);
  const sampleRate = waveforms[0]?.sampleRate ?? 44100;
  const frames = durationSeconds * sampleRate;
  const [viewSpp, setViewSpp] = useState(() => wholeViewSpp(frames, width));
  // The whole-episode view stays whole when the canvas is resized (the first layout measures it);
  // any other zoom is kept, within the new range.
  const wholeRef = useRef(viewSpp);
  useEffect(() => {
    const whole = wholeViewSpp(frames, width);
    // Compared with the whole view from BEFORE this change: the updater may run after the next line
    // (React computes it lazily when other updates are queued), so it must not read the ref.
    const previousWhole = wholeRef.current;
    setViewSpp((v) => (Math.abs(v - previousWhole) < 0.5 ? whole : clampZoom(v, frames, width)));
    wholeRef.current = whole;
  }, [frames, width]);
  const [startFrame, setStartFrame] = useState(0);

  useEffect(() => {
    if (props.width !== undefined || !boxRef.current || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => e && setWidth(Math.max(100, Math.floor(e.contentRect.width))));
    ro.observe(boxRef.current);
    return () => ro.disconnect();
  }, [props.width]);

  const visibleFrames = viewSpp * width;
  const maxStart = Math.max(0, frames - visibleFrames);
  /** Shows the view from `frame` (clamped): the scroller's position, and the drawing's at once. */
  const scrollToFrame = useCallback((frame: number) => {
    const f = Math.max(0, Math.min(maxStart, frame));
    setStartFrame(f);
    if (scrollerRef.current) scrollerRef.current.scrollLeft = f / viewSpp;
  }, [maxStart, viewSpp]);
  // What the user scrolled to (wheel, trackpad, finger, scrollbar) is what is drawn.
  const onScroll = () => {
    const el = scrollerRef.current;
    if (el) setStartFrame(Math.max(0, Math.min(maxStart, el.scrollLeft * viewSpp)));
  };

  // A zoom keeps the playhead where it was on screen when it was in view, else the view's middle.
  // (Runs after every render to remember the view; it moves the view only when the zoom changed.)
  const lastView = useRef({ viewSpp, startFrame });
  useLayoutEffect(() => {
    const before = lastView.current;
    lastView.current = { viewSpp, startFrame };
    if (before.viewSpp === viewSpp) return;
    const p = position * sampleRate;
    const oldVisible = before.viewSpp * width;
    const anchor = p >= before.startFrame && p <= before.startFrame + oldVisible ? p : before.startFrame + oldVisible / 2;
    const frame = Math.max(0, Math.min(maxStart, anchor - ((anchor - before.startFrame) / before.viewSpp) * viewSpp));
    lastView.current = { viewSpp, startFrame: frame };
    scrollToFrame(frame);
  });

  // Follow the playhead while playing, and once on a seek (seek below); never because the view
  // moved: startFrame is read here, not followed, so a scroll alone never brings the view back.
  const reveal = (seconds: number) => {
    const p = seconds * sampleRate;
    if (p < startFrame || p > startFrame + visibleFrames) scrollToFrame(p - visibleFrames / 4);
  };
  useEffect(() => {
    if (following) reveal(position);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reveal reads startFrame, which must not be followed (see above)
  }, [position, following, visibleFrames]);

  // Painted by the waveform drawing worker on an OffscreenCanvas where the browser has one.
  const painter = useRef<WaveformPainter | null>(null);
  const [offscreen, setOffscreen] = useState(false);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const p = waveformPainter(canvas);
    painter.current = p;
    setOffscreen(p.offscreen);
    return () => {
      painter.current = null;
      p.detach();
    };
  }, []);

  useEffect(() => {
    if (!painter.current || waveforms.length === 0) return;
    const toX = (sec: number) => (sec * sampleRate - startFrame) / viewSpp;
    const removed: Array<[number, number]> = [];
    if (kept) {
      let from = 0;
      for (const r of [...kept, { start: durationSeconds, end: durationSeconds }]) {
        if (r.start > from) removed.push([toX(from), toX(r.start)]);
        from = r.end;
      }
    }
    painter.current.draw({
      width,
      height,
      dpr: globalThis.devicePixelRatio ?? 1,
      columns: columns(levelFor(waveforms, viewSpp), startFrame, viewSpp, width),
      removed,
      selection: selection ? [toX(selection.start), toX(selection.end)] : null,
      playheadX: toX(position),
      colors: waveformColors(),
    });
  }, [waveforms, viewSpp, startFrame, width, height, position, kept, selection, durationSeconds, sampleRate, offscreen, theme]);

  const seek = (t: number) => {
    const to = Math.max(0, Math.min(durationSeconds, t));
    reveal(to);
    onSeek(to);
  };
  const zoom = (factor: number) => setViewSpp((v) => clampZoom(v / factor, frames, width));

  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 10 : 1;
    const keys: Record<string, () => void> = {
      ArrowRight: () => seek(position + step),
      ArrowUp: () => seek(position + step),
      ArrowLeft: () => seek(position - step),
      ArrowDown: () => seek(position - step),
      PageUp: () => seek(position + 60),
      PageDown: () => seek(position - 60),
      Home: () => seek(0),
      End: () => seek(durationSeconds),
      '+': () => zoom(ZOOM_STEP),
      '=': () => zoom(ZOOM_STEP),
      '-': () => zoom(1 / ZOOM_STEP),
      '0': () => setViewSpp(wholeViewSpp(frames, width)),
      i: () => onMark?.('start', position),
      o: () => onMark?.('end', position),
      ...(onTogglePlay ? { ' ': onTogglePlay } : {}),
    };
    const fn = keys[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (fn && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      fn();
    }
  };

  const timeAtPointer = (e: PointerEvent) => {
    const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const t = (startFrame + (e.clientX - rect.left) * viewSpp) / sampleRate;
    return Math.max(0, Math.min(durationSeconds, t));
  };

  // One pointer at a time: down → (moved ≥ DRAG_PX where it may select: a drag that selects) → up.
  // A pointer that never became a drag is a tap: it seeks where it went down.
  const gesture = useRef<{ id: number; x0: number; t0: number; mayDrag: boolean; selecting: boolean } | null>(null);
  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
    // A mouse drags anywhere; a finger or pen only on the lower half (the upper half scrolls).
    const mayDrag = onSelect !== undefined && (e.pointerType === 'mouse' || e.clientY - rect.top >= rect.height / 2);
    gesture.current = { id: e.pointerId, x0: e.clientX, t0: timeAtPointer(e), mayDrag, selecting: false };
    // Keeps the drag when the pointer leaves the waveform (some environments have no capture).
    if (mayDrag) {
      try {
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
      } catch {
        // no pointer capture: the drag still works while the pointer stays over the waveform
      }
    }
  };
  const onPointerMove = (e: PointerEvent) => {
    const g = gesture.current;
    if (!g || g.id !== e.pointerId || !g.mayDrag) return;
    if (!g.selecting && Math.abs(e.clientX - g.x0) < DRAG_PX) return;
    g.selecting = true;
    const t = timeAtPointer(e);
    onSelect?.({ start: Math.min(g.t0, t), end: Math.max(g.t0, t) });
  };
  const onPointerUp = (e: PointerEvent) => {
    const g = gesture.current;
    if (!g || g.id !== e.pointerId) return;
    gesture.current = null;
    if (!g.selecting) seek(g.t0);
  };
  // The browser took the touch over to scroll: neither a tap nor a drag.
  const onPointerCancel = () => {
    gesture.current = null;
  };

  const onWheel = (e: WheelEvent) => {
    if (e.ctrlKey) zoom(e.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP);
    // A plain mouse wheel (vertical only) scrolls the waveform sideways; a horizontal wheel or a
    // trackpad's sideways swipe is the scroller's own.
    else if (e.deltaX === 0 && e.deltaY !== 0) scrollToFrame(startFrame + e.deltaY * viewSpp);
  };

  const valueText = m.media_position_text({ position: formatDuration(position), duration: formatDuration(durationSeconds) });
  /** x of a time in the view (CSS px from the canvas' left edge); outside [0, width] when out of view. */
  const xOf = (seconds: number) => (seconds * sampleRate - startFrame) / viewSpp;
  const inView = (x: number) => x >= 0 && x <= width;
  const sortedMarkers = markers ? [...markers].filter((k) => k.seconds >= 0 && k.seconds <= durationSeconds).sort((a, b) => a.seconds - b.seconds) : [];
  return (
    <div className="waveform" ref={boxRef}>
      <div className="waveform-zoom" role="group">
        <button type="button" onClick={() => zoom(ZOOM_STEP)}>{m.media_zoom_in()}</button>
        <button type="button" onClick={() => zoom(1 / ZOOM_STEP)}>{m.media_zoom_out()}</button>
        <button type="button" onClick={() => setViewSpp(wholeViewSpp(frames, width))}>{m.media_zoom_all()}</button>
      </div>
      {sortedMarkers.length > 0 && (
        <div role="group" aria-label={m.audio_markers_label()} className="waveform-markers" style={{ position: 'relative', width, height: MARKER_STRIP_PX, overflow: 'clip' }}>
          {sortedMarkers.map((k) => {
            const time = formatDuration(k.seconds);
            const x = xOf(k.seconds);
            return (
              <button
                key={k.id}
                type="button"
                className="waveform-marker"
                aria-label={m.audio_marker_seek({ time, text: k.label })}
                title={`${time} · ${k.label}`}
                data-seconds={k.seconds}
                onFocus={() => {
                  if (!inView(x)) reveal(k.seconds);
                }}
                onClick={() => seek(k.seconds)}
                style={{
                  position: 'absolute',
                  top: 0,
                  // The flag's left edge is the marker's time, kept inside the strip at its right end;
                  // out of view it is outside the strip, clipped (overflow: clip, which focus cannot scroll).
                  left: inView(x) ? Math.min(x, Math.max(0, width - 24)) : x,
                  minHeight: 24,
                  height: 24,
                  minWidth: 24,
                  padding: '0 0.35rem',
                  borderRadius: '4px 4px 4px 0',
                  border: '1px solid var(--brand)',
                  background: 'var(--brand-soft)',
                  color: 'var(--brand-strong)',
                  fontSize: '0.75rem',
                  fontWeight: 600,
                  fontVariantNumeric: 'tabular-nums',
                  whiteSpace: 'nowrap',
                }}
              >
                {time}
              </button>
            );
          })}
        </div>
      )}
      <div
        ref={scrollerRef}
        role="slider"
        tabIndex={0}
        aria-label={m.media_position_label()}
        aria-valuemin={0}
        aria-valuemax={Math.round(durationSeconds)}
        aria-valuenow={Math.round(position)}
        aria-valuetext={valueText}
        data-samples-per-pixel={Math.round(viewSpp)}
        // The selection to the millisecond (what is read out rounds to the second), for tests and tools.
        data-selection-start={selection ? selection.start.toFixed(3) : undefined}
        data-selection-end={selection ? selection.end.toFixed(3) : undefined}
        data-renderer={offscreen ? 'offscreen-canvas' : 'canvas'}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerCancel}
        onWheel={onWheel}
        onScroll={onScroll}
        style={{ width, overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'none', touchAction: 'pan-x pan-y' }}
      >
        <div style={{ width: Math.max(width, Math.ceil(frames / viewSpp)), height }}>
          <div style={{ position: 'sticky', left: 0, width, height }}>
            <canvas ref={canvasRef} style={{ width, height, display: 'block' }} />
            {sortedMarkers.map((k) => {
              const x = xOf(k.seconds);
              return inView(x) ? <div key={k.id} aria-hidden="true" className="waveform-marker-line" style={{ position: 'absolute', top: 0, left: x, width: 0, height, borderLeft: '2px solid var(--brand)', pointerEvents: 'none' }} /> : null;
            })}
            {onSelect && (
              <div className="waveform-select-band" aria-hidden="true" style={{ position: 'absolute', left: 0, bottom: 0, width, height: height / 2, touchAction: 'none', background: 'rgba(127, 127, 127, 0.07)' }} />
            )}
          </div>
        </div>
      </div>
      <output aria-live="off">{valueText}</output>
    </div>
  );
}
