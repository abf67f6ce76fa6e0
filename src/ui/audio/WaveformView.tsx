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
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { formatDuration } from '../../domain/time.ts';
import { m } from '../../paraglide/messages.js';
import type { Region } from '../../media/cut.ts';
import type { Waveform } from '../../media/peaks.ts';
import { waveformPainter, type WaveformPainter } from '../../../workers/audio/waveform-canvas.ts';
import { clampZoom, columns, levelFor, wholeViewSpp, ZOOM_STEP } from './waveform-model.ts';

/** Pointer movement (CSS px) that turns a press into a drag; less is a tap. */
const DRAG_PX = 4;

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
  height?: number;
  /** Canvas width in CSS pixels (tests and fixed layouts); default: the container's width. */
  width?: number;
};

export function WaveformView(props: WaveformViewProps) {
  const { waveforms, durationSeconds, position, onSeek, kept, selection, onMark, onSelect, onTogglePlay, following = false, height = 120 } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
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
    });
  }, [waveforms, viewSpp, startFrame, width, height, position, kept, selection, durationSeconds, sampleRate, offscreen]);

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
  return (
    <div className="waveform" ref={boxRef}>
      <div className="waveform-zoom" role="group">
        <button type="button" onClick={() => zoom(ZOOM_STEP)}>{m.media_zoom_in()}</button>
        <button type="button" onClick={() => zoom(1 / ZOOM_STEP)}>{m.media_zoom_out()}</button>
        <button type="button" onClick={() => setViewSpp(wholeViewSpp(frames, width))}>{m.media_zoom_all()}</button>
      </div>
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
