// A program's intro and outro audio (src/protocol/api/program-audio.ts; rules
// src/domain/intro-outro.ts; the operation, its job and the apply job: sync-server/audio/intro-outro.ts).
//
// Access is the program's settings' (section 6, settingsGuard): reading (the operation, the file)
// with audit or manage-settings access and content access; uploading, removing and applying with
// manage-settings and content access. A program the caller does not see, and an operation of one,
// is a 404 with no body (one seen without that access a 403). An operation is found by its id
// within the caller's organization and then judged by its program's access.
import type { Context, MiddlewareHandler } from 'hono';
import * as routes from '../../src/protocol/api/program-audio.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { introOutroAccess, isIntroOutroType, type IntroOutroType } from '../../src/domain/intro-outro.ts';
import { mayRead } from '../../src/domain/access.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { getAuth } from '../auth.ts';
import { AppError, badRequest, fieldError, forbidden, notFound } from '../errors.ts';
import { flagsForProgram, type ProgramRef } from '../mutations/store.ts';
import type { AudioService } from '../audio/service.ts';
import { applyIntroOutro, loadOperation, newIntroOutroUpload, operationToWire, removeIntroOutro, startIntroOutro } from '../audio/intro-outro.ts';
import { introOutroKeys } from '../audio/intro-outro-render.ts';
import { rangedBlobResponse } from '../audio/range.ts';
import { receiveAudioUpload } from '../audio/upload-rules.ts';
import { settingsGuard } from './settings.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';
import { documented } from './media.ts';

/** {type} by the domain's rule: anything but intro or outro is a 400 at type (section 7). */
function typeOf(c: Context): IntroOutroType {
  const type = c.req.param('type') ?? '';
  if (!isIntroOutroType(type)) throw badRequest([fieldError('type', formError('invalid'))]);
  return type;
}

/**
 * The body must be audio: a Content-Type of audio/*, video/mp4 (an .m4a or .mp4 is often sent so)
 * or application/octet-stream (a file whose type the sender did not know; none at all counts as
 * that, RFC 9110 §8.3). Anything else (JSON, a form, text, an image) is a 415 naming Content-Type,
 * before a byte is stored.
 */
const audioBodyOnly: MiddlewareHandler = async (c, next) => {
  const type = (c.req.header('content-type') ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
  if (!(type.startsWith('audio/') || type === 'video/mp4' || type === 'application/octet-stream')) {
    throw new AppError(415, { Errors: [fieldError('Content-Type', formError('invalid'))] });
  }
  await next();
};

/** The program of an operation, as the caller sees it with its settings' read access (else 404 or 403). */
async function readableProgram(c: Context, programId: string): Promise<ProgramRef> {
  const [program] = await c.get('deps').store.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE id = $1 AND organization_id = $2`, [
    programId,
    getAuth(c).organizationId,
  ]);
  if (!program || program.deleted) throw notFound();
  const flags = flagsForProgram(getAuth(c), program);
  // As settingsGuard answers for a program in the path: not seen 404, seen without its settings' read access 403.
  if (!mayRead(ENTITY_KINDS.programs.read, flags)) throw notFound();
  if (!introOutroAccess(flags).read) throw forbidden();
  return program;
}

export function programAudioRoutes(audio: AudioService) {
  const write = () => settingsGuard('Program', 'write');
  const read = () => settingsGuard('Program', 'read');
  const putRoute = guarded(routes.putProgramAudio, write());
  const app = resourceApp()
    .openapi({ ...putRoute, middleware: [...putRoute.middleware, audioBodyOnly] }, async (c) => {
      const type = typeOf(c);
      const auth = getAuth(c);
      const programId = c.var.program.id;
      const upload = newIntroOutroUpload(programId);
      const { fileName, size } = await receiveAudioUpload(c, audio.blobs, upload.key, audio.maxUploadBytes);
      const operation = await startIntroOutro(c.get('deps'), { organizationId: auth.organizationId, programId, type, userId: auth.user.Id, uploadId: upload.uploadId, fileName, size });
      return c.json(operation, 202);
    })
    .openapi(guarded(routes.getProgramAudioOperation, guard.member()), async (c) => {
      const row = await loadOperation(c.get('deps').store, getAuth(c).organizationId, c.req.valid('param').operationId);
      if (!row) throw notFound();
      await readableProgram(c, row.program_id);
      return c.json(operationToWire(row), 200);
    })
    .openapi(guarded(routes.deleteProgramAudio, write()), async (c) => {
      const type = typeOf(c);
      const auth = getAuth(c);
      await removeIntroOutro(c.get('deps'), auth.organizationId, c.var.program.id, type, auth.user.Id);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.applyProgramAudio, write()), async (c) => {
      const auth = getAuth(c);
      return c.json({ Clips: await applyIntroOutro(c.get('deps'), auth.organizationId, c.var.program.id, auth.user.Id) }, 202);
    })
    .openapi(guarded(routes.getProgramAudioFile, read()), async (c) => {
      const type = typeOf(c);
      const [current] = await c.get('deps').store.query<{ upload_id: string; content_type: string }>(
        `SELECT upload_id, content_type FROM program_intro_outro WHERE program_id = $1 AND type = $2`,
        [c.var.program.id, type],
      );
      if (!current) throw notFound();
      const res = await rangedBlobResponse(audio.blobs, introOutroKeys.audio(c.var.program.id, current.upload_id), current.content_type, c.req.raw);
      if (!res) throw notFound();
      return res;
    });
  documented(app, routes.headProgramAudioFile, read());
  return app;
}
