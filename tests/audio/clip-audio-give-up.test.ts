// The clip processing job's give-up (sync-server/audio/versions.ts), on PGlite and on PostgreSQL.
// After its last attempt a clip without good audio goes to Error with the problem and one with good
// audio keeps serving it, saying the problem. A new upload that lands while the last attempt gives
// up asks for another run, which is that upload's to end: the give-up locks the row first (the order
// the upload writes it and asks in), reads the ask, and leaves the row AudioUploaded.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaErrorCode } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { writeAudioRow } from '../../sync-server/audio/clip-rows.ts';
import { uploadRowPatch } from '../../sync-server/audio/mutations.ts';
import { CLIP_AUDIO_JOB, enqueueClipAudio } from '../../sync-server/audio/versions.ts';
import type { JobContext } from '../../sync-server/jobs/runner.ts';
import { jobOnLastAttempt } from '../helpers/last-attempt.ts';
import { storeKinds } from '../server/test-store.ts';
import { fixturePath } from './fixtures.ts';
import { startAudioServer } from './server-harness.ts';

const DECODE_FAILED = mediaProblemText({ code: MediaErrorCode.DecodeFailed }, 'en-US');

describe.each(storeKinds)('the clip processing job gives up (%s)', (kind) => {
  let s: Awaited<ReturnType<typeof startAudioServer>>;
  beforeAll(async () => {
    s = await startAudioServer({ store: kind });
  });
  afterAll(async () => {
    await s?.close();
  });

  const handler = () => s.audio.jobHandlers[CLIP_AUDIO_JOB]!;
  const payload = (clipId: string) => ({ organizationId: s.orgId, clipId, userId: s.editor.id });

  /** The clip with speech-12s.mp3 uploaded (AudioUploaded); its processing job left queued, or run (Ready). */
  async function uploaded(clipId: string) {
    const res = await s.app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, {
      method: 'PUT',
      headers: { ...s.editor.headers, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))),
    });
    expect(res.status).toBe(202);
  }

  /** The clip's processing job as its last attempt leaves it: running, still this runner's. */
  const onLastAttempt = (clipId: string) => jobOnLastAttempt(s.deps.store, CLIP_AUDIO_JOB, payload(clipId), `${CLIP_AUDIO_JOB}:${clipId}`);
  const giveUp = (clipId: string, ctx: JobContext) =>
    handler().giveUp!(handler().payload.parse(payload(clipId)), new Error('the disk is gone'), ctx);

  it('with no new request, a clip without good audio ends in Error saying why; one with good audio keeps serving it and says why', async () => {
    const fresh = await s.newClip();
    await uploaded(fresh);
    const job = await onLastAttempt(fresh);
    await giveUp(fresh, job.ctx);
    const failed = await s.clipRow(fresh);
    expect([failed.state, failed.data.AudioProcessingProblem, failed.data.DurationSeconds]).toEqual(['Error', DECODE_FAILED, null]);

    const served = await s.newClip();
    await uploaded(served);
    await s.queue.idle();
    const ready = await s.clipRow(served);
    expect(ready.state).toBe('Ready');
    const again = await onLastAttempt(served);
    await giveUp(served, again.ctx);
    const kept = await s.clipRow(served);
    expect([kept.state, kept.data.AudioProcessingProblem, kept.data.Urls]).toEqual(['Ready', DECODE_FAILED, ready.data.Urls]);
    await s.deps.store.query(`DELETE FROM jobs WHERE id = ANY($1::bigint[])`, [[job.id, again.id]]);
  });

  it('a new upload landing while the last attempt gives up is left AudioUploaded for the run it asked for, which ends it Ready', async () => {
    const clipId = await s.newClip();
    await uploaded(clipId);
    const job = await onLastAttempt(clipId);
    let givingUp: Promise<unknown> | null = null;
    // The upload's write as the service makes it (the row, then the ask for a run, in one
    // transaction), with the give-up starting between the two.
    await s.deps.store.tx((q) =>
      writeAudioRow(s.deps, { entity: 'clip', organizationId: s.orgId, id: clipId }, (row) => uploadRowPatch(row, 'speech-12s.mp3'), { userId: s.editor.id }, {
        inTransaction: (lock, write) => lock(q).then((locked) => write(q, locked)),
        alsoInTransaction: async () => {
          givingUp = giveUp(clipId, job.ctx);
          // PostgreSQL: until the give-up waits on the row's lock (reading the ask before locking,
          // it would read "none" and wait at its write). PGlite's one connection queues it whole.
          if (kind === 'postgres')
            await expect
              .poll(async () => (await q.query(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).length, { timeout: 10_000 })
              .toBe(1);
          await enqueueClipAudio(q, payload(clipId));
        },
      }),
    );
    await givingUp;
    const row = await s.clipRow(clipId);
    expect([row.state, row.data.AudioProcessingProblem]).toEqual(['AudioUploaded', null]);
    const [asked] = await s.deps.store.query<{ rerun: boolean }>(`SELECT rerun FROM jobs WHERE id = $1`, [job.id]);
    expect(asked!.rerun).toBe(true);
    // The run asked for, as the runner queues it once the give-up is over, ends the upload.
    await s.deps.store.query(`UPDATE jobs SET state = 'queued', attempts = 0, rerun = false, locked_by = NULL, locked_until = NULL, run_at = now() WHERE id = $1`, [job.id]);
    await s.queue.idle();
    expect((await s.clipRow(clipId)).state).toBe('Ready');
  });
});
