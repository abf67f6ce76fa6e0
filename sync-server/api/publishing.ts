// Publishing (src/protocol/api/publishing.ts): Publish and Unpublish for integrators, the named
// mutations clip.publish and clip.unpublish run as a sync push runs them; and the public audio of
// published clips, mounted outside /api (no session: guard.public()), answered 404 with no body
// for anything that is not Published with Visibility Public or Unlisted.
import type { Context } from 'hono';
import * as routes from '../../src/protocol/api/publishing.ts';
import { AD_FREE_FILE, PUBLIC_AUDIO_FILE } from '../../src/protocol/api/publishing.ts';
import { servesPublicAudio } from '../../src/domain/publishing.ts';
import { clipPublish, clipUnpublish } from '../../src/mutations/publishing.ts';
import { runRest } from '../mutations/rest.ts';
import type { PublishingService } from '../publishing/service.ts';
import { documented } from './media.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

export function publishingRoutes() {
  const clip = () => guard.row('clips', 'clipId', 'HasContentAccess');
  return resourceApp()
    .openapi(guarded(routes.publishClip, clip()), async (c) => c.json(await runRest(c, clipPublish, { clipId: c.var.row.Id }, null), 202))
    .openapi(guarded(routes.unpublishClip, clip()), async (c) => c.json(await runRest(c, clipUnpublish, { clipId: c.var.row.Id }, null), 202));
}

export function publicAudioRoutes(publishing: PublishingService) {
  /** The clip of a public audio path (any organization: the path is public), or 404. */
  async function serve(c: Context, clipId: string | null, adFree: boolean): Promise<Response> {
    const unknown = { Id: clipId, OrganizationId: null, ProgramId: null };
    if (clipId === null) return publishing.notServed(c, unknown, adFree);
    // Kept per instance and forgotten on any change of its organization (publishing/public-audio.ts).
    const row = await publishing.publicClip(clipId);
    if (!row) return publishing.notServed(c, unknown, adFree);
    const clip = { Id: row.id, OrganizationId: row.organization_id, ProgramId: row.program_id };
    if (!servesPublicAudio({ PublishState: row.publish_state, Visibility: row.visibility, Deleted: row.deleted })) return publishing.notServed(c, clip, adFree);
    return publishing.servePublishedAudio(c, clip, { adFree, version: row.version });
  }

  const access = guard.public();
  const app = resourceApp()
    .openapi(guarded(routes.getPublicAudio, access), (c) => {
      const m = PUBLIC_AUDIO_FILE.exec(c.req.param('clipFile') ?? '');
      return serve(c, m ? m[1]!.toLowerCase() : null, false);
    })
    .openapi(guarded(routes.getPublicAudioAdFree, access), (c) => {
      const id = c.req.param('clipId') ?? '';
      const ok = AD_FREE_FILE.test(c.req.param('adFreeFile') ?? '') && PUBLIC_AUDIO_FILE.test(`${id}.x`);
      return serve(c, ok ? id.toLowerCase() : null, true);
    });
  documented(app, routes.headPublicAudio, access);
  documented(app, routes.headPublicAudioAdFree, access);
  return app;
}
