// A live recording's stream (issue 34): an agent's MP3 body, read chunk by chunk as the encoder
// sends it. Each chunk goes three ways at once:
//
//   request body ──chunk──┬─> the upload file (blobs.put, streamed: the whole stream is the recording's audio)
//                         ├─> each listener of the live audio (the Live row's AudioUrl: …/live/audio)
//                         └─> LiveMp3Peaks.push (mpg123 fed once; whole pixels out) ──> LiveSession.append
//                                                                                        └─> each watcher (SSE)
//   end of body ──> the last pixel, 'end' to watchers ──> startRecordingIngest (the existing
//                   pipeline: Processing, then the job's waveforms, audio and DurationSeconds)
//   body cut off ──> what arrived is kept, HasTornAudio set, and the same pipeline finalizes it
//
// The live peaks are kept in memory, append-only, by the instance that holds the stream: a watcher
// that joins late gets them all in one event, then each append. (An instance behind a load
// balancer answers watchers of streams it holds; a watcher of another instance's stream gets
// 'end' and the row as synced. One instance per studio is how the studio is deployed today.)
import type { LivePeaks } from '../../src/media/live-peaks.ts';
import { LIVE_SAMPLES_PER_PIXEL } from '../../src/media/live-peaks.ts';
import type { LiveEndEvent, LivePeaksEvent } from '../../src/protocol/api/live-recordings.ts';

export type LiveListener = { peaks(event: LivePeaksEvent): void; end(event: LiveEndEvent): void };

const base64Of = (data: Int16Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');

/** One live stream's peaks so far and who watches them. */
export class LiveSession {
  private readonly parts: Int16Array[] = [];
  private pixels = 0;
  private readonly listeners = new Set<LiveListener>();
  /** Those listening to the stream's audio: each gets the bytes from when they joined (as a radio
   *  stream is heard), the recording as a whole is the file made when the stream ends. */
  private readonly hearers = new Set<ReadableStreamDefaultController<Uint8Array>>();
  sampleRate = 0;
  ended: LiveEndEvent | null = null;

  /** Whole pixels decoded after those already here (append-only: firstPixel is where they go). */
  append(peaks: LivePeaks, sampleRate: number): void {
    if (peaks.data.length === 0) return;
    if (peaks.firstPixel !== this.pixels) throw new Error(`live peaks out of order: ${peaks.firstPixel} after ${this.pixels}`);
    this.parts.push(peaks.data);
    this.pixels += peaks.data.length / 2;
    this.sampleRate = sampleRate;
    const event: LivePeaksEvent = { FirstPixel: peaks.firstPixel, SamplesPerPixel: LIVE_SAMPLES_PER_PIXEL, SampleRate: sampleRate, Data: base64Of(peaks.data) };
    for (const l of this.listeners) l.peaks(event);
  }

  /** A chunk of the stream's audio, as it arrived, to each listener. */
  pushAudio(chunk: Uint8Array): void {
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
  end(event: LiveEndEvent): void {
    this.ended = event;
    for (const h of this.hearers) {
      try {
        h.close();
      } catch {
        // Already closed by its listener.
      }
    }
    this.hearers.clear();
    for (const l of this.listeners) l.end(event);
    this.listeners.clear();
  }

  /** Everything so far as one event (null: nothing yet), then each append, then the end. */
  watch(listener: LiveListener): () => void {
    if (this.pixels > 0) {
      const all = new Int16Array(this.pixels * 2);
      let at = 0;
      for (const p of this.parts) {
        all.set(p, at);
        at += p.length;
      }
      listener.peaks({ FirstPixel: 0, SamplesPerPixel: LIVE_SAMPLES_PER_PIXEL, SampleRate: this.sampleRate, Data: base64Of(all) });
    }
    if (this.ended) {
      listener.end(this.ended);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The live streams this instance holds, by recording id. An ended one is kept a minute, so a
 *  watcher that arrives just after the end still draws the whole stream. */
export function liveSessions(keepEndedMs = 60_000) {
  const sessions = new Map<string, LiveSession>();
  return {
    open(recordingId: string): LiveSession {
      const s = new LiveSession();
      sessions.set(recordingId, s);
      return s;
    },
    get: (recordingId: string) => sessions.get(recordingId) ?? null,
    close(recordingId: string, session: LiveSession, event: LiveEndEvent): void {
      session.end(event);
      setTimeout(() => {
        if (sessions.get(recordingId) === session) sessions.delete(recordingId);
      }, keepEndedMs).unref?.();
    },
  };
}
export type LiveSessions = ReturnType<typeof liveSessions>;
