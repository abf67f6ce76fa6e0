import { describe, expect, it } from 'vitest';
import { contentDisposition, HEADLINER_PREVIEW_SECONDS, headlinerFileName, headlinerSeconds, isHeadlinerBusy, sortRatios } from './headliner.ts';

describe('headliner videos', () => {
  it('a video is the first HEADLINER_PREVIEW_SECONDS of the episode, or the whole of a shorter one', () => {
    expect(headlinerSeconds(12)).toBe(12);
    expect(headlinerSeconds(3600)).toBe(HEADLINER_PREVIEW_SECONDS);
    expect(headlinerSeconds(-1)).toBe(0);
  });

  it('Queued and Rendering are still being made; Ready and Failed are not', () => {
    expect((['Queued', 'Rendering', 'Ready', 'Failed'] as const).map(isHeadlinerBusy)).toEqual([true, true, false, false]);
  });

  it('aspect ratios keep the settings order: square, portrait, landscape', () => {
    expect(sortRatios(['16:9', '1:1', '9:16'])).toEqual(['1:1', '9:16', '16:9']);
  });

  it('a download is named after the title without path or reserved characters; an untitled clip is "clip"', () => {
    expect(headlinerFileName('Morning: “Früh” / Episode 1', '9:16')).toBe('Morning “Früh” Episode 1 – 9x16.mp4');
    expect(headlinerFileName('../..\\etc\u0000', '1:1')).toBe('etc – 1x1.mp4');
    expect(headlinerFileName(null, '16:9')).toBe('clip – 16x9.mp4');
    expect(headlinerFileName('   ', '1:1')).toBe('clip – 1x1.mp4');
  });

  it('Content-Disposition carries an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('Früh – 1x1.mp4')).toBe(`attachment; filename="Fruh 1x1.mp4"; filename*=UTF-8''Fr%C3%BCh%20%E2%80%93%201x1.mp4`);
  });
});
