// A singleton job as its last attempt leaves it, for a test that calls its handler's give-up itself.
import { jobContext, type JobContext } from '../../sync-server/jobs/runner.ts';
import type { Store } from '../../sync-server/store/store.ts';

/**
 * The job `kind` with `payload` under `singletonKey` (in place of any one there), running its
 * last of `attempts` attempts and still this runner's; and the context its give-up is called with.
 */
export async function jobOnLastAttempt(store: Store, kind: string, payload: unknown, singletonKey: string, attempts = 3): Promise<{ id: number; ctx: JobContext }> {
  await store.query(`DELETE FROM jobs WHERE singleton_key = $1`, [singletonKey]);
  const [job] = await store.query<{ id: number }>(
    `INSERT INTO jobs (kind, payload, singleton_key, state, attempts, max_attempts, locked_by, locked_until)
     VALUES ($1, $2::jsonb, $3, 'running', $4, $4, 'this runner', now() + interval '1 hour') RETURNING id`,
    [kind, JSON.stringify(payload), singletonKey, attempts],
  );
  return { id: job!.id, ctx: jobContext(store, { id: job!.id, kind, attempt: attempts, maxAttempts: attempts }) };
}
