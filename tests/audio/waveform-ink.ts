// What a waveform looks like on screen, for the Playwright specs of the clip and recording screens:
// the pixels are read from a screenshot of the waveform slider (what the user sees), so a check holds
// whether the canvas is drawn on the main thread or through an OffscreenCanvas in a worker.
import { expect, type Locator, type Page } from '@playwright/test';

type Drawn = { columnsWithInk: number; width: number; distinctHeights: number; tallest: number; height: number };

/** The light theme's waveform colour (styles.css --waveform), as [r, g, b]. */
export const LIGHT_INK: readonly [number, number, number] = [0x0f, 0x4c, 0x5c];

/** Columns of the waveform slider that hold the waveform's colour (the light theme's unless
 *  given), from a screenshot. */
export async function waveformInk(page: Page, slider: Locator, ink: readonly [number, number, number] = LIGHT_INK): Promise<Drawn> {
  const png = (await slider.screenshot()).toString('base64');
  return page.evaluate(async ([b64, [r, g, b]]) => {
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const img = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(img.width, img.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, img.width, img.height);
    const heights: number[] = [];
    for (let x = 0; x < width; x++) {
      let n = 0;
      for (let y = 0; y < height; y++) {
        const i = (y * width + x) * 4;
        if (Math.abs(data[i]! - r) < 24 && Math.abs(data[i + 1]! - g) < 24 && Math.abs(data[i + 2]! - b) < 24) n++;
      }
      heights.push(n);
    }
    return {
      columnsWithInk: heights.filter((h) => h > 0).length,
      width,
      distinctHeights: new Set(heights).size,
      tallest: Math.max(...heights),
      height,
    };
  }, [png, ink] as const);
}

export function expectAWaveform(d: Drawn, tallest = 0.3): void {
  // Speech: most columns carry ink, loud parts are tall, and the heights vary (not a flat line).
  expect(d.columnsWithInk / d.width).toBeGreaterThan(0.5);
  expect(d.tallest / d.height).toBeGreaterThan(tallest);
  expect(d.distinctHeights).toBeGreaterThan(10);
}
