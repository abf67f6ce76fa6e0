// Publishing's parts as the app composes them (sync-server/app.ts): the jobs, the download
// events' recorder (flushed on shutdown: server.ts) and the public audio server.
import type { AppDeps } from '../app.ts';
import type { BlobStore } from '../audio/blob-store.ts';
import { downloadRecorder } from './downloads.ts';
import { publishingJobs } from './publishing.ts';
import { publicAudioServer } from './public-audio.ts';

export type PublishingService = ReturnType<typeof publishingService>;

export function publishingService(deps: AppDeps, blobs: BlobStore) {
  const downloads = downloadRecorder(deps.store);
  return { downloads, jobHandlers: publishingJobs(deps, blobs), ...publicAudioServer(deps, blobs, downloads) };
}
