// Paints one frame of the waveform view: min/max columns, the parts a cut removes greyed, the
// selection, the playhead. Pure drawing on any 2D context, so the same code runs on the main
// thread and in the waveform drawing worker (OffscreenCanvas). Everything is in CSS pixels; the
// context is scaled by the device pixel ratio here.

export type WaveformScene = {
  width: number;
  height: number;
  dpr: number;
  /** Min, max (−1..1) of each column: 2 × width values. */
  columns: Float32Array;
  /** [x0, x1) spans greyed out (removed by the cut). */
  removed: ReadonlyArray<readonly [number, number]>;
  selection: readonly [number, number] | null;
  playheadX: number;
  /** The theme's colours (the page's CSS variables, read on the main thread); the light ones if absent. */
  colors?: WaveformColors;
};

export type WaveformColors = { wave: string; removed: string; selection: string; playhead: string };

export const WAVEFORM_COLOR = '#0f4c5c';
export const LIGHT_WAVEFORM_COLORS: WaveformColors = {
  wave: WAVEFORM_COLOR,
  removed: 'rgba(246, 247, 249, 0.75)',
  selection: 'rgba(255, 196, 0, 0.3)',
  playhead: '#c0392b',
};

type Ctx2D = Pick<CanvasRenderingContext2D, 'setTransform' | 'clearRect' | 'fillRect'> & { fillStyle: unknown };

export function drawWaveform(ctx: Ctx2D, s: WaveformScene): void {
  const { width, height, columns } = s;
  ctx.setTransform(s.dpr, 0, 0, s.dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const mid = height / 2;
  const colors = s.colors ?? LIGHT_WAVEFORM_COLORS;
  ctx.fillStyle = colors.wave;
  for (let x = 0; x < width; x++) {
    const lo = columns[x * 2] ?? 0;
    const hi = columns[x * 2 + 1] ?? 0;
    ctx.fillRect(x, mid - hi * mid, 1, Math.max(1, (hi - lo) * mid));
  }
  ctx.fillStyle = colors.removed;
  for (const [a, b] of s.removed) if (b > a) ctx.fillRect(a, 0, b - a, height);
  if (s.selection) {
    ctx.fillStyle = colors.selection;
    ctx.fillRect(s.selection[0], 0, s.selection[1] - s.selection[0], height);
  }
  ctx.fillStyle = colors.playhead;
  ctx.fillRect(Math.round(s.playheadX), 0, 2, height);
}
