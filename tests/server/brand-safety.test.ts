// A clip's brand safety over HTTP (GET /v1/clips/{clipId}/brand-safety, the staff retry): the
// analysis is made by its job from the clip's title, description and transcript, made again when
// they change, and kept (Stale) while the new one is made. On PGlite and PostgreSQL.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandSafety } from '../../src/protocol/api/brand-safety.ts';
import { createApp } from '../../sync-server/app.ts';
import { BRAND_SAFETY_GAVE_UP, BRAND_SAFETY_JOB, brandSafetyJobs } from '../../sync-server/brand-safety/job.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { AppClient, demoApp } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');

describe.each(storeKinds)('brand safety on %s', (kind) => {
  let test: TestStore;
  let app: ReturnType<typeof createApp>;
  let api: AppClient;
  let clipId = '';

  beforeAll(async () => {
    ({ test, app, api } = await demoApp(kind, { clips: 6 }));
    clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const read = async () => {
    const reply = await api.get(`/api/v1/clips/${clipId}/brand-safety`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as BrandSafety;
  };

  it('is queued when first read, then made by its job from the title, description and transcript', async () => {
    const patched = await api.patch(`/api/v1/clips/${clipId}`, { Title: 'The harbour robbery', Description: 'Police arrested two men.' });
    expect(patched.status, patched.text).toBe(200);
    const put = await api.send('PUT', `/api/v1/clips/${clipId}/transcript`, {
      json: { Cues: [{ StartSeconds: 0, EndSeconds: 4, Text: 'Good morning.', Speaker: null }, { StartSeconds: 61.5, EndSeconds: 66, Text: 'They were selling cocaine at the pier.', Speaker: 'Ana' }] },
    });
    expect(put.status, put.text).toBe(200);

    const first = await read();
    expect(first).toMatchObject({ ClipId: clipId, Status: 'Queued', Stale: false, Risk: null, Categories: [], AnalyzedAtUtc: null });
    await app.jobs.drain();

    const made = await read();
    expect(made).toMatchObject({ Status: 'Completed', Stale: false, Risk: 'High', ReadTranscript: true, Problem: null });
    expect(made.Categories.map((c) => [c.Category, c.Risk, c.MatchCount])).toEqual([
      ['IllegalDrugsTobaccoAlcohol', 'High', 1],
      ['CrimeHarmfulActs', 'Medium', 2],
    ]);
    expect(made.Categories[0]!.Matches).toEqual([{ Term: 'cocaine', Source: 'Transcript', StartSeconds: 61.5, Excerpt: 'They were selling cocaine at the pier.' }]);
    expect(made.Categories[1]!.Matches.map((m) => [m.Term, m.Source])).toEqual([
      ['robbery', 'Title'],
      ['arrested', 'Description'],
    ]);
    // Read again with nothing changed: nothing is queued.
    expect((await read()).Status).toBe('Completed');
    expect((await test.store.query(`SELECT 1 FROM jobs WHERE kind = 'clip.brandSafety' AND state IN ('queued', 'running')`)).length).toBe(0);
  });

  it('a change to the texts makes it stale: the earlier result stays until the new one is made', async () => {
    expect((await api.patch(`/api/v1/clips/${clipId}`, { Title: 'The harbour pelicans' })).status).toBe(200);
    const stale = await read();
    expect(stale).toMatchObject({ Status: 'Queued', Stale: true, Risk: 'High' });
    expect(stale.Categories[1]!.Matches[0]!.Term).toBe('robbery');
    await app.jobs.drain();
    const fresh = await read();
    expect(fresh).toMatchObject({ Status: 'Completed', Stale: false, Risk: 'High' });
    expect(fresh.Categories.find((c) => c.Category === 'CrimeHarmfulActs')).toMatchObject({ MatchCount: 1, Risk: 'Low' });

    // The transcript removed: judged on the title and description only, and it says so.
    expect((await api.delete(`/api/v1/clips/${clipId}/transcript`)).status).toBe(204);
    await read();
    await app.jobs.drain();
    expect(await read()).toMatchObject({ Status: 'Completed', ReadTranscript: false, Risk: 'Low', WordsRead: 7 });
  });

  it('the staff retry makes it again for admin and support only, for a clip of any organization', async () => {
    const retry = (client: AppClient, id = clipId) => client.post(`/api/internal/tools/clips/${id}/brand-safety/retry`, undefined);
    expect((await retry(api)).status).toBe(403);
    const staff = new AppClient(app);
    await staff.login('support@example.com');
    const before = (await test.store.query<{ analyzed_at_utc: Date }>(`SELECT analyzed_at_utc FROM clip_brand_safety WHERE clip_id = $1`, [clipId]))[0]!.analyzed_at_utc;
    expect((await retry(staff)).status).toBe(204);
    expect((await read()).Status).toBe('Queued');
    await app.jobs.drain();
    const after = (await test.store.query<{ analyzed_at_utc: Date; status: string }>(`SELECT analyzed_at_utc, status FROM clip_brand_safety WHERE clip_id = $1`, [clipId]))[0]!;
    expect(after.status).toBe('Completed');
    expect(new Date(after.analyzed_at_utc).getTime()).toBeGreaterThanOrEqual(new Date(before).getTime());
    expect((await retry(staff, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // Not an id: nothing it could name exists (the project's rule for a malformed id in a path).
    expect((await retry(staff, 'not-an-id')).status).toBe(404);
  });
  it('a staff retry made while the last attempt gives up stays Queued for the run it asked for; with none the give-up says Failed', async () => {
    const staff = new AppClient(app);
    await staff.login('support@example.com');
    const retry = async () => expect((await staff.post(`/api/internal/tools/clips/${clipId}/brand-safety/retry`, undefined)).status).toBe(204);
    const handler = brandSafetyJobs({ store: test.store, bus: createMemoryBus() })[BRAND_SAFETY_JOB]!;
    const payload = handler.payload.parse({ organizationId: ORG_DEMO, clipId });
    await retry();
    // The clip's job as its last attempt leaves it, running (this test's, in place of a runner).
    const [job] = await test.store.query<{ id: number; max_attempts: number }>(
      `UPDATE jobs SET state = 'running', attempts = max_attempts, locked_by = 'this test', locked_until = now() + interval '1 hour'
        WHERE singleton_key = $1 AND state = 'queued' RETURNING id, max_attempts`,
      [`${BRAND_SAFETY_JOB}:${clipId}`],
    );
    const ctx = jobContext(test.store, { id: job!.id, kind: BRAND_SAFETY_JOB, attempt: job!.max_attempts, maxAttempts: job!.max_attempts });
    await retry();
    // Read from its row: a read through the API may ask for an analysis again, which would hide the state.
    const stored = async () => (await test.store.query<{ status: string; problem: string | null }>(`SELECT status, problem FROM clip_brand_safety WHERE clip_id = $1`, [clipId]))[0];
    await handler.giveUp!(payload, new Error('the database went away'), ctx);
    expect(await stored()).toEqual({ status: 'Queued', problem: null });
    // The ask answered (as the runner's run of it would), the give-up of that run says it failed,
    // in the API's words: the error that stopped it is the server's (its log, the failed job).
    await test.store.query(`UPDATE jobs SET rerun = false WHERE id = $1`, [job!.id]);
    await handler.giveUp!(payload, new Error('connect ECONNREFUSED 10.0.0.7:5432'), ctx);
    expect(await stored()).toEqual({ status: 'Failed', problem: 'The analysis did not complete after 3 attempts.' });
    expect(BRAND_SAFETY_GAVE_UP).toBe('The analysis did not complete after 3 attempts.');
    await test.store.query(`DELETE FROM jobs WHERE id = $1`, [job!.id]);
  });
  it('migration 0655 rewrites a failure stored with its error into the API\'s words, and leaves other rows', async () => {
    await test.store.query(`UPDATE clip_brand_safety SET status = 'Failed', problem = 'relation "clips" does not exist' WHERE clip_id = $1`, [clipId]);
    const other = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE id <> $1 AND NOT deleted AND id NOT IN (SELECT clip_id FROM clip_brand_safety) ORDER BY id LIMIT 1`, [clipId]))[0]!.id;
    await test.store.query(`INSERT INTO clip_brand_safety (clip_id, organization_id, status) VALUES ($1, $2, 'Queued')`, [other, ORG_DEMO]);
    await test.store.exec(readFileSync(new URL('../../sync-server/brand-safety/migrations/0655_brand_safety_problem.sql', import.meta.url), 'utf8'));
    const rows = await test.store.query<{ clip_id: string; status: string; problem: string | null }>(`SELECT clip_id, status, problem FROM clip_brand_safety WHERE clip_id = ANY($1::uuid[]) ORDER BY status`, [[clipId, other]]);
    expect(rows).toEqual([
      { clip_id: clipId, status: 'Failed', problem: BRAND_SAFETY_GAVE_UP },
      { clip_id: other, status: 'Queued', problem: null },
    ]);
  });
});
