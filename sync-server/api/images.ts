// Artwork and images (src/protocol/api/images.ts): PUT and DELETE …/image of networks, programs,
// playlists and clips, the images of chapters and descriptions, the user's own picture (PUT and
// DELETE /internal/users/me/image), and the public image files.
// Access is each owner's own rule for changing it: a playlist's or clip's artwork is content
// (guard.row: content access on its program), a program's is its settings (content and
// manage-settings access, as PATCH of the program), a network's the organization's settings (as
// PATCH of the network). The public files are mounted outside /api (guard.public(): see
// sync-server/images/service.ts for why their URLs are capabilities).
//
// What happens to the files is sync-server/images' (service.ts).
import type { Context } from 'hono';
import * as routes from '../../src/protocol/api/images.ts';
import type { ImageOwnerKind } from '../../src/domain/artwork.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { absoluteUrl } from '../../src/domain/public-urls.ts';
import { getAuth, loadCaller } from '../auth.ts';
import { badRequest, fieldError, unauthorized } from '../errors.ts';
import { imageUrlRefusal, type FetchPolicy } from '../images/fetch.ts';
import type { ImageService } from '../images/service.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';
import { publicOrigin } from '../public-origin.ts';

const MANAGE_ORGANIZATION = 'HasManageOrganizationSettingsAccess';


/** The owner a guarded artwork route resolved (c.var.row for networks, playlists and clips; c.var.program for programs). */
const ownerId = (c: Context, kind: ImageOwnerKind) => (kind === 'program' ? c.var.program.id : c.var.row.Id);

export function imageRoutes(images: ImageService, policy: FetchPolicy) {
  const target = (c: Context, kind: ImageOwnerKind) => {
    const auth = getAuth(c);
    return { kind, ownerId: ownerId(c, kind), organizationId: auth.organizationId, userId: auth.user.Id };
  };

  /** PUT …/image: the body, or imageUrl (checked here, fetched by a job). */
  const put = (kind: ImageOwnerKind) => async (c: Context) => {
    const imageUrl = c.req.query('imageUrl');
    if (imageUrl !== undefined) {
      const refusal = imageUrlRefusal(imageUrl, policy);
      if (refusal) throw badRequest([fieldError('imageUrl', formError(refusal === 'invalid' ? 'urlInvalid' : 'invalid', undefined, { reason: refusal }))]);
      await c.req.raw.body?.cancel();
      await images.enqueueFetch(target(c, kind), imageUrl);
      return c.body(null, 204);
    }
    await images.fromRequest(target(c, kind), c.req.raw.body, Number(c.req.header('content-length') ?? NaN));
    return c.body(null, 204);
  };
  const remove = (kind: ImageOwnerKind) => async (c: Context) => {
    await images.removeArtwork(target(c, kind));
    return c.body(null, 204);
  };
  /** POST of an image that belongs to no row: stored under a new id, its URL answered. */
  const standalone = (kind: 'chapter' | 'upload') => async (c: Context) => {
    const auth = getAuth(c);
    const stored = await images.fromRequest(
      { kind, ownerId: crypto.randomUUID(), organizationId: auth.organizationId, userId: auth.user.Id },
      c.req.raw.body,
      Number(c.req.header('content-length') ?? NaN),
    );
    return c.json({ Url: absoluteUrl(stored.path, publicOrigin(c)), Path: stored.path }, 200);
  };

  const network = (): Access => guard.network('networkId', { organization: [MANAGE_ORGANIZATION] });
  const program = (): Access => guard.program('programId', 'HasContentAccess', 'HasManageSettingsAccess');
  const playlist = (): Access => guard.row('playlists', 'playlistId');
  const clip = (): Access => guard.row('clips', 'clipId');
  const content = (): Access => guard.anywhere('HasContentAccess');

  return resourceApp()
    .openapi(guarded(routes.putNetworkImage, network()), put('network'))
    .openapi(guarded(routes.deleteNetworkImage, network()), remove('network'))
    .openapi(guarded(routes.putProgramImage, program()), put('program'))
    .openapi(guarded(routes.deleteProgramImage, program()), remove('program'))
    .openapi(guarded(routes.putPlaylistImage, playlist()), put('playlist'))
    .openapi(guarded(routes.deletePlaylistImage, playlist()), remove('playlist'))
    .openapi(guarded(routes.putClipImage, clip()), put('clip'))
    .openapi(guarded(routes.deleteClipImage, clip()), remove('clip'))
    .openapi(guarded(routes.postChapterImage, content()), standalone('chapter'))
    .openapi(guarded(routes.postInternalImage, content()), standalone('upload'))
    // One's own picture: any signed-in user, activated or not (it is their account, not content).
    .openapi(guarded(routes.putMyImage, guard.user()), async (c) => {
      const caller = await loadCaller(c);
      if (!caller) throw unauthorized();
      await images.fromRequest({ kind: 'user', ownerId: caller.user.Id, organizationId: null, userId: caller.user.Id }, c.req.raw.body, Number(c.req.header('content-length') ?? NaN));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.deleteMyImage, guard.user()), async (c) => {
      const caller = await loadCaller(c);
      if (!caller) throw unauthorized();
      await images.removeUserPicture(caller.user.Id);
      return c.body(null, 204);
    });
}

/** The public image files, mounted at the site's root. */
export function publicImageRoutes(images: ImageService) {
  return resourceApp().openapi(guarded(routes.getImage, guard.public()), async (c) => {
    // Section 3: an image URL with more than one '?' is an error (a size added to a URL that had one).
    if (c.req.url.split('?').length > 2) throw badRequest([fieldError('size', formError('invalid'))]);
    const { kind, id, version } = c.req.valid('param');
    return images.serve(c.req.raw, kind, id.toLowerCase(), version, c.req.valid('query').size ?? 'large');
  });
}
