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
//   watching ──signal carrying row last+1──> 'peaks' (no read)
//      │ ──other signal / change / 5 s──> read rows seq > last ──> 'peaks' each, in order
//      │                                   (a change or the timer also reads the recording row)
//      └── row not Live, or not an agent's stream ──> read rows once more ──> 'end' { State, HasTornAudio }
//
// The live audio (…/live/audio) stays with the instance that receives the stream: a listener on
// another instance gets 404, as for a recording that is not live, and hears the whole recording
// once it is Finalized.
import type { Logger } from 'pino';
import type { LivePeaks } from '../../src/media/live-peaks.ts';
import { LIVE_SAMPLES_PER_PIXEL } from '../../src/media/live-peaks.ts';
import { isLiveAudioUrl, type LiveEndEvent, type LivePeaksEvent } from '../../src/protocol/api/live-recordings.ts';
import { SIGNAL_PAYLOAD_MAX, type ChangeBus } from '../bus.ts';
import { loadRow } from '../rows.ts';
import type { Queryable, Store } from '../store/store.ts';

export type LiveListener = { peaks(event: LivePeaksEvent): void; end(event: LiveEndEvent): void };

const base64Of = (data: Int16Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
/** Copied out of Buffer's shared pool, where it may not start on an even byte. */
const int16Of = (base64: string) => new Int16Array(Uint8Array.from(Buffer.from(base64, 'base64')).buffer);

/** The bus topic of a recording's appended peaks. */
export const livePeaksTopic = (recordingId: string) => `live-peaks:${recordingId}`;

/** How often a watcher reads again with no signal (a NOTIFY lost while the bus reconnected). */
const WATCH_POLL_MS = 5_000;

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
const streaming = (row: Record<string, unknown> | null) =>
  row?.['State'] === 'Live' && row['Deleted'] !== true && isLiveAudioUrl(((row['Urls'] as Record<string, string | null> | undefined)?.['AudioUrl']) ?? null);

/**
 * Follows a recording's live peaks from any instance (see the header): what is there as one event,
 * then each row as it is written, exactly once and in order, then the end. Returns the stop.
 */
export function followLivePeaks(deps: { store: Store; bus: ChangeBus }, organizationId: string, recordingId: string, listener: LiveListener): () => void {
  let last = -1;
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
      listener.peaks({ FirstPixel: rows[0]!.first_pixel, SamplesPerPixel: LIVE_SAMPLES_PER_PIXEL, SampleRate: rows[rows.length - 1]!.sample_rate, Data: base64Of(all) });
    } else {
      for (const r of rows) listener.peaks({ FirstPixel: r.first_pixel, SamplesPerPixel: LIVE_SAMPLES_PER_PIXEL, SampleRate: r.sample_rate, Data: r.data });
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
