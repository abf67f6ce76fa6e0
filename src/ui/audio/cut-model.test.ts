import { describe, expect, it } from 'vitest';
import { cutReducer, initialCut, keptSeconds, subtract, toCutEdit, type CutAction, type CutHistory } from './cut-model.ts';
import { equalPowerCurve, previewSchedule, sourceTimeAt } from './preview-schedule.ts';
import { columns, levelFor, wholeViewSpp, MIN_SAMPLES_PER_PIXEL } from './waveform-model.ts';
import type { Waveform } from '../../media/peaks.ts';

const run = (h: CutHistory, ...actions: CutAction[]) => actions.reduce(cutReducer, h);

describe('cut edits with undo and redo', () => {
  it('trim start, trim end, remove a middle region, keep only a region', () => {
    const h = run(initialCut(600), { type: 'trimStart', at: 30 }, { type: 'trimEnd', at: 570 }, { type: 'remove', start: 200, end: 260 });
    expect(h.present.kept).toEqual([{ start: 30, end: 200 }, { start: 260, end: 570 }]);
    expect(keptSeconds(h.present)).toBe(480);
    const kept = run(h, { type: 'keepOnly', start: 100, end: 300 });
    expect(kept.present.kept).toEqual([{ start: 100, end: 200 }, { start: 260, end: 300 }]);
    expect(toCutEdit(kept.present, 12)).toEqual({ KeptRegions: [{ StartSeconds: 100, EndSeconds: 200 }, { StartSeconds: 260, EndSeconds: 300 }], CrossfadeMs: 12 });
  });

  it('undo walks back one edit at a time and redo forward; a new edit clears redo', () => {
    let h = run(initialCut(100), { type: 'trimStart', at: 10 }, { type: 'remove', start: 40, end: 50 });
    h = run(h, { type: 'undo' });
    expect(h.present.kept).toEqual([{ start: 10, end: 100 }]);
    h = run(h, { type: 'undo' });
    expect(h.present.kept).toEqual([{ start: 0, end: 100 }]);
    expect(run(h, { type: 'undo' })).toBe(h);
    h = run(h, { type: 'redo' }, { type: 'redo' });
    expect(h.present.kept).toEqual([{ start: 10, end: 40 }, { start: 50, end: 100 }]);
    h = run(h, { type: 'undo' }, { type: 'trimEnd', at: 90 });
    expect(h.future).toEqual([]);
    expect(run(h, { type: 'redo' })).toBe(h);
  });

  it('an edit that would keep nothing, or changes nothing, is not taken (no undo step)', () => {
    const h = initialCut(100);
    expect(run(h, { type: 'remove', start: 0, end: 100 })).toBe(h);
    expect(run(h, { type: 'trimStart', at: 0 })).toBe(h);
    expect(run(h, { type: 'trimStart', at: -5 })).toBe(h);
  });

  it('subtract handles regions before, after, inside and across', () => {
    expect(subtract([{ start: 0, end: 10 }, { start: 20, end: 30 }], 5, 25)).toEqual([{ start: 0, end: 5 }, { start: 25, end: 30 }]);
  });
});

describe('preview schedule', () => {
  it('each segment starts one crossfade before the previous ends; the removed region is never scheduled', () => {
    const s = previewSchedule([{ start: 0, end: 3 }, { start: 6, end: 12 }], 10, 100);
    expect(s).toEqual([
      { sourceStart: 0, sourceEnd: 3, when: 100, until: 103, fadeIn: 0, fadeOut: 0.01 },
      { sourceStart: 6, sourceEnd: 12, when: 102.99, until: 108.99, fadeIn: 0.01, fadeOut: 0 },
    ]);
    expect(s.some((seg) => seg.sourceStart < 6 && seg.sourceEnd > 3)).toBe(false);
    // The graph's time advances across the cut: just after it we hear source second 6.
    expect(sourceTimeAt(s, 103.0)).toBeCloseTo(6.01, 5);
    expect(sourceTimeAt(s, 101)).toBe(1);
    expect(sourceTimeAt(s, 200)).toBeNull();
  });

  it('starting from the playhead skips what is before it', () => {
    expect(previewSchedule([{ start: 0, end: 3 }, { start: 6, end: 12 }], 10, 0, 7).map((x) => [x.sourceStart, x.sourceEnd])).toEqual([[7, 12]]);
  });

  it('equal-power curves: sin² + cos² = 1 at every point', () => {
    const a = equalPowerCurve('in');
    const b = equalPowerCurve('out');
    expect(a[0]).toBe(0);
    expect(b[0]).toBe(1);
    for (let i = 0; i < a.length; i++) expect(a[i]! ** 2 + b[i]! ** 2).toBeCloseTo(1, 5);
  });
});

describe('waveform view model', () => {
  const w = (spp: number, data: number[]): Waveform => ({ version: 2, channels: 1, sampleRate: 44100, samplesPerPixel: spp, bits: 16, length: data.length / 2, data: Int16Array.from(data) });

  it('picks the coarsest level no wider than a screen column', () => {
    const levels = [w(256, [0, 0]), w(1024, [0, 0]), w(4096, [0, 0])];
    expect(levelFor(levels, 3000).samplesPerPixel).toBe(1024);
    expect(levelFor(levels, 100).samplesPerPixel).toBe(256);
    expect(levelFor(levels, 1e6).samplesPerPixel).toBe(4096);
  });

  it('a screen column is the min and max of the peaks it covers', () => {
    const lvl = w(256, [-100, 100, -3000, 50, -10, 16384, 0, 0]);
    expect(Array.from(columns(lvl, 0, 512, 2))).toEqual([-3000 / 32768, 100 / 32768, -10 / 32768, 16384 / 32768]);
  });

  it('zoom runs from the whole episode to single words', () => {
    expect(wholeViewSpp(3600 * 44100, 1000)).toBe(158760);
    expect(wholeViewSpp(100, 1000)).toBe(MIN_SAMPLES_PER_PIXEL);
  });
});
