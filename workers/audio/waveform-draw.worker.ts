// Draws waveform views on OffscreenCanvases handed over by the page (transferControlToOffscreen),
// so painting thousands of columns while zooming, scrolling and playing never blocks the page.
// Messages: attach {id, canvas} | draw {id, scene} | detach {id}. Only the latest scene per
// canvas is painted, once per animation frame.
import '../policy-violations.ts';
import { drawWaveform, type WaveformScene } from '../../src/media/waveform-draw.ts';

export type WaveformDrawMessage =
  | { type: 'attach'; id: string; canvas: OffscreenCanvas }
  | { type: 'draw'; id: string; scene: WaveformScene }
  | { type: 'detach'; id: string };

const canvases = new Map<string, OffscreenCanvas>();
const pending = new Map<string, WaveformScene>();
let scheduled = false;

function paint(): void {
  scheduled = false;
  for (const [id, scene] of pending) {
    const canvas = canvases.get(id);
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) continue;
    const w = Math.round(scene.width * scene.dpr);
    const h = Math.round(scene.height * scene.dpr);
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    drawWaveform(ctx, scene);
  }
  pending.clear();
}

self.onmessage = (e: MessageEvent<WaveformDrawMessage>) => {
  const m = e.data;
  if (m.type === 'attach') canvases.set(m.id, m.canvas);
  else if (m.type === 'detach') {
    canvases.delete(m.id);
    pending.delete(m.id);
  } else {
    pending.set(m.id, m.scene);
    if (!scheduled) {
      scheduled = true;
      if (typeof requestAnimationFrame === 'function') requestAnimationFrame(paint);
      else setTimeout(paint, 0);
    }
  }
};
