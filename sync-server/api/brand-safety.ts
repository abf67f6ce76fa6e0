// A clip's brand safety (src/protocol/api/brand-safety.ts; the job and its rules:
// sync-server/brand-safety/job.ts, src/domain/brand-safety.ts). Reading it takes the clip as the
// caller sees it (404 otherwise) and may queue a new analysis; the staff retry reaches a clip of
// any organization, as the other staff clip tool does (admin.ts).
import * as routes from '../../src/protocol/api/brand-safety.ts';
import { now } from '../app.ts';
import { readBrandSafety, requestBrandSafety } from '../brand-safety/job.ts';
import { notFound } from '../errors.ts';
import { adminOrSupport } from './admin.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

export function brandSafetyRoutes() {
  return resourceApp()
    .openapi(guarded(routes.getClipBrandSafety, guard.row('clips', 'clipId')), async (c) => {
      const deps = c.get('deps');
      const body = await deps.store.tx((q) => readBrandSafety(q, c.var.row, now(deps)));
      return c.json(body, 200);
    })
    .openapi(guarded(routes.retryClipBrandSafety, adminOrSupport()), async (c) => {
      const clipId = c.req.valid('param').clipId;
      const deps = c.get('deps');
      await deps.store.tx(async (q) => {
        const [clip] = await q.query<{ organization_id: string; deleted: boolean }>(`SELECT organization_id, deleted FROM clips WHERE id = $1`, [clipId]);
        if (!clip || clip.deleted) throw notFound();
        // The fingerprint the job stores is what it reads then: none is asked for here.
        await requestBrandSafety(q, { clipId, organizationId: clip.organization_id }, null, now(deps));
      });
      return c.body(null, 204);
    });
}
