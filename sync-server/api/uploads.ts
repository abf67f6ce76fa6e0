// Resumable uploads of clip audio (tus 1.0, src/protocol/api/uploads.ts): the routes and their
// guards; @tus/server speaks the protocol (sync-server/uploads/tus.ts).
//
//   POST     a member with content access on the clip that Upload-Metadata names (404 otherwise,
//            as for a clip that does not exist: the rule of guard.row, src/domain/access.ts), then
//            the file rules of section 5 and the per-user limit
//   GET/HEAD, PATCH, DELETE /{id}   only the user who created the upload, in its organization, while
//            they may still read its clip (404 otherwise); an id the store does not know goes to
//            @tus/server, which answers 404 or 410
//   OPTIONS  a member
import type { MiddlewareHandler } from 'hono';
import type { Upload } from '@tus/server';
import { validateGuid } from '../../src/domain/validators.ts';
import * as routes from '../../src/protocol/api/uploads.ts';
import { UploadMetadataKey } from '../../src/protocol/uploads.ts';
import { getAuth, requireSession } from '../auth.ts';
import { assertValid, notFound } from '../errors.ts';
import { uploadMetadata, type TusUploads } from '../uploads/tus.ts';
import { documented } from './media.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, readableContentRow, type Access } from './guard.ts';
import { withStorageCap } from '../billing/entitlements.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The caller's own upload a route touches (its guard found it). */
    tusUpload: Upload;
  }
}

/** The clip an upload is created for (Upload-Metadata clipId): 400 when it is not a GUID, 404
 * when the caller may not read it. */
const clipOfNewUpload: MiddlewareHandler = async (c, next) => {
  const clipId = uploadMetadata(c)[UploadMetadataKey.ClipId] ?? '';
  assertValid([['clipId', validateGuid(clipId, { required: true })]]);
  const found = await readableContentRow(c, 'clips', clipId.toLowerCase());
  if (!found) throw notFound();
  c.set('row', found.row);
  c.set('program', found.program);
  await next();
};

/** An upload id as the store makes them (hex); anything else names none. */
const UPLOAD_ID = /^[0-9A-Za-z_-]{1,128}$/;

/** The caller's own upload, of a clip they may still read; 404 for anyone else's. */
function ownUpload(uploads: TusUploads): MiddlewareHandler {
  return async (c, next) => {
    const id = c.req.param('id') ?? '';
    if (!UPLOAD_ID.test(id)) throw notFound();
    const found = await uploads.find(id);
    if (found) {
      const auth = getAuth(c);
      if (found.owner.userId !== auth.user.Id || found.owner.organizationId !== auth.organizationId) throw notFound();
      if (!(await readableContentRow(c, 'clips', found.owner.clipId))) throw notFound();
      c.set('tusUpload', found.upload);
    }
    await next();
  };
}

export function uploadRoutes(uploads: TusUploads) {
  const creator: Access = {
    middleware: [requireSession, clipOfNewUpload],
    describe: 'A member with HasContentAccess on the program of the clip named in Upload-Metadata',
  };
  const owner: Access = {
    middleware: [requireSession, ownUpload(uploads)],
    describe: 'The user who created the upload, in its organization, with HasContentAccess on its clip’s program',
  };

  const app = resourceApp()
    // An upload begun is audio put in: refused once the month's ExtraStorage cap is reached.
    .openapi(guarded(routes.createUpload, withStorageCap(creator)), async (c) => {
      const auth = getAuth(c);
      await uploads.checkCreation(c, auth);
      return uploads.handle(c, auth);
    })
    .openapi(guarded(routes.patchUpload, owner), (c) => uploads.handle(c, getAuth(c)))
    .openapi(guarded(routes.deleteUpload, owner), (c) => uploads.handle(c, getAuth(c)))
    .openapi(guarded(routes.uploadOptions, guard.member()), (c) => uploads.handle(c, getAuth(c)))
    // Hono routes a HEAD to the GET route of its path (and drops the body); @tus/server reads the
    // method from the request. A GET is answered as the HEAD: tus never sends an upload back.
    .openapi(guarded(routes.getUpload, owner), async (c) => {
      const upload = c.get('tusUpload') as Upload | undefined;
      if (upload) await uploads.settle(upload);
      if (c.req.method !== 'HEAD') c.req.raw = new Request(c.req.raw.url, { method: 'HEAD', headers: c.req.raw.headers });
      return uploads.handle(c, getAuth(c));
    });
  documented(app, routes.headUpload, owner);
  return app;
}
