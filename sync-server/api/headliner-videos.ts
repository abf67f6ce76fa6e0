// A clip's headliner videos (src/protocol/api/headliner-videos.ts; the jobs and rules:
// sync-server/headliner/job.ts, src/domain/headliner.ts). As the clip's other asked-for work
// (transcription, feed drops): content access on the clip's program to make them, read access to
// list and download them; a clip the caller may not read is a 404.
import * as routes from '../../src/protocol/api/headliner-videos.ts';
import { contentDisposition, headlinerFileName } from '../../src/domain/headliner.ts';
import type { BlobStore } from '../audio/blob-store.ts';
import { rangedBlobResponse } from '../audio/range.ts';
import { getAuth } from '../auth.ts';
import { notFound } from '../errors.ts';
import { listHeadlinerVideos, readyVideo, requestHeadlinerVideos } from '../headliner/job.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

export function headlinerVideoRoutes(blobs: BlobStore) {
  const clip = (...need: 'HasContentAccess'[]) => guard.row('clips', 'clipId', ...need);
  return resourceApp()
    .openapi(guarded(routes.createHeadlinerVideos, clip('HasContentAccess')), async (c) => {
      const auth = getAuth(c);
      const made = await requestHeadlinerVideos(c.get('deps'), blobs, { organizationId: auth.organizationId, userId: auth.user.Id }, c.var.row, c.req.valid('query'));
      return c.json({ Items: made }, 202);
    })
    .openapi(guarded(routes.listHeadlinerVideos, clip()), async (c) => c.json({ Items: await listHeadlinerVideos(c.get('deps').store, c.var.row.Id) }, 200))
    .openapi(guarded(routes.downloadHeadlinerVideo, clip()), async (c) => {
      const video = await readyVideo(c.get('deps').store, c.var.row.Id, c.req.valid('param').headlinerId);
      const res = video ? await rangedBlobResponse(blobs, video.key, 'video/mp4', c.req.raw) : null;
      if (!video || !res) throw notFound();
      const title = typeof c.var.row['Title'] === 'string' ? c.var.row['Title'] : null;
      res.headers.set('content-disposition', contentDisposition(headlinerFileName(title, video.ratio)));
      return res;
    });
}
