// The page's side of waveform drawing: where the browser has OffscreenCanvas, a canvas's control
// goes to the shared drawing worker (waveform-draw.worker.ts) once, and each frame is a small
// message (the columns, the cut, the playhead); elsewhere the same drawWaveform runs here.
import { drawWaveform, type WaveformScene } from '../../src/media/waveform-draw.ts';
import type { WaveformDrawMessage } from './waveform-draw.worker.ts';

export type WaveformPainter = { readonly offscreen: boolean; draw(scene: WaveformScene): void; detach(): void };

let worker: Worker | null = null;
function drawWorker(): Worker {
  worker ??= new Worker(new URL('./waveform-draw.worker.ts', import.meta.url), { type: 'module', name: 'waveform-draw' });
  return worker;
}

// A canvas hands over its control once; a remount of the same element (React StrictMode) reuses it.
const transferred = new WeakMap<HTMLCanvasElement, string>();

export function offscreenSupported(canvas: HTMLCanvasElement): boolean {
  return typeof canvas.transferControlToOffscreen === 'function' && typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined';
}

export function waveformPainter(canvas: HTMLCanvasElement): WaveformPainter {
  if (offscreenSupported(canvas)) {
    let id = transferred.get(canvas);
    if (!id) {
      id = crypto.randomUUID();
      const offscreen = canvas.transferControlToOffscreen();
      drawWorker().postMessage({ type: 'attach', id, canvas: offscreen } satisfies WaveformDrawMessage, [offscreen]);
      transferred.set(canvas, id);
    }
    const key = id;
    return {
      offscreen: true,
      draw: (scene) => drawWorker().postMessage({ type: 'draw', id: key, scene } satisfies WaveformDrawMessage),
      detach: () => {
        // Only when the element itself goes away (a StrictMode remount keeps the same canvas).
        if (!canvas.isConnected) {
          drawWorker().postMessage({ type: 'detach', id: key } satisfies WaveformDrawMessage);
          transferred.delete(canvas);
        }
      },
    };
  }
  return {
    offscreen: false,
    draw: (scene) => {
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      canvas.width = Math.round(scene.width * scene.dpr);
      canvas.height = Math.round(scene.height * scene.dpr);
      drawWaveform(ctx, scene);
    },
    detach: () => undefined,
  };
}
