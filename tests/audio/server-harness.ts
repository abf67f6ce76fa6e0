// A server for the audio route tests: a fresh store (in-memory PGlite by default, or a scratch
// PostgreSQL database with `store: 'postgres'`, tests/server/test-store.ts) with one organization, one
// program, clips, recordings, and two signed-in users (content access / none), and the media routes mounted
// under /api exactly as the app mounts them. Their jobs run when a test drains them (`queue.idle()`).
import { serverMutations } from '../../sync-server/app.ts';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { openTestStore, type StoreKind } from '../server/test-store.ts';
import { createMemoryBus, type Change } from '../../sync-server/bus.ts';
import { createSession, SESSION_COOKIE, XSRF_HEADER, ORGANIZATION_HEADER } from '../../sync-server/auth.ts';
import { AppError } from '../../sync-server/errors.ts';
import type { AppDeps } from '../../sync-server/app.ts';
import { audioService } from '../../sync-server/audio/service.ts';
import { mediaRoutes } from '../../sync-server/api/media.ts';
import { createJobRunner } from '../../sync-server/jobs/runner.ts';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';

export async function startAudioServer(options: { maxUploadBytes?: number; store?: StoreKind; mediaGraceMs?: number } = {}) {
  const { store, drop } = await openTestStore(options.store ?? 'pglite');
  const bus = createMemoryBus();
  const changes: Change[] = [];
  bus.subscribe((c) => changes.push(c));
  const deps: AppDeps = { store, bus };
  const blobDir = await mkdtemp(join(tmpdir(), 'castaway-audio-test-'));
  const orgId = randomUUID();
  const programId = randomUUID();
  const now = new Date();
  const q = store;
  await q.query(`INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version)
                 VALUES ($1, $1, 'Org', 'Podcaster', $2, $2, next_row_version())`, [orgId, now]);
  await q.query(`INSERT INTO programs (id, organization_id, name, created_at_utc, modified_at_utc, version)
                 VALUES ($1, $2, 'Show', $3, $3, next_row_version())`, [programId, orgId, now]);
  async function user(perms: unknown[]) {
    const id = randomUUID();
    await q.query(`INSERT INTO users (id, email, name, password_hash, created_at_utc, modified_at_utc, version)
                   VALUES ($1, $2, 'U', 'x', $3, $3, next_row_version())`, [id, `${id}@example.com`, now]);
    await q.query(`INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
                   VALUES ($1, $2, $3::jsonb, $4, $4, next_row_version())`, [orgId, id, JSON.stringify(perms), now]);
    const s = await createSession(q, id, now);
    return { id, headers: { cookie: `${SESSION_COOKIE}=${s.token}`, [XSRF_HEADER]: s.xsrfToken, [ORGANIZATION_HEADER]: orgId } };
  }
  const editor = await user([{ ObjectType: 'Organization', ObjectId: orgId, Permissions: { HasContentAccess: true } }]);
  const viewer = await user([{ ObjectType: 'Program', ObjectId: programId, Permissions: {} }]);
  async function newClip(): Promise<string> {
    const id = randomUUID();
    const { Title: _t, Slug: _s, State: _st, PublishState: _p, Visibility: _v, ...data } = clipDefaults();
    await q.query(`INSERT INTO clips (id, organization_id, program_id, state, publish_state, visibility, data, created_at_utc, modified_at_utc, version)
                   VALUES ($1, $2, $3, 'Draft', 'Unpublished', 'Private', $5::jsonb, $4, $4, next_row_version())`, [id, orgId, programId, now, JSON.stringify(data)]);
    return id;
  }
  /** A Live recording with an agent's external audio link (what seeds and agents create). */
  async function newRecording(): Promise<string> {
    const id = randomUUID();
    const data = { DurationSeconds: 600, Urls: { AudioUrl: 'https://agent.example/live.mp3', WaveformHighResUrl: null, WaveformLowResUrl: null }, HasTornAudio: false, Reviewed: false };
    await q.query(`INSERT INTO recordings (id, organization_id, program_id, title, state, data, created_at_utc, modified_at_utc, version)
                   VALUES ($1, $2, $3, 'Morning capture', 'Live', $5::jsonb, $4, $4, next_row_version())`, [id, orgId, programId, now, JSON.stringify(data)]);
    return id;
  }
  async function recordingRow(id: string) {
    const [row] = await q.query<{ state: string; data: Record<string, unknown> }>('SELECT state, data FROM recordings WHERE id = $1', [id]);
    return row!;
  }
  const audio = audioService(deps, { blobDir, ...(options.maxUploadBytes ? { maxUploadBytes: options.maxUploadBytes } : {}), ...(options.mediaGraceMs !== undefined ? { mediaGraceMs: options.mediaGraceMs } : {}) });
  const jobs = createJobRunner({ store, handlers: audio.jobHandlers });
  // The named mutations these routes run (clip.setAudioFromUrl, clip.saveCut): createApp's own list.
  const mutations = serverMutations(audio);
  const app = new OpenAPIHono()
    .use('*', async (c, next) => { c.set('deps', deps); c.set('mutations', mutations); await next(); })
    .route('/api', mediaRoutes(audio));
  app.onError((err, c) => {
    if (err instanceof AppError) return err.body === undefined ? c.body(null, err.status) : c.json(err.body as object, err.status as ContentfulStatusCode);
    if (err instanceof HTTPException) return err.getResponse();
    throw err;
  });
  async function clipRow(id: string) {
    const [row] = await q.query<{ state: string; data: Record<string, unknown>; version: string; modified_at_utc: Date }>(
      'SELECT state, data, version::text AS version, modified_at_utc FROM clips WHERE id = $1', [id]);
    return row!;
  }
  return {
    app, deps, audio, orgId, programId, editor, viewer, newClip, clipRow, newRecording, recordingRow, changes,
    /** Runs the queued audio jobs until none is left. */
    queue: { idle: () => jobs.drain() },
    close: async () => { await jobs.drain(); await drop(); await rm(blobDir, { recursive: true, force: true }); },
  };
}
