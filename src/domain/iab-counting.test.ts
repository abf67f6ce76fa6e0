import { describe, expect, it } from 'vitest';
import { addRange, applyRequest, coveredBytes, deliveredRange, HEADER_ALLOWANCE_BYTES, thresholdBytes, WINDOW_MS, type CountingWindow } from './iab-counting.ts';

const get = (over: Partial<Parameters<typeof deliveredRange>[0]> = {}) => ({ method: 'GET', status: 200, rangeHeader: null, rangeStart: null, bytesSent: 1000, ...over });

describe('deliveredRange', () => {
  it('reads what a request delivered, and nothing from HEAD, errors, empty answers and probes', () => {
    expect(deliveredRange(get())).toEqual([0, 1000]);
    expect(deliveredRange(get({ status: 206, rangeHeader: 'bytes=5000-', rangeStart: 5000, bytesSent: 300 }))).toEqual([5000, 5300]);
    // A Range the server did not honour (If-Range changed): the whole file from byte 0.
    expect(deliveredRange(get({ status: 200, rangeHeader: 'bytes=5000-', rangeStart: 5000 }))).toEqual([0, 1000]);
    expect(deliveredRange(get({ method: 'HEAD' }))).toBeNull();
    expect(deliveredRange(get({ status: 304 }))).toBeNull();
    expect(deliveredRange(get({ status: 416 }))).toBeNull();
    expect(deliveredRange(get({ bytesSent: 0 }))).toBeNull();
    expect(deliveredRange(get({ status: 206, rangeHeader: 'bytes=0-1', rangeStart: 0, bytesSent: 2 }))).toBeNull();
    expect(deliveredRange(get({ status: 206, rangeHeader: 'Bytes = 0-0', rangeStart: 0, bytesSent: 1 }))).toBeNull();
    expect(deliveredRange(get({ status: 206, rangeHeader: 'bytes=0-2', rangeStart: 0, bytesSent: 3 }))).toEqual([0, 3]);
  });
});

describe('addRange / coveredBytes', () => {
  it('keeps a union: overlaps and touching ranges merge, repeats add nothing', () => {
    let r = addRange([], 100, 200);
    r = addRange(r, 0, 50);
    r = addRange(r, 300, 400);
    expect(r).toEqual([0, 50, 100, 200, 300, 400]);
    expect(addRange(r, 150, 350)).toEqual([0, 50, 100, 400]);
    expect(addRange(r, 50, 100)).toEqual([0, 200, 300, 400]);
    expect(addRange(r, 100, 200)).toEqual(r);
    expect(addRange(r, 0, 1000)).toEqual([0, 1000]);
    expect(addRange(r, 500, 500)).toEqual(r);
    expect(coveredBytes(addRange(addRange([], 0, 500_000), 0, 500_000))).toBe(500_000);
  });
});

describe('thresholdBytes', () => {
  it('is the header plus a minute at the file rate, at most the whole file', () => {
    // 60 minutes at 8000 B/s: 28.8 MB; a minute is 480,000 bytes.
    expect(thresholdBytes({ sizeBytes: 28_800_000, durationSeconds: 3600 })).toBe(HEADER_ALLOWANCE_BYTES + 480_000);
    expect(thresholdBytes({ sizeBytes: 28_800_000, durationSeconds: 3600, headerBytes: 1000 })).toBe(481_000);
    // Shorter than a minute: the whole file.
    expect(thresholdBytes({ sizeBytes: 300_000, durationSeconds: 30 })).toBe(300_000);
    // Unknown size: 128 kbit/s assumed.
    expect(thresholdBytes({ sizeBytes: null, durationSeconds: null })).toBe(HEADER_ALLOWANCE_BYTES + 960_000);
  });
});

describe('applyRequest', () => {
  const H = 3_600_000;
  function run(requests: Array<{ at: number; hash: string; prev?: string; range: [number, number] }>) {
    const windows = new Map<string, CountingWindow>();
    return requests.map((r) => applyRequest(windows, { atMs: r.at, clipId: 'c', listenerHash: r.hash, previousListenerHash: r.prev ?? null, range: r.range, thresholdBytes: 1000 }).counted);
  }
  it('counts once when the union passes the threshold, not again within 24 h of the first request', () => {
    expect(run([
      { at: 0, hash: 'a', range: [0, 600] },
      { at: H, hash: 'a', range: [0, 600] }, // same bytes again: the union is still 600
      { at: 2 * H, hash: 'a', range: [600, 1000] }, // passes
      { at: 3 * H, hash: 'a', range: [0, 5000] }, // counted already
      { at: WINDOW_MS - 1, hash: 'a', range: [0, 5000] },
      { at: WINDOW_MS, hash: 'a', range: [0, 5000] }, // a new window: rolling 24 h from the first
    ])).toEqual([false, false, true, false, false, true]);
  });
  it('finds the window opened before midnight through the previous day hash', () => {
    expect(run([
      { at: 0, hash: 'day1', range: [0, 600] },
      { at: H, hash: 'day2', prev: 'day1', range: [600, 1000] }, // same listener after midnight
      { at: 2 * H, hash: 'day2', prev: 'day1', range: [0, 1000] }, // counted already
    ])).toEqual([false, true, false]);
    // Without the previous hash the listener looks new after midnight.
    expect(run([
      { at: 0, hash: 'day1', range: [0, 1000] },
      { at: H, hash: 'day2', range: [0, 1000] },
    ])).toEqual([true, true]);
  });
  it('lets a window that never passed expire: its bytes do not carry into the next', () => {
    expect(run([
      { at: 0, hash: 'a', range: [0, 900] },
      { at: WINDOW_MS + 1, hash: 'a', range: [900, 1000] },
    ])).toEqual([false, false]);
  });
});
