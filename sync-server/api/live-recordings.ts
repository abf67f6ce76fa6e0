// Recordings as they happen (issue 34; the routes: src/protocol/api/live-recordings.ts; the
// stream's work: sync-server/audio/live-ingest.ts).
//
//   PUT|POST /v1/programs/{programId}/recordings/live  (agentGuard: Basic agentId:token or Bearer token)
//     no or unknown credentials, a deleted agent ──> 401 with a body naming Authorization
//     a program the agent may not push to ──> 403 with a body naming programId
//     ──> recording inserted Live (announced on the bus: devices sync it) ──> body streamed ──> 201
//   GET /v1/recordings/{recordingId}/live/peaks (guard.row: content access) ──> text/event-stream
//     on any instance: the peaks are rows (live_peaks) the ingesting instance writes and signals
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
import { writeAudioRow } from '../audio/clip-rows.ts';
import { recordingKeys } from '../audio/media-paths.ts';
import type { AudioService } from '../audio/service.ts';
import { startRecordingIngest } from '../audio/recording-ingest.ts';
import { followLivePeaks, liveStreams, LivePeaksWriter, removeLivePeaks } from '../audio/live-ingest.ts';
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

/**
 * The body as a stream that ends, rather than fails, when the sender cuts it off (`torn`), each
 * chunk handed to `seen` first. What arrived is the recording: an encoder that lost its line must
 * not lose the hour it already sent.
 */
function tolerantBody(body: ReadableStream<Uint8Array>, seen: (chunk: Uint8Array) => void, torn: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen(value);
        controller.enqueue(value);
      } catch {
        torn();
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
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
    const row = await deps.store.tx((q) => insertRow(q, 'recording', id, { organizationId, userId: null, now: started }, fields));
    // Devices hear of the new Live recording as of any change, and pull it.
    deps.bus.publish({ organizationId, version: row.Version });

    const live = streams.open(id);
    const writer = new LivePeaksWriter({ store: deps.store, bus: deps.bus, log: logOf(deps) }, id);
    const peaks = new LiveMp3Peaks();
    await peaks.ready();
    let torn = false;
    const uploadId = randomUUID();
    let size = 0;
    const body = c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (ctl) => ctl.close() });
    const stream = tolerantBody(
      body,
      (chunk) => {
        live.push(chunk);
        writer.append(peaks.push(chunk), peaks.sampleRate);
      },
      () => (torn = true),
    );
    try {
      ({ size } = await audio.blobs.put(recordingKeys.audio(id, uploadId), stream, audio.maxUploadBytes));
    } catch {
      // Over the size limit or the disk: what the store kept is not to be trusted as the recording.
      torn = true;
    }
    writer.append(peaks.end(), peaks.sampleRate);
    // Every pixel is a row before the row leaves Live: watchers read the rest, then end.
    await writer.drain();
    const decodedSeconds = peaks.durationSeconds;
    const ended = now(deps);
    const ref = { entity: 'recording' as const, organizationId, id };
    const endFields = { CaptureEndUtc: ended.toISOString(), HasTornAudio: torn || peaks.errors > 0 };
    if (decodedSeconds === 0 || size === 0) {
      // Nothing that decodes arrived: a finished recording of no audio that says it is torn, not a
      // Live one forever.
      await writeAudioRow(deps, ref, { State: 'Finalized', fields: { ...endFields, HasTornAudio: true, DurationSeconds: 0 } }, { userId: null }, (q) => removeLivePeaks(q, id));
      await audio.blobs.remove(recordingKeys.upload(id, uploadId));
    } else {
      await writeAudioRow(deps, ref, { State: 'Live', fields: endFields }, { userId: null });
      await startRecordingIngest(deps, audio.blobs, organizationId, null, id, { uploadId, fileName: 'live.mp3', size });
    }
    const recording = (await loadRow(deps.store, 'recording', organizationId, id)) as unknown as Recording;
    streams.close(id, live);
    return c.json({ Recording: recording, SizeInBytes: size, DecodedSeconds: decodedSeconds }, 201);
  };

  return resourceApp()
    .openapi(ingest, handler)
    .openapi(guarded(routes.postLiveRecording, agentGuard()), handler)
    .openapi(guarded(routes.liveRecordingAudio, guard.row('recordings', 'recordingId')), (c) => {
      const audioStream = streams.get(c.var.row.Id)?.listen();
      if (!audioStream) throw notFound();
      return new Response(audioStream, { status: 200, headers: { 'content-type': 'audio/mpeg', 'cache-control': 'no-store' } });
    })
    .openapi(guarded(routes.liveRecordingPeaks, guard.row('recordings', 'recordingId')), async (c) => {
      const deps = c.get('deps');
      const row = c.var.row as unknown as Recording;
      const { organizationId } = getAuth(c);
      return streamSSE(c, async (stream) => {
        let wake: (() => void) | null = null;
        const queue: Array<{ event: string; data: string }> = [];
        let done = false;
        // What is there, each append, then the end once the row leaves Live (any instance's stream).
        const stop = followLivePeaks(deps, organizationId, row.Id, {
          peaks: (e) => {
            queue.push({ event: LIVE_PEAKS_EVENT, data: JSON.stringify(e) });
            wake?.();
          },
          end: (e) => {
            queue.push({ event: LIVE_END_EVENT, data: JSON.stringify(e) });
            done = true;
            wake?.();
          },
        });
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
