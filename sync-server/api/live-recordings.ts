// Recordings as they happen (issue 34; the routes: src/protocol/api/live-recordings.ts; the
// stream's work: sync-server/audio/live-ingest.ts).
//
//   PUT|POST /v1/programs/{programId}/recordings/live  (agentGuard: Basic agentId:token or Bearer token)
//     no or unknown credentials, a deleted agent ──> 401 with a body naming Authorization
//     a program the agent may not push to ──> 403 with a body naming programId
//     ──> recording inserted Live (announced on the bus: devices sync it), its live_streams row
//     ──> body read: each chunk to the live audio's listeners, the peaks rows, the stored segments
//     ──> body ends (or is cut off, or passes the size limit: torn) ──> finishLiveStream ──> 201
//         (a stream a sweep judged lost meanwhile is the sweep's to end: 201 with the row as it is)
//   GET /v1/recordings/{recordingId}/live/peaks (guard.row: content access) ──> text/event-stream
//     on any instance: the peaks are rows (live_peaks) the ingesting instance writes and signals;
//     each 'peaks' event's id is its last row's seq, and Last-Event-ID resumes after it
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { formError } from '../../src/domain/form-errors.ts';
import { readAgentCredentials } from '../../src/domain/recording-agents.ts';
import { LiveMp3Peaks } from '../../src/media/live-peaks.ts';
import * as routes from '../../src/protocol/api/live-recordings.ts';
import { LIVE_END_EVENT, LIVE_PEAKS_EVENT } from '../../src/protocol/api/live-recordings.ts';
import type { Recording } from '../../src/protocol/entities.ts';
import { getAuth, sha256 } from '../auth.ts';
import { now } from '../app.ts';
import { AppError, fieldError, notFound } from '../errors.ts';
import { insertRow, loadRow } from '../rows.ts';
import type { AudioService } from '../audio/service.ts';
import { followLivePeaks, LiveAudioStore, liveStreams, liveStreamSettings, LivePeaksWriter, storedLiveAudio } from '../audio/live-ingest.ts';
import { finishLiveStream } from '../audio/live-end.ts';
import { logOf } from '../observability/log.ts';
import { guard, type Access } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

type Agent = { id: string; organization_id: string; name: string };

declare module 'hono' {
  interface ContextVariableMap {
    /** The recording agent a live push authenticated as (agentGuard). */
    agent: Agent;
  }
}

/** The 401 of refused agent credentials: a body (an encoder's log shows it) and the Basic challenge. */
const agentRefused = () =>
  new AppError(401, { Errors: [fieldError('Authorization', formError('invalid', 'domain_recording_agent_refused'))] }, { 'WWW-Authenticate': 'Basic realm="Castaway recording agent", charset="UTF-8"' });

/** Seconds after the last push that an agent's LastSeenAtUtc is written again. */
const SEEN_RESOLUTION_MS = 60_000;

/** A recording agent's credentials, and the program in the path one it may push to. */
function agentGuard(): Access {
  const check: MiddlewareHandler = async (c, next) => {
    const credentials = readAgentCredentials(c.req.header('authorization'));
    if (!credentials) throw agentRefused();
    const deps = c.get('deps');
    const [agent] = await deps.store.query<Agent & { last_seen_at_utc: Date | null }>(
      `SELECT id, organization_id, name, last_seen_at_utc FROM recording_agents WHERE token_hash = $1 AND NOT deleted`,
      [sha256(credentials.token)],
    );
    // Basic names the agent too: a token with another agent's id is refused like a wrong token.
    if (!agent || (credentials.agentId !== null && credentials.agentId !== agent.id)) throw agentRefused();
    const programId = (c.req.param('programId') ?? '').toLowerCase();
    const [allowed] = await deps.store.query(
      `SELECT 1 FROM recording_agent_programs ap JOIN programs p ON p.id = ap.program_id WHERE ap.agent_id = $1 AND ap.program_id::text = $2 AND NOT p.deleted`,
      [agent.id, programId],
    );
    if (!allowed) throw new AppError(403, { Errors: [fieldError('programId', formError('invalid', 'domain_recording_agent_program_refused'))] });
    const at = now(deps);
    if (!agent.last_seen_at_utc || at.getTime() - new Date(agent.last_seen_at_utc).getTime() >= SEEN_RESOLUTION_MS) {
      await deps.store.query(`UPDATE recording_agents SET last_seen_at_utc = $2 WHERE id = $1`, [agent.id, at]);
    }
    c.set('agent', agent);
    await next();
  };
  return { middleware: [check], describe: 'A recording agent (Basic agentId:token or Bearer token) that may push to the program' };
}

export function liveRecordingRoutes(audio: AudioService) {
  const streams = liveStreams();

  const ingest = guarded(routes.putLiveRecording, agentGuard());
  const handler = async (c: Parameters<Parameters<ReturnType<typeof resourceApp>['openapi']>[1]>[0]) => {
    const deps = c.get('deps');
    const agent = c.get('agent');
    const organizationId = agent.organization_id;
    const programId = (c.req.param('programId') ?? '').toLowerCase();
    const title = c.req.query('title')?.trim();
    const started = now(deps);
    const id = randomUUID();
    const fields = {
      ProgramId: programId,
      Title: title || `Live ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      State: 'Live',
      BreakType: null,
      CaptureStartUtc: started.toISOString(),
      CaptureEndUtc: null,
      Description: `Recorded by ${agent.name}`,
      HasTornAudio: false,
      Rating: null,
      Reviewed: false,
      TranscriptStatus: null,
      V1CorrelationId: null,
      V2CorrelationId: null,
      DurationSeconds: null,
      // Section 4: a Live recording has its audio link, the stream as it is captured; the ingest
      // job gives it the whole recording's when the stream ends.
      Urls: { AudioUrl: routes.liveAudioUrl(id), WaveformHighResUrl: null, WaveformLowResUrl: null },
    };
    const uploadId = randomUUID();
    const row = await deps.store.tx(async (q) => {
      const inserted = await insertRow(q, 'recording', id, { organizationId, userId: null, now: started }, fields);
      // The stream's row (live-ingest.ts): its heartbeats, and the sweep's if this instance dies.
      await q.query(`INSERT INTO live_streams (recording_id, organization_id, upload_id, bytes) VALUES ($1, $2, $3, 0)`, [id, organizationId, uploadId]);
      return inserted;
    });
    // Devices hear of the new Live recording as of any change, and pull it.
    deps.bus.publish({ organizationId, version: row.Version });

    const live = streams.open(id);
    const log = logOf(deps);
    const writer = new LivePeaksWriter({ store: deps.store, bus: deps.bus, log }, id);
    const kept = new LiveAudioStore({ store: deps.store, log }, audio.blobs, id, uploadId);
    const peaks = new LiveMp3Peaks();
    await peaks.ready();
    let torn = false;
    let received = 0;
    const reader = (c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (ctl) => ctl.close() })).getReader();
    // Every heartbeat what arrived is stored; a stream a sweep has taken as lost is no longer read.
    const heartbeat = setInterval(() => {
      void kept.flush().then(() => {
        if (kept.taken) void reader.cancel().catch(() => undefined);
      });
    }, liveStreamSettings(deps.live).heartbeatMs);
    try {
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          // Cut off by the sender: what arrived is the recording (an encoder that lost its line
          // must not lose the hour it already sent).
          torn = true;
          break;
        }
        if (next.done || kept.taken) break;
        const chunk = next.value;
        if (received + chunk.byteLength > audio.maxUploadBytes) {
          // Past the size limit: what arrived before it is kept, and the recording says it is cut off.
          torn = true;
          void reader.cancel().catch(() => undefined);
          break;
        }
        received += chunk.byteLength;
        live.push(chunk);
        writer.append(peaks.push(chunk), peaks.sampleRate);
        kept.push(chunk);
      }
    } finally {
      clearInterval(heartbeat);
    }
    writer.append(peaks.end(), peaks.sampleRate);
    // Every pixel is a row before the row leaves Live: watchers read the rest, then end.
    await writer.drain();
    await kept.flush();
    const decodedSeconds = peaks.durationSeconds;
    // Ours to end unless a sweep judged the stream lost first (then it has ended it).
    const [claimed] = kept.taken
      ? []
      : await deps.store.query<{ segments: number }>(`UPDATE live_streams SET claimed_at = now() WHERE recording_id = $1 AND claimed_at IS NULL RETURNING segments`, [id]);
    let size = 0;
    if (claimed) {
      size = await finishLiveStream(deps, audio, {
        organizationId,
        recordingId: id,
        uploadId,
        segments: claimed.segments,
        endedAt: now(deps),
        // Audio that could not be stored (the disk away at the end) is missing from the recording too.
        torn: torn || peaks.errors > 0 || kept.pendingBytes > 0,
        decoded: decodedSeconds > 0,
      });
    }
    const recording = (await loadRow(deps.store, 'recording', organizationId, id)) as unknown as Recording;
    streams.close(id, live);
    return c.json({ Recording: recording, SizeInBytes: size, DecodedSeconds: decodedSeconds }, 201);
  };

  return resourceApp()
    .openapi(ingest, handler)
    .openapi(guarded(routes.postLiveRecording, agentGuard()), handler)
    .openapi(guarded(routes.liveRecordingAudio, guard.row('recordings', 'recordingId')), async (c) => {
      // The stream's own bytes on the instance receiving it; elsewhere its stored segments.
      const audioStream = streams.get(c.var.row.Id)?.listen() ?? (await storedLiveAudio({ store: c.get('deps').store, log: logOf(c.get('deps')) }, audio.blobs, c.var.row.Id));
      if (!audioStream) throw notFound();
      return new Response(audioStream, { status: 200, headers: { 'content-type': 'audio/mpeg', 'cache-control': 'no-store' } });
    })
    .openapi(guarded(routes.liveRecordingPeaks, guard.row('recordings', 'recordingId')), async (c) => {
      const deps = c.get('deps');
      const row = c.var.row as unknown as Recording;
      const { organizationId } = getAuth(c);
      // A watcher reconnecting (its connection went) has the rows up to its Last-Event-ID already.
      const lastId = c.req.valid('header')['last-event-id'];
      const after = lastId === undefined ? -1 : Number(lastId);
      return streamSSE(c, async (stream) => {
        let wake: (() => void) | null = null;
        const queue: Array<{ event: string; data: string; id?: string }> = [];
        let done = false;
        // What is there, each append, then the end once the row leaves Live (any instance's stream).
        const stop = followLivePeaks(deps, organizationId, row.Id, {
          peaks: (e, seq) => {
            queue.push({ event: LIVE_PEAKS_EVENT, data: JSON.stringify(e), id: String(seq) });
            wake?.();
          },
          end: (e) => {
            queue.push({ event: LIVE_END_EVENT, data: JSON.stringify(e) });
            done = true;
            wake?.();
          },
        }, after);
        stream.onAbort(() => wake?.());
        try {
          for (;;) {
            while (queue.length > 0) await stream.writeSSE(queue.shift()!);
            if (done || stream.aborted || stream.closed) break;
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, 15_000);
            });
            wake = null;
            if (queue.length === 0 && !done && !stream.aborted) await stream.write(': keep-alive\n\n');
          }
        } finally {
          stop();
        }
      });
    });
}
