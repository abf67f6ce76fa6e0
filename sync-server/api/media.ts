// Media: a clip's and a recording's audio and waveform files, the clip's cut and its preview, new
// audio for a clip, a recording agent's ingest, and the clips made from a recording
// (src/protocol/api/media.ts). Every route touches one clip or recording, so every route's guard is
// guard.row: content access on its program, as reading the row needs (section 6), and 404 for a
// row the caller may not read, the same answer as for one that does not exist. Writing media needs
// no more than that (section 6 gives no media flag: content access is the right to change content).
//
// What happens to the files is sync-server/audio's (service.ts: storage, processing, renders).
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import * as routes from '../../src/protocol/api/media.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import { clipSaveCut, clipSetAudioFromUrl } from '../../src/mutations/content.ts';
import { getAuth } from '../auth.ts';
import { isJsonType } from '../body.ts';
import { runRest } from '../mutations/rest.ts';
import { mediaFiles } from '../audio/media-paths.ts';
import type { AudioService } from '../audio/service.ts';
import { receiveAudioUpload } from '../audio/upload-rules.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';
import { listRows, Where } from './lists.ts';
import { withStorageCap } from '../billing/entitlements.ts';

const NEWEST_FIRST = 't.created_at_utc DESC, t.id';

/**
 * A body without Content-Type is application/octet-stream (RFC 9110 §8.3): the file of a client
 * that sends none (curl -T) then passes the route's media type check, which would refuse a body of
 * no type, and streams as any other file.
 */
const untypedIsOctetStream: MiddlewareHandler = async (c, next) => {
  const raw = c.req.raw;
  if (raw.body !== null && !raw.headers.has('content-type')) {
    const headers = new Headers(raw.headers);
    headers.set('content-type', 'application/octet-stream');
    c.req.raw = new Request(raw.url, { method: raw.method, headers, body: raw.body, signal: raw.signal, duplex: 'half' } as RequestInit);
  }
  await next();
};

/**
 * guarded(), for PUT audio, whose JSON body is one of three forms: the query form has no body,
 * which guarded() refuses on a route that declares JSON. The guard is the same.
 */
function guardedAudioPut<R extends RouteConfig>(route: R, access: Access) {
  return { ...guarded(route, access), middleware: [...access.middleware, untypedIsOctetStream] };
}

/** A HEAD declaration, documented in the module's OpenAPI: Hono answers a HEAD with the GET route
 * of its path (the same guard and handler; the body dropped), so it has no handler of its own. */
export function documented(app: Pick<OpenAPIHono, 'openAPIRegistry'>, route: RouteConfig, access: Access): void {
  app.openAPIRegistry.registerPath({ ...route, 'x-access': access.describe } as RouteConfig);
}

export function mediaRoutes(audio: AudioService) {
  const clip = () => guard.row('clips', 'clipId');
  const recording = () => guard.row('recordings', 'recordingId');

  const app = resourceApp()
    // ── Clips ──
    .openapi(guardedAudioPut(routes.putClipAudio, withStorageCap(clip())), async (c) => {
      const clipId = c.var.row.Id;
      const query = c.req.valid('query');
      // audioUrl in the query (section 7), or the same as a JSON body (a queued mutation has no query).
      const json = isJsonType(c.req.header('content-type')) ? c.req.valid('json') : null;
      const byUrl = query.audioUrl !== undefined ? { audioUrl: query.audioUrl, fileName: query.fileName } : json !== null && typeof json !== 'string' ? json : null;
      if (byUrl) {
        // The named mutation clip.setAudioFromUrl, as a sync push runs it.
        const row = await runRest(c, clipSetAudioFromUrl, { clipId, ...byUrl }, null);
        const upload = await audio.uploadOf(clipId);
        return c.json({ ClipId: clipId, State: 'AudioUploaded' as const, UploadedAudioFileName: String(row['UploadedAudioFileName']), SizeInBytes: upload?.size ?? 0 }, 202);
      }
      const auth = getAuth(c);
      // Into a folder of its own: the clip keeps serving its current audio until this one has processed.
      const upload = audio.newUpload(clipId);
      const { fileName, size } = await receiveAudioUpload(c, audio.blobs, mediaFiles.audio(upload.folder), audio.maxUploadBytes);
      return c.json(await audio.acceptAudio({ organizationId: auth.organizationId, userId: auth.user.Id, clipId, ...upload, fileName, size }), 202);
    })
    .openapi(guarded(routes.getClipAudio, clip()), (c) => audio.clipAudio(c.req.raw, c.var.row.Id))
    .openapi(guarded(routes.getClipOriginalAudio, clip()), (c) => audio.clipOriginalAudio(c.req.raw, c.var.row.Id))
    .openapi(guarded(routes.getClipWaveform, clip()), (c) => audio.clipWaveform(c.req.raw, c.var.row.Id, c.req.valid('param').file))
    .openapi(guarded(routes.getClipCut, clip()), async (c) => {
      const edit = await audio.savedCut(c.var.row.Id);
      // A clip with no cut saved is not missing: 204, so opening any clip does not log a 404.
      if (!edit) return c.body(null, 204);
      return c.json(edit, 200);
    })
    .openapi(guarded(routes.putClipCut, clip()), async (c) => {
      const edit = c.req.valid('json');
      await runRest(c, clipSaveCut, { clipId: c.var.row.Id, cut: edit }, null);
      return c.json(edit, 200);
    })
    .openapi(guarded(routes.previewClipCut, clip()), (c) => audio.previewCut(c.var.row.Id, c.req.valid('json')))
    // ── Recordings ──
    .openapi(guarded(routes.putRecordingAudio, withStorageCap(recording())), async (c) => {
      const auth = getAuth(c);
      const accepted = await audio.ingestRecordingAudio(auth.organizationId, auth.user.Id, c.var.row.Id, (key) => receiveAudioUpload(c, audio.blobs, key, audio.maxUploadBytes));
      return c.json(accepted, 202);
    })
    .openapi(guarded(routes.getRecordingIngest, recording()), async (c) => {
      const ingest = await audio.recordingIngest(c.var.row.Id);
      // A recording no agent has sent audio for is not missing: 204 (404 says there is no recording).
      if (!ingest) return c.body(null, 204);
      return c.json(ingest, 200);
    })
    .openapi(guarded(routes.getRecordingAudio, recording()), (c) => audio.recordingAudio(c.req.raw, c.var.row.Id))
    .openapi(guarded(routes.getRecordingWaveform, recording()), (c) => audio.recordingWaveform(c.req.raw, c.var.row.Id, c.req.valid('param').file))
    .openapi(guarded(routes.listRecordingClips, recording()), async (c) => {
      const where = new Where(getAuth(c).organizationId, false)
        .add((p) => `t.program_id = ${p}`, c.var.program.id)
        .add((p) => `t.data->'RecordingMetadata'->>'RecordingId' = ${p}`, c.var.row.Id);
      return c.json(await listRows(c.get('deps').store, 'clip', where, NEWEST_FIRST, pageOf(c.req.valid('query'))), 200);
    });

  documented(app, routes.headClipAudio, clip());
  documented(app, routes.headClipWaveform, clip());
  documented(app, routes.headRecordingAudio, recording());
  documented(app, routes.headRecordingWaveform, recording());
  return app;
}
