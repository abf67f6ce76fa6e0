// The waveform: a canvas of min/max peaks with a playhead (an OffscreenCanvas painted by a worker,
// workers/audio/waveform-draw.worker.ts, where the browser has one), zoomable from the whole episode down
// to single words, scrollable, and a keyboard-operable slider (role="slider") whose value is the
// playhead time, read out as "1:23 of 12:00".
//   ← / →  ±1 s (Shift: ±10 s)   Page Up / Page Down  ±1 min   Home / End
//   + / −  zoom in / out   0  whole episode   I / O  mark selection start / end (via onMark)
//   Space  play / pause (via onTogglePlay)
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { formatDuration } from '../../domain/time.ts';
import { m } from '../../paraglide/messages.js';
import type { Region } from '../../media/cut.ts';
import type { Waveform } from '../../media/peaks.ts';
import { waveformPainter, type WaveformPainter } from '../../../workers/audio/waveform-canvas.ts';
import { clampZoom, columns, levelFor, wholeViewSpp, ZOOM_STEP } from './waveform-model.ts';

export type WaveformViewProps = {
  waveforms: readonly Waveform[];
  durationSeconds: number;
  position: number;
  onSeek: (seconds: number) => void;
  /** Kept regions of a cut, drawn on top (removed parts greyed). */
  kept?: readonly Region[] | undefined;
  selection?: Region | null | undefined;
  onMark?: ((which: 'start' | 'end', seconds: number) => void) | undefined;
  onTogglePlay?: (() => void) | undefined;
  height?: number;
  /** Canvas width in CSS pixels (tests and fixed layouts); default: the container's width. */
  width?: number;
};

export function WaveformView(props: WaveformViewProps) {
  const { waveforms, durationSeconds, position, onSeek, kept, selection, onMark, onTogglePlay, height = 120 } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
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
  // Keep the playhead in view (scroll follows it).
  useEffect(() => {
    const p = position * sampleRate;
    if (p < startFrame || p > startFrame + visibleFrames) setStartFrame(Math.max(0, Math.min(frames - visibleFrames, p - visibleFrames / 4)));
  }, [position, sampleRate, startFrame, visibleFrames, frames]);

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

  const seek = useCallback((t: number) => onSeek(Math.max(0, Math.min(durationSeconds, t))), [onSeek, durationSeconds]);
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
    return (startFrame + (e.clientX - rect.left) * viewSpp) / sampleRate;
  };

  const onWheel = (e: WheelEvent) => {
    if (e.ctrlKey) zoom(e.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP);
    else setStartFrame((s) => Math.max(0, Math.min(frames - visibleFrames, s + (e.deltaX || e.deltaY) * viewSpp)));
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
        onPointerDown={(e) => seek(timeAtPointer(e))}
        onWheel={onWheel}
        style={{ width, height, touchAction: 'none' }}
      >
        <canvas ref={canvasRef} style={{ width, height, display: 'block' }} />
      </div>
      <output aria-live="off">{valueText}</output>
    </div>
  );
}
