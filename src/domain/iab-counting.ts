// The counting rules of the IAB Tech Lab Podcast Measurement Technical Guidelines (v2.2), pure:
// which raw request delivered which bytes, the union of a listener's byte ranges, the threshold a
// download must pass, and the rolling 24-hour window that makes one listener's requests for one
// episode one download. The counting job (sync-server/analytics/counting.ts) feeds raw events
// through `applyRequest`; bots are refused before (sync-server/analytics/counting-agents.ts).
//
// What the guidelines say, and where it is applied here:
// - A download is counted per listener (address + user agent; IPv6 cut to its /64 — done by the
//   recorder, which hashes them) per episode, deduplicated over 24 hours: `applyRequest`. We use a
//   ROLLING 24 hours from the window's first request (never calendar days): a listener at 23:50 and
//   00:10 UTC is one download.
// - Only requests that delivered audio count towards a download: HEAD, non-2xx, zero-length
//   answers and the `bytes=0-1` (and `bytes=0-0`) probes players send to learn the size are
//   ignored: `deliveredRange`.
// - A download needs enough bytes delivered to represent one minute of audio, plus the file's
//   header (ID3 tag); a file shorter than a minute must be delivered whole. The bytes are the
//   UNION of the ranges delivered in the window (`addRange`): two requests for the same first
//   500 KB are 500 KB, not 1 MB; a count of requests says nothing.
// - Apple Watch pre-download (v2.1 onwards): the watch's Podcasts app downloads an episode the phone
//   already downloaded (watchOS user agents, `atc/… watchOS/…`); the guidelines ask that such
//   requests be filtered. The place is `isBotOrPreDownload` in sync-server/analytics/counting-agents.ts,
//   which refuses them before any window sees them.
// - Spikes and anomalies (v2.2 asks for monitoring of abnormal request volume from one source and
//   its removal): they would be applied per window in the counting job before a window's download
//   is written (counting.ts names the place); nothing here removes them yet.

/** Milliseconds in the deduplication window. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The allowance for the file's header when its real size is not known. The studio does not keep
 * the ID3v2 size of a published file; files it encodes carry a small tag (title, chapters, no
 * large artwork), so 64 KiB is a generous bound that still keeps the threshold near one minute.
 */
export const HEADER_ALLOWANCE_BYTES = 64 * 1024;

/** Bytes per second assumed when the clip's published size or duration is unknown: 128 kbit/s. */
export const FALLBACK_BYTES_PER_SECOND = 16_000;

/** What the counting rules read of one raw request (download_events). */
export type RawRequest = {
  method: string;
  status: number;
  rangeHeader: string | null;
  /** The first byte the Range asked for (null: no Range, or not honoured). */
  rangeStart: number | null;
  /** Bytes actually handed to the listener (a cancelled stream: fewer than asked). */
  bytesSent: number;
};

/** Player probes for the size or the first byte: `bytes=0-1`, `bytes=0-0`. */
const PROBE = /^\s*bytes\s*=\s*0\s*-\s*[01]\s*$/i;

/** The half-open byte range [start, end) a request delivered, or null when it counts for nothing. */
export function deliveredRange(r: RawRequest): [number, number] | null {
  if (r.method.toUpperCase() !== 'GET') return null;
  if (r.status < 200 || r.status > 299) return null;
  if (!(r.bytesSent > 0)) return null;
  if (r.rangeHeader !== null && PROBE.test(r.rangeHeader)) return null;
  // A 206 starts where its range did; a 200 (no Range, or one not honoured) from the first byte.
  const start = r.status === 206 ? (r.rangeStart ?? 0) : 0;
  return [start, start + r.bytesSent];
}

/**
 * Adds [start, end) to a union of ranges kept as a sorted flat list [s0, e0, s1, e1, …] of
 * disjoint, non-touching half-open ranges; returns the new list (the input is not changed).
 */
export function addRange(ranges: readonly number[], start: number, end: number): number[] {
  if (end <= start) return [...ranges];
  const out: number[] = [];
  let s = start;
  let e = end;
  let placed = false;
  for (let i = 0; i < ranges.length; i += 2) {
    const rs = ranges[i]!;
    const re = ranges[i + 1]!;
    if (re < s) out.push(rs, re);
    else if (rs > e) {
      if (!placed) {
        out.push(s, e);
        placed = true;
      }
      out.push(rs, re);
    } else {
      s = Math.min(s, rs);
      e = Math.max(e, re);
    }
  }
  if (!placed) out.push(s, e);
  return out;
}

/** Bytes covered by a union of ranges (see addRange). */
export function coveredBytes(ranges: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < ranges.length; i += 2) n += ranges[i + 1]! - ranges[i]!;
  return n;
}

export type ClipAudio = {
  /** PublishedAudioSizeInBytes. */
  sizeBytes: number | null;
  /** PublishedDurationSeconds. */
  durationSeconds: number | null;
  /** The ID3v2 tag's size when known; else HEADER_ALLOWANCE_BYTES. */
  headerBytes?: number | null;
};

/**
 * Bytes the union of a window's ranges must cover to count: the header plus one minute of audio at
 * the file's own rate (size / duration), never more than the whole file (a file shorter than a
 * minute, or whose header allowance is most of it, must be delivered whole).
 */
export function thresholdBytes(clip: ClipAudio): number {
  const header = clip.headerBytes ?? HEADER_ALLOWANCE_BYTES;
  const size = clip.sizeBytes !== null && clip.sizeBytes > 0 ? clip.sizeBytes : null;
  const duration = clip.durationSeconds !== null && clip.durationSeconds > 0 ? clip.durationSeconds : null;
  const perSecond = size !== null && duration !== null ? size / duration : FALLBACK_BYTES_PER_SECOND;
  const needed = header + Math.ceil(60 * perSecond);
  return size !== null ? Math.min(size, needed) : needed;
}

/** One listener's requests for one episode within 24 hours of its first. */
export type CountingWindow = {
  /** The listener hash the window was opened under (its first request's day's hash). */
  listenerHash: string;
  clipId: string;
  startMs: number;
  /** Union of the delivered ranges (addRange); emptied once counted (nothing more can change). */
  ranges: number[];
  counted: boolean;
};

/** Windows by `windowKey(listenerHash, clipId)`; the caller keeps them (the job loads and stores them). */
export type WindowLookup = {
  get(key: string): CountingWindow | undefined;
  set(key: string, window: CountingWindow): void;
};

export const windowKey = (listenerHash: string, clipId: string) => `${listenerHash}|${clipId}`;

/** A request that delivered bytes (deliveredRange) from a listener who is not a bot. */
export type CountableRequest = {
  atMs: number;
  clipId: string;
  /** The hash under the request day's salt. */
  listenerHash: string;
  /** The same listener's hash under the previous day's salt (null: not recorded), so that a
   *  window opened before midnight UTC still finds its listener after it. */
  previousListenerHash: string | null;
  range: [number, number];
  thresholdBytes: number;
};

const isOpen = (w: CountingWindow | undefined, atMs: number): w is CountingWindow =>
  w !== undefined && atMs < w.startMs + WINDOW_MS && atMs > w.startMs - WINDOW_MS;

/**
 * Applies one request: it joins its listener's open window for the clip (the one opened under
 * today's hash, else under yesterday's), or opens a new one. Returns the window, and `counted`
 * true exactly once per window: on the request whose bytes made the union pass the threshold.
 * Later requests in the window add nothing (already counted: one download per 24 hours).
 */
export function applyRequest(windows: WindowLookup, r: CountableRequest): { window: CountingWindow; counted: boolean; changed: boolean } {
  let window = windows.get(windowKey(r.listenerHash, r.clipId));
  if (!isOpen(window, r.atMs) && r.previousListenerHash !== null) {
    const before = windows.get(windowKey(r.previousListenerHash, r.clipId));
    if (isOpen(before, r.atMs)) window = before;
  }
  if (!isOpen(window, r.atMs)) {
    window = { listenerHash: r.listenerHash, clipId: r.clipId, startMs: r.atMs, ranges: [], counted: false };
    windows.set(windowKey(r.listenerHash, r.clipId), window);
  }
  if (window.counted) return { window, counted: false, changed: false };
  window.ranges = addRange(window.ranges, r.range[0], r.range[1]);
  if (coveredBytes(window.ranges) >= r.thresholdBytes) {
    window.counted = true;
    window.ranges = [];
    return { window, counted: true, changed: true };
  }
  return { window, counted: false, changed: true };
}
