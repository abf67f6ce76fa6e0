// A live recording's stream (issue 34): an agent's MP3 body, read chunk by chunk as the encoder
// sends it. Each chunk goes three ways at once:
//
//   request body ──chunk──┬─> the upload file (blobs.put, streamed: the whole stream is the recording's audio)
//                         ├─> each listener of the live audio on this instance (the Live row's AudioUrl: …/live/audio)
//                         └─> LiveMp3Peaks.push (mpg123 fed once; whole pixels out) ──> LivePeaksWriter
//                               INSERT live_peaks (seq n) ──commit──> bus.signal('live-peaks:<id>', the row)
//   end of body ──> the last pixel written ──> the row leaves Live (startRecordingIngest: Processing,
//                   then the job's waveforms, audio and DurationSeconds; Finalized removes the rows)
//   body cut off ──> what arrived is kept, HasTornAudio set, and the same pipeline finalizes it
//
// The peaks are rows in the database, not memory of the instance holding the stream (issue 35,
// several instances): a watcher on any instance (followLivePeaks) reads what is there as one
// event, then each row after the last it sent, by seq, when a signal or a change of the
// organization arrives, and 'end' once the row is no longer a live stream:
//
//   (a watcher reconnecting with Last-Event-ID n starts at last = n: only the rows after n)
//   watching ──signal carrying row last+1──> 'peaks' (no read)
//      │ ──other signal / change / 5 s──> read rows seq > last ──> 'peaks' each, in order
//      │                                   (a change or the timer also reads the recording row)
//      └── row not Live, or not an agent's stream ──> read rows once more ──> 'end' { State, HasTornAudio }
//
// The live audio (…/live/audio) is heard at its freshest on the instance that receives the stream;
// a listener on another instance hears the segments stored in the shared blob store
// (storedLiveAudio), from the newest on, up to a heartbeat behind, and the whole recording once it is
// Finalized.
//
// The stream's audio is not held by that instance alone either (LiveAudioStore): what arrived is
// stored every heartbeat as the next segment in the blob store (the folder or bucket every instance
// shares), and its live_streams row counts it and moves seen_at. If the instance dies (kill -9, a
// crash) the row stops moving; after the lost time the sweep of any instance (live-end.ts) ends the
// recording with the segments stored, torn, as a cut-off stream ends, and its watchers get 'end':
//
//   live_streams row ──heartbeat: segment n stored──> segments n+1, seen_at now   (claimed_at null)
//      ├── body ends ──> claimed by this instance ──> finishLiveStream (live-end.ts)
//      └── seen_at older than the lost time ──> claimed by a sweep ──> finishLiveStream, torn
//            (this instance, if alive after all, sees the claim at its next heartbeat and stops)
import type { Logger } from 'pino';
import type { LivePeaks } from '../../src/media/live-peaks.ts';
import { LIVE_SAMPLES_PER_PIXEL } from '../../src/media/live-peaks.ts';
import { LIVE_STREAM_LOST_MS, liveStreamHeartbeatMs, liveStreamSweepMs } from '../../src/domain/live-streams.ts';
import { isLiveAudioUrl, type LiveEndEvent, type LivePeaksEvent } from '../../src/protocol/api/live-recordings.ts';
import { SIGNAL_PAYLOAD_MAX, type ChangeBus } from '../bus.ts';
import { loadRow } from '../rows.ts';
import type { Queryable, Store } from '../store/store.ts';
import type { BlobStore } from './blob-store.ts';
import { recordingKeys } from './media-paths.ts';

/** `seq`: the last peaks row an event carries, its SSE id (a watcher reconnecting sends it back as Last-Event-ID). */
export type LiveListener = { peaks(event: LivePeaksEvent, seq: number): void; end(event: LiveEndEvent): void };

const base64Of = (data: Int16Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
/** Copied out of Buffer's shared pool, where it may not start on an even byte. */
const int16Of = (base64: string) => new Int16Array(Uint8Array.from(Buffer.from(base64, 'base64')).buffer);

/** The bus topic of a recording's appended peaks. */
export const livePeaksTopic = (recordingId: string) => `live-peaks:${recordingId}`;

/** How often a watcher reads again with no signal (a NOTIFY lost while the bus reconnected). */
const WATCH_POLL_MS = 5_000;

/** AppDeps.live: tests shorten the lost time; else CASTAWAY_LIVE_STREAM_LOST_MS or LIVE_STREAM_LOST_MS. */
export type LiveStreamOverrides = { lostMs?: number };
export type LiveStreamSettings = { lostMs: number; heartbeatMs: number; sweepMs: number };

/** The lost time (src/domain/live-streams.ts) and the heartbeat and sweep that follow from it. Every
 * instance of one database must use the same: one instance's sweep judges another's heartbeats. */
export function liveStreamSettings(overrides: LiveStreamOverrides = {}, env: NodeJS.ProcessEnv = process.env): LiveStreamSettings {
  const fromEnv = env.CASTAWAY_LIVE_STREAM_LOST_MS;
  const lostMs = overrides.lostMs ?? (fromEnv ? Number(fromEnv) : LIVE_STREAM_LOST_MS);
  if (!(Number.isInteger(lostMs) && lostMs >= 1_000)) throw new Error(`CASTAWAY_LIVE_STREAM_LOST_MS must be a whole number of milliseconds, at least 1000 (got "${fromEnv ?? lostMs}")`);
  return { lostMs, heartbeatMs: liveStreamHeartbeatMs(lostMs), sweepMs: liveStreamSweepMs(lostMs) };
}

/** Where a stream's audio segments are kept: inside its upload, so they go with it. */
export const liveSegmentsKey = (recordingId: string, uploadId: string) => `${recordingKeys.upload(recordingId, uploadId)}/live`;
export const liveSegmentKey = (recordingId: string, uploadId: string, n: number) => `${liveSegmentsKey(recordingId, uploadId)}/${String(n).padStart(6, '0')}.mp3`;

/** A segment is stored before the heartbeat once this much arrived (a high bit rate): memory stays small. */
const LIVE_SEGMENT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A live stream's audio kept as it arrives (see the header): the chunks since the last segment,
 * stored by `flush` (each heartbeat) as the next segment, then counted in the stream's live_streams
 * row, whose seen_at moves with it. `taken`: the row was claimed by another (a sweep judged the
 * stream lost), so this instance stops receiving it. A segment that could not be stored (the disk
 * or database away) is kept and tried again at the next heartbeat, seen_at unmoved meanwhile.
 */
export class LiveAudioStore {
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private stored = 0;
  /** Bytes in the segments stored so far (live_streams.bytes). */
  private storedBytes = 0;
  private flushing: Promise<void> = Promise.resolve();
  taken = false;

  constructor(
    private readonly deps: { store: Store; log: Logger },
    private readonly blobs: BlobStore,
    private readonly recordingId: string,
    private readonly uploadId: string,
  ) {}

  /** Bytes that arrived and are not stored yet. */
  get pendingBytes(): number {
    return this.bytes;
  }

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.bytes += chunk.byteLength;
    if (this.bytes >= LIVE_SEGMENT_MAX_BYTES) void this.flush();
  }

  /** Stores what arrived since the last segment; with nothing new, checks the stream is still ours. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.storeSegment());
    return this.flushing;
  }

  private async storeSegment(): Promise<void> {
    if (this.taken) return;
    const { store, log } = this.deps;
    try {
      if (this.chunks.length === 0) {
        const [row] = await store.query<{ ours: boolean }>(`SELECT claimed_at IS NULL AS ours FROM live_streams WHERE recording_id = $1`, [this.recordingId]);
        if (!row?.ours) this.taken = true;
        return;
      }
    } catch (err) {
      log.warn({ err, recordingId: this.recordingId }, 'live stream not checked');
      return;
    }
    const parts = this.chunks;
    const all = new Uint8Array(this.bytes);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.byteLength;
    }
    this.chunks = [];
    this.bytes = 0;
    try {
      await this.blobs.putBytes(liveSegmentKey(this.recordingId, this.uploadId, this.stored), all);
      // The whole count, not an increment: a retry of a segment whose count was written after all
      // (the answer lost) writes the same figures again.
      const counted = await store.query(`UPDATE live_streams SET segments = $2, bytes = $3, seen_at = now() WHERE recording_id = $1 AND claimed_at IS NULL RETURNING 1`, [
        this.recordingId,
        this.stored + 1,
        this.storedBytes + all.byteLength,
      ]);
      if (counted.length === 0) {
        this.taken = true;
        return;
      }
      this.stored++;
      this.storedBytes += all.byteLength;
    } catch (err) {
      // Kept, ahead of what came meanwhile, for the next heartbeat (the same segment number).
      this.chunks = [all, ...this.chunks];
      this.bytes += all.byteLength;
      log.warn({ err, recordingId: this.recordingId }, 'live audio not stored yet');
    }
  }
}

/**
 * Writes the peaks of one stream as rows, in order, one INSERT at a time: what is decoded while an
 * INSERT is in flight goes in the next one together, so a slow database makes fewer, larger rows,
 * never a queue that falls behind the stream. A failed INSERT keeps its pixels for the next try.
 */
export class LivePeaksWriter {
  private pending: Int16Array[] = [];
  private pendingFirst = 0;
  private pendingRate = 0;
  private seq = 0;
  private writing: Promise<void> | null = null;
  /** The last INSERT that failed (null: the last one succeeded). */
  failure: unknown = null;

  constructor(
    private readonly deps: { store: Store; bus: ChangeBus; log: Logger },
    private readonly recordingId: string,
  ) {}

  /** Whole pixels decoded after those already given (firstPixel: where they go). */
  append(peaks: LivePeaks, sampleRate: number): void {
    if (peaks.data.length === 0) return;
    if (this.pending.length === 0) this.pendingFirst = peaks.firstPixel;
    this.pending.push(peaks.data);
    this.pendingRate = sampleRate;
    this.writing ??= this.write().finally(() => (this.writing = null));
  }

  /** Resolves when what was appended is written (or its INSERT failed: `failure`). */
  async drain(): Promise<void> {
    if (this.pending.length > 0 && !this.writing) this.writing = this.write().finally(() => (this.writing = null));
    while (this.writing) await this.writing;
  }

  private async write(): Promise<void> {
    while (this.pending.length > 0) {
      const parts = this.pending;
      const first = this.pendingFirst;
      const rate = this.pendingRate;
      const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.length;
      }
      this.pending = [];
      const data = base64Of(all);
      try {
        await this.deps.store.query(`INSERT INTO live_peaks (recording_id, seq, first_pixel, sample_rate, data) VALUES ($1, $2, $3, $4, $5)`, [this.recordingId, this.seq, first, rate, data]);
      } catch (err) {
        // Kept, ahead of what came meanwhile, for the next append or the drain to try again.
        this.pending = [all, ...this.pending];
        this.pendingFirst = first;
        this.failure = err;
        this.deps.log.warn({ err, recordingId: this.recordingId }, 'live peaks not written yet');
        return;
      }
      this.failure = null;
      const row: PeaksRow = { seq: this.seq++, first_pixel: first, sample_rate: rate, data };
      // The row itself rides along when it fits: a watcher then sends it without reading it back.
      const payload = JSON.stringify(row);
      this.deps.bus.signal(livePeaksTopic(this.recordingId), payload.length <= SIGNAL_PAYLOAD_MAX ? payload : '');
    }
  }
}

/** Removes a recording's live peaks: it is Finalized, its waveforms serve it now. */
export async function removeLivePeaks(q: Queryable, recordingId: string): Promise<void> {
  await q.query(`DELETE FROM live_peaks WHERE recording_id = $1`, [recordingId]);
}

type PeaksRow = { seq: number; first_pixel: number; sample_rate: number; data: string };
const parsePeaksRow = (payload: string): PeaksRow | null => {
  try {
    const r = JSON.parse(payload) as Partial<PeaksRow>;
    return typeof r.seq === 'number' && typeof r.first_pixel === 'number' && typeof r.sample_rate === 'number' && typeof r.data === 'string' ? (r as PeaksRow) : null;
  } catch {
    return null;
  }
};

/** Whether a recording row is an agent's stream still coming in (section 4: Live, with the live AudioUrl). */
export const streaming = (row: Record<string, unknown> | null) =>
  row?.['State'] === 'Live' && row['Deleted'] !== true && isLiveAudioUrl(((row['Urls'] as Record<string, string | null> | undefined)?.['AudioUrl']) ?? null);

/**
 * Follows a recording's live peaks from any instance (see the header): what is there as one event,
 * then each row as it is written, exactly once and in order, then the end. Returns the stop.
 * `after`: the last row a reconnecting watcher already has (its Last-Event-ID); only rows after it are sent.
 */
export function followLivePeaks(deps: { store: Store; bus: ChangeBus }, organizationId: string, recordingId: string, listener: LiveListener, after = -1): () => void {
  let last = after;
  let sent = 0;
  let stopped = false;
  let running = false;
  let again = false;
  let readRow = true;

  const send = (rows: PeaksRow[], asOne: boolean) => {
    if (rows.length === 0) return;
    if (asOne && rows.length > 1) {
      const parts = rows.map((r) => int16Of(r.data));
      const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.length;
      }
      listener.peaks({ FirstPixel: rows[0]!.first_pixel, SamplesPerPixel: LIVE_SAMPLES_PER_PIXEL, SampleRate: rows[rows.length - 1]!.sample_rate, Data: base64Of(all) }, rows[rows.length - 1]!.seq);
    } else {
      for (const r of rows) listener.peaks({ FirstPixel: r.first_pixel, SamplesPerPixel: LIVE_SAMPLES_PER_PIXEL, SampleRate: r.sample_rate, Data: r.data }, r.seq);
    }
    last = rows[rows.length - 1]!.seq;
    sent++;
  };
  const newRows = () => deps.store.query<PeaksRow>(`SELECT seq, first_pixel, sample_rate, data FROM live_peaks WHERE recording_id = $1 AND seq > $2 ORDER BY seq`, [recordingId, last]);

  const pump = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const checkRow = readRow;
        readRow = false;
        send(await newRows(), sent === 0);
        if (stopped || !checkRow) continue;
        const row = await loadRow(deps.store, 'recording', organizationId, recordingId);
        if (streaming(row)) continue;
        // Its stream ended: the rows written before the row left Live, then the end.
        send(await newRows(), sent === 0);
        if (stopped) return;
        stop();
        listener.end({ State: String(row?.['State'] ?? 'Finalized'), HasTornAudio: row?.['HasTornAudio'] === true });
        return;
      } while (again && !stopped);
    } catch {
      // The store closing or a lost connection: the next signal, change or tick reads again.
      readRow = true;
    } finally {
      running = false;
    }
  };

  const topic = livePeaksTopic(recordingId);
  const offSignal = deps.bus.onSignal((t, payload) => {
    if (t !== topic) return;
    // The next row, carried by the signal, while no read is under way: sent as it is (in order and
    // once: its seq follows the last sent). Anything else is read from the table.
    if (!running && !stopped && sent > 0 && payload) {
      const row = parsePeaksRow(payload);
      if (row?.seq === last + 1) return send([row], false);
    }
    void pump();
  });
  const offChange = deps.bus.subscribe((change) => {
    if (change.organizationId !== organizationId && change.organizationId !== null) return;
    readRow = true;
    void pump();
  });
  const timer = setInterval(() => {
    readRow = true;
    void pump();
  }, WATCH_POLL_MS);
  timer.unref?.();
  function stop() {
    stopped = true;
    offSignal();
    offChange();
    clearInterval(timer);
  }
  void pump();
  return stop;
}

/** How often a listener on an instance not receiving the stream looks for its next stored segment. */
const STORED_AUDIO_POLL_MS = 1_000;

/**
 * A live stream's audio for a listener on an instance that does not receive it (see the header):
 * the segments stored in the shared blob store, from the newest one on, as a radio stream is heard
 * (behind the receiving instance by up to a heartbeat), each as it is stored, until the stream is
 * claimed (ended, or judged lost) and its last segment sent. MP3 read from a segment's start may
 * begin inside a frame: decoders find the next frame's sync word, as they do joining any radio
 * stream. null: no stream of this recording is coming in.
 */
export async function storedLiveAudio(deps: { store: Store; log: Logger }, blobs: BlobStore, recordingId: string): Promise<ReadableStream<Uint8Array> | null> {
  type Row = { upload_id: string; segments: number; bytes: number | null; claimed: boolean };
  const read = async () =>
    (await deps.store.query<Row>(`SELECT upload_id, segments, bytes, claimed_at IS NOT NULL AS claimed FROM live_streams WHERE recording_id = $1`, [recordingId]))[0] ?? null;
  const first = await read();
  if (!first || first.claimed) return null;
  let next = Math.max(0, first.segments - 1);
  let cancelled = false;
  // Where the next segment starts in the whole stream: the recording made of the segments when it
  // ends (live-end.ts assembleLiveAudio, which then removes them) gives the rest from there. The
  // row counts the bytes of its stored segments, so that is the count less the newest one's size,
  // however long the stream has run; a row without a count (a stream received by an instance
  // older than migration 0645) has its earlier segments sized one by one. A counted segment is
  // stored before it is counted, so one that is not there was removed with the stream's end, between
  // the row's read and here: no stream is coming in any more (and where it stood is unknown).
  const newestOnly = first.segments > 0 ? [next] : [];
  const allBeforeNewest = Array.from({ length: next }, (_, n) => n);
  const sizes = await Promise.all((first.bytes !== null ? newestOnly : allBeforeNewest).map((n) => blobs.size(liveSegmentKey(recordingId, first.upload_id, n))));
  if (sizes.some((size) => size === null)) return null;
  const sized = sizes.reduce<number>((sum, size) => sum + size!, 0);
  let offset = first.bytes !== null ? first.bytes - sized : sized;
  /** The next stored segment, or null when there is none (yet, or removed with the stream's end). */
  const segment = async (): Promise<Uint8Array | null> => {
    const key = liveSegmentKey(recordingId, first.upload_id, next);
    if ((await blobs.size(key)) === null) return null;
    next++;
    const bytes = new Uint8Array(await (await blobs.blob(key)).arrayBuffer());
    offset += bytes.byteLength;
    return bytes;
  };
  /** After the end, what the assembled recording holds past what was sent (segments already removed). */
  const rest = async (): Promise<Uint8Array | null> => {
    const key = recordingKeys.audio(recordingId, first.upload_id);
    const size = await blobs.size(key);
    if (size === null || size <= offset) return null;
    const bytes = new Uint8Array(await new Response(blobs.stream(key, offset, size - 1)).arrayBuffer());
    offset = size;
    return bytes;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (!cancelled) {
          const row = await read();
          // Claimed, or gone with the recording made of the segments: the stream has ended; what
          // is stored after what was sent (its last heartbeats) is sent, then the end.
          const ended = !row || row.claimed;
          if (ended || next < row.segments) {
            const bytes = (await segment()) ?? (ended ? await rest() : null);
            if (bytes) return controller.enqueue(bytes);
            // Claimed but not yet put together (the row still there, no recording file): wait for it.
            if (ended && (!row || (await blobs.size(recordingKeys.audio(recordingId, first.upload_id))) !== null)) return controller.close();
          }
          await new Promise((resolve) => setTimeout(resolve, STORED_AUDIO_POLL_MS));
        }
      } catch (err) {
        // The database or blob store away: the listener's stream ends (its player may ask again).
        deps.log.warn({ err, recordingId }, 'stored live audio not read');
        controller.close();
      }
    },
    cancel() {
      cancelled = true;
    },
  });
}

/** One stream's live audio on the instance that receives it, and who listens to it. */
export class LiveAudio {
  /** Those listening to the stream's audio: each gets the bytes from when they joined (as a radio
   *  stream is heard), the recording as a whole is the file made when the stream ends. */
  private readonly hearers = new Set<ReadableStreamDefaultController<Uint8Array>>();
  private ended = false;

  /** A chunk of the stream's audio, as it arrived, to each listener. */
  push(chunk: Uint8Array): void {
    for (const h of this.hearers) {
      try {
        h.enqueue(chunk);
      } catch {
        this.hearers.delete(h);
      }
    }
  }
  /** The stream's audio from now on (null once it has ended). */
  listen(): ReadableStream<Uint8Array> | null {
    if (this.ended) return null;
    let me: ReadableStreamDefaultController<Uint8Array> | null = null;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        me = controller;
        this.hearers.add(controller);
      },
      cancel: () => {
        if (me) this.hearers.delete(me);
      },
    });
  }
  end(): void {
    this.ended = true;
    for (const h of this.hearers) {
      try {
        h.close();
      } catch {
        // Already closed by its listener.
      }
    }
    this.hearers.clear();
  }
}

/** The live streams this instance receives, by recording id (their audio; the peaks are rows). */
export function liveStreams() {
  const streams = new Map<string, LiveAudio>();
  return {
    open(recordingId: string): LiveAudio {
      const s = new LiveAudio();
      streams.set(recordingId, s);
      return s;
    },
    get: (recordingId: string) => streams.get(recordingId) ?? null,
    close(recordingId: string, stream: LiveAudio): void {
      stream.end();
      if (streams.get(recordingId) === stream) streams.delete(recordingId);
    },
  };
}
