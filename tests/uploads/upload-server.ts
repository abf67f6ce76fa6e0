// The real server (startServer: createApp over HTTP) on a seeded in-memory PGlite (or PostgreSQL) with its blob
// and upload folders in a temp data dir, signed in as demo@example.com; and a tus-js-client upload
// as a Node client would make it. Shared by tests/uploads and bench/upload.bench.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Upload, type DetailedError } from 'tus-js-client';
import { seed } from '../../sync-server/seed.ts';
import { startServer, type RunningServer } from '../../sync-server/server.ts';
import { openTestStore, type StoreKind } from '../server/test-store.ts';
import { UPLOADS_PATH } from '../../src/protocol/uploads.ts';
import { overHttp, signIn as signInAs } from '../helpers/sign-in.ts';

export type UploadServer = Awaited<ReturnType<typeof startUploadServer>>;

export async function startUploadServer(options: { clips?: number; store?: StoreKind } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'castaway-uploads-'));
  const previous = process.env.CASTAWAY_DATA_DIR;
  process.env.CASTAWAY_DATA_DIR = dataDir;
  const testStore = await openTestStore(options.store ?? 'pglite');
  const { store } = testStore;
  await seed(store, { clips: options.clips ?? 40 });
  let server: RunningServer;
  try {
    server = await startServer({ store, distDir: join(dataDir, 'no-dist'), port: 0 });
  } finally {
    if (previous === undefined) delete process.env.CASTAWAY_DATA_DIR;
    else process.env.CASTAWAY_DATA_DIR = previous;
  }

  const signIn = (email: string) => signInAs(overHttp(server.url), email);
  const demo = await signIn('demo@example.com');
  // Clips of the demo user's organizations that have no audio yet: a clip the seed made Ready,
  // Warning or Error would read as settled before the upload's hand-over moved it on (a test once
  // read the seed's Warning). Of 40 seeded clips, 11.
  const clips = await store.query<{ id: string; organization_id: string }>(
    `SELECT id, organization_id FROM clips WHERE NOT deleted AND state IN ('None', 'Draft') ORDER BY id LIMIT 20`,
  );
  if (clips.length < 8) throw new Error(`the upload tests need 8 clips without audio, the seed made ${clips.length}`);
  const clipHeaders = (clip: { organization_id: string }) => ({ ...demo, 'x-organization-id': clip.organization_id });

  async function clipProcessing(clip: { id: string; organization_id: string }): Promise<{ State: string; AudioProcessingProblem: string | null }> {
    const res = await fetch(`${server.url}/api/v1/clips/${clip.id}`, { headers: clipHeaders(clip) });
    const row = (await res.json()) as { State: string; AudioProcessingProblem: string | null };
    return { State: row.State, AudioProcessingProblem: row.AudioProcessingProblem };
  }
  /** Polls the clip until processing has ended (Ready, Warning or Error): its State, and the
   *  problem that goes with a Warning or an Error (what a failed expectation should show). */
  async function settled(clip: { id: string; organization_id: string }, timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const processing = await clipProcessing(clip);
      if (['Ready', 'Warning', 'Error'].includes(processing.State) || Date.now() > until) return processing;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const settledState = async (clip: { id: string; organization_id: string }, timeoutMs = 60_000) => (await settled(clip, timeoutMs)).State;

  return {
    url: server.url,
    port: server.port,
    dataDir,
    store,
    signIn,
    demo,
    clips,
    clipHeaders,
    clipState: async (clip: { id: string; organization_id: string }) => (await clipProcessing(clip)).State,
    settled,
    settledState,
    close: async () => {
      await server.close();
      await testStore.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TusResult = { resumes: number; url: string | null; progressEvents: number; lastProgress: [number, number] };

/** Uploads bytes with tus-js-client to `base` (a server or a proxy in front of it), retrying every failure. */
export function tusUpload(base: string, bytes: Buffer, input: { fileName: string; clipId: string; headers: Record<string, string>; chunkSize?: number }): Promise<TusResult> {
  return new Promise((resolve, reject) => {
    let resumes = 0;
    let progressEvents = 0;
    let restarts = 0;
    let lastProgress: [number, number] = [0, 0];
    const upload = new Upload(bytes, {
      endpoint: `${base}${UPLOADS_PATH}`,
      metadata: { filename: input.fileName, clipId: input.clipId },
      headers: input.headers,
      ...(input.chunkSize ? { chunkSize: input.chunkSize } : {}),
      // tus-js-client starts the delays over whenever the offset has moved since the last retry.
      retryDelays: [0, 50, 100, 200, 400, 800],
      onShouldRetry: (err: DetailedError) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        if (status >= 400 && status < 500 && status !== 409 && status !== 423) return false;
        resumes++;
        return true;
      },
      onProgress: (sent, total) => {
        progressEvents++;
        lastProgress = [sent, total];
      },
      // Past its own retries (no progress for a while), start again from the server's offset, as the
      // app's upload queue does; only a refusal (4xx) ends the upload.
      onError: (err) => {
        const status = (err as DetailedError).originalResponse?.getStatus() ?? 0;
        if ((status >= 400 && status < 500) || ++restarts > 100) return reject(err);
        resumes++;
        setTimeout(() => upload.start(), 200);
      },
      onSuccess: () => resolve({ resumes, url: upload.url, progressEvents, lastProgress }),
    });
    upload.start();
  });
}
