// A recording as it happens (issue 34): while its agent's stream comes in, the server sends its
// waveform's peaks as they are decoded (GET /v1/recordings/{id}/live/peaks, server-sent events,
// read with fetch so the call carries the organization like every other). Each append is drawn
// after what is already drawn — a column per LIVE_PIXELS_PER_COLUMN pixels, on canvas tiles added
// as it grows — never drawn or decoded again. The live edge is marked at the end, and a note can be
// added there as an annotation (the local store and outbox, as every annotation). A connection that
// closes without the end (or the device going offline) is said on screen and asked for again with
// a backoff (src/domain/live-streams.ts), as Last-Event-ID: the waveform resumes where it stopped,
// nothing drawn twice. When the stream
// ends the row turns Processing and then Finalized through sync, and RecordingAudio shows the
// finalized waveform and duration in its place without a reload.
import { useEffect, useRef, useState } from 'react';
import { formatFormError } from '../../domain/messages.ts';
import { formatTimeEntry } from '../../domain/time.ts';
import { addAnnotation } from '../../db/writes.ts';
import { organizationHeaders, routeUrl } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { m } from '../../paraglide/messages.js';
import { LiveEventError, readLiveEvents } from '../../media/live-events.ts';
import { liveWatchRetryMs } from '../../domain/live-streams.ts';
import { liveRecordingPeaks, type LiveEndEvent, type LivePeaksEvent } from '../../protocol/api/live-recordings.ts';
import { Field } from '../../ui/Field.tsx';

/** Live pixels (256 samples each) per drawn column: about a tenth of a second at 44.1 kHz. */
const LIVE_PIXELS_PER_COLUMN = 16;
const TILE_WIDTH = 512;
const HEIGHT = 96;

const int16Of = (base64: string): Int16Array => {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Int16Array(bytes.buffer, 0, bytes.length / 2);
};

/** Draws appended peaks as columns on canvas tiles; keeps only the column still being filled. */
class ColumnPainter {
  columns = 0;
  private lo = 32767;
  private hi = -32768;
  private inColumn = 0;
  constructor(private readonly tile: (index: number) => HTMLCanvasElement | null) {}

  append(data: Int16Array): void {
    for (let i = 0; i + 1 < data.length; i += 2) {
      this.lo = Math.min(this.lo, data[i]!);
      this.hi = Math.max(this.hi, data[i + 1]!);
      if (++this.inColumn === LIVE_PIXELS_PER_COLUMN) this.flush();
    }
  }

  private flush(): void {
    const canvas = this.tile(Math.floor(this.columns / TILE_WIDTH));
    const ctx = canvas?.getContext('2d');
    if (ctx) {
      const x = this.columns % TILE_WIDTH;
      const mid = HEIGHT / 2;
      const top = mid - (this.hi / 32768) * mid;
      const bottom = mid - (this.lo / 32768) * mid;
      ctx.fillStyle = getComputedStyle(canvas!).color || '#2563eb';
      ctx.fillRect(x, top, 1, Math.max(1, bottom - top));
    }
    this.columns++;
    this.lo = 32767;
    this.hi = -32768;
    this.inColumn = 0;
  }
}

/** listenUrl: the stream's audio as it is captured (the Live row's AudioUrl), heard from the moment it is played. */
export function RecordingLive({ recordingId, listenUrl = null }: { recordingId: string; listenUrl?: string | null }) {
  const online = useOnline();
  const [seconds, setSeconds] = useState(0);
  const [columns, setColumns] = useState(0);
  const [ended, setEnded] = useState<LiveEndEvent | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  /** The event stream closed without its end and is being asked for again. */
  const [lost, setLost] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const tiles = useRef<Array<HTMLCanvasElement | null>>([]);
  const [tileCount, setTileCount] = useState(1);
  // What this recording's waveform holds so far, kept across connections (a lost one, offline and
  // back): the painter, the pixels received and the last event's id, sent back as Last-Event-ID.
  const watch = useRef<{ recordingId: string; painter: ColumnPainter; pixels: number; lastId: string | null } | null>(null);
  if (watch.current?.recordingId !== recordingId) watch.current = { recordingId, painter: new ColumnPainter((i) => tiles.current[i] ?? null), pixels: 0, lastId: null };

  useEffect(() => {
    if (!online || ended) return;
    const abort = new AbortController();
    const w = watch.current!;
    let attempt = 0;
    const onPeaks = (e: LivePeaksEvent, id: string | null) => {
      // A connection given up (offline, unmounted) draws nothing more: the next one resumes after lastId.
      if (abort.signal.aborted) return;
      if (id !== null) w.lastId = id;
      attempt = 0;
      let data = int16Of(e.Data);
      const end = e.FirstPixel + data.length / 2;
      // Pixels already drawn (a server that cannot resume sends them again) are not drawn twice.
      if (end <= w.pixels) return;
      if (e.FirstPixel < w.pixels) data = data.subarray((w.pixels - e.FirstPixel) * 2);
      w.pixels = end;
      // Tiles the new columns need are mounted first (state), then drawn on the next frame.
      const needed = Math.ceil((w.painter.columns + data.length / 2 / LIVE_PIXELS_PER_COLUMN + 1) / TILE_WIDTH);
      setTileCount((n) => Math.max(n, needed));
      requestAnimationFrame(() => {
        w.painter.append(data);
        setColumns(w.painter.columns);
      });
      if (e.SampleRate > 0) setSeconds((end * e.SamplesPerPixel) / e.SampleRate);
    };
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    void (async () => {
      // Until the end: a connection that closes without it (a server restarting, a proxy's timeout,
      // a line lost in a tunnel) is said on screen and asked for again after a backoff, from the
      // last event received.
      while (!abort.signal.aborted) {
        try {
          const headers: Record<string, string> = { ...organizationHeaders() };
          if (w.lastId !== null) headers['last-event-id'] = w.lastId;
          const res = await fetch(routeUrl(liveRecordingPeaks, { params: { recordingId } }), { headers, credentials: 'same-origin', signal: abort.signal });
          // A server or proxy that is down or restarting answers 5xx: asked again. Anything else
          // (not found, no access) would be the same next time.
          if (!res.ok && res.status < 500) return setFailed(String(res.status));
          if (res.ok && res.body) {
            setLost(false);
            const end = await readLiveEvents(res.body, onPeaks);
            if (end) return setEnded(end);
          }
        } catch (error) {
          if (abort.signal.aborted) return;
          if (error instanceof LiveEventError) return setFailed(error.message);
        }
        if (abort.signal.aborted) return;
        setLost(true);
        await wait(liveWatchRetryMs(++attempt));
      }
    })();
    return () => abort.abort();
  }, [recordingId, online, ended]);

  const addAtEdge = async () => {
    if (!note.trim()) {
      setNoteError(formatFormError({ type: 'required' }));
      return;
    }
    setNoteError(null);
    const offset = Math.floor(seconds * 10) / 10;
    if (!(await withLoading(savedLocally(addAnnotation(recordingId, { OffsetSeconds: offset, Text: note.trim(), DurationSeconds: null }))))) return;
    setNote('');
  };

  const time = formatTimeEntry(Math.floor(seconds));
  return (
    <div className="live-recording">
      <h3>{m.media_live_title()}</h3>
      {!online && !ended && <p role="status" className="alert alert-warning">{m.live_watch_offline()}</p>}
      {online && lost && !ended && !failed && <p role="status" className="alert alert-warning">{m.live_watch_lost()}</p>}
      {failed && <p role="alert" className="alert alert-error">{m.media_live_failed({ status: failed })}</p>}
      {columns === 0 && !ended && online && !failed && !lost && <p className="muted">{m.media_live_waiting()}</p>}
      <div className="live-waveform" role="img" aria-label={m.media_live_canvas({ time })} data-drawn-width={columns} style={{ overflowX: 'auto', position: 'relative', height: HEIGHT }}>
        <div style={{ position: 'relative', width: tileCount * TILE_WIDTH, height: HEIGHT, display: 'flex' }}>
          {Array.from({ length: tileCount }, (_, i) => (
            <canvas key={i} ref={(el) => void (tiles.current[i] = el)} width={TILE_WIDTH} height={HEIGHT} style={{ flex: 'none' }} />
          ))}
          {!ended && columns > 0 && <div className="live-edge" data-testid="live-edge" aria-hidden="true" style={{ position: 'absolute', left: columns, top: 0, bottom: 0, width: 2, background: 'currentColor' }} />}
        </div>
      </div>
      {!ended && <p className="muted" role="status">{m.media_live_edge({ time })}</p>}
      {!ended && listenUrl && online && <audio className="live-listen" controls preload="none" src={listenUrl} aria-label={m.media_live_listen()} />}
      {/* Ended straight into Finalized while cut off is the zero-duration case (live-end.ts): nothing
          could be kept, so nothing is being processed either. A stream with audio goes through Processing. */}
      {ended && !(ended.HasTornAudio && ended.State === 'Finalized') && <p role="status" className="alert alert-info">{m.media_live_ended()}</p>}
      {ended?.HasTornAudio && <p role="status" className="alert alert-warning">{ended.State === 'Finalized' ? m.live_torn_lost() : m.media_live_torn()}</p>}
      {!ended && (
        <form
          className="annotation-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void addAtEdge();
          }}
        >
          <Field label={m.media_live_note()} error={noteError} className="grow">
            <input value={note} onChange={(e) => setNote(e.target.value)} />
          </Field>
          <button type="submit" className="button" disabled={columns === 0}>{m.media_live_add_annotation()}</button>
        </form>
      )}
    </div>
  );
}
