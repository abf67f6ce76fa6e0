// callerChecks (sync-server/auth.ts): the event streams' look at their credentials before a poke.
// Asked for many callers in one turn, it asks the database once per kind, and answers each caller
// as the single check did: signed out, expired, deleted user or revoked key is false.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerChecks, createApiKey, createSession, sha256, type SessionUser } from '../../sync-server/auth.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import type { Queryable } from '../../sync-server/store/store.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const session = (token: string) => ({ tokenHash: sha256(token) }) as unknown as SessionUser;
const key = (plain: string) => ({ keyHash: sha256(plain) }) as unknown as SessionUser;

describe('callerChecks', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore('pglite');
    await seed(t.store, { clips: 2 });
  });
  afterAll(() => t?.drop());

  it('checks 200 streams of 60 sessions and 2 keys with one query per kind, each answer right', async () => {
    const now = new Date();
    const demo = seedId('user:demo@example.com');
    const live = await Promise.all(Array.from({ length: 58 }, () => createSession(t.store, demo, now)));
    const signedOut = await createSession(t.store, demo, now);
    await t.store.query(`DELETE FROM sessions WHERE token_hash = $1`, [sha256(signedOut.token)]);
    const expired = await createSession(t.store, demo, new Date(now.getTime() - 400 * 24 * 3600 * 1000));
    const goodKey = await createApiKey(t.store, { organizationId: ORG_DEMO, userId: demo, name: 'ok', now });
    const revokedKey = await createApiKey(t.store, { organizationId: ORG_DEMO, userId: demo, name: 'gone', now });
    await t.store.query(`UPDATE api_keys SET revoked = true WHERE id = $1`, [revokedKey.id]);

    const queries: string[] = [];
    const counting: Queryable = { query: (sql, params) => (queries.push(sql), t.store.query(sql, params)) };
    const check = callerChecks(counting, () => now);
    const callers = [...live.map((s) => session(s.token)), session(signedOut.token), session(expired.token), key(goodKey.key), key(revokedKey.key)];
    // Several streams per caller, as a user with a few tabs has.
    const asked = Array.from({ length: 200 }, (_, i) => callers[i % callers.length]!);
    const answers = await Promise.all(asked.map((c) => check(c)));

    expect(queries).toHaveLength(2);
    const expected = new Map<SessionUser, boolean>([...callers.slice(0, 58).map((c) => [c, true] as const), [callers[58]!, false], [callers[59]!, false], [callers[60]!, true], [callers[61]!, false]]);
    expect(answers).toEqual(asked.map((c) => expected.get(c)));

    // A later turn asks again (a sign-out between two pokes is seen).
    await t.store.query(`DELETE FROM sessions WHERE token_hash = $1`, [sha256(live[0]!.token)]);
    expect(await check(session(live[0]!.token))).toBe(false);
    expect(queries).toHaveLength(3);
  });

  it('a failing database fails every check of the batch (the stream then closes), not some', async () => {
    const failing: Queryable = { query: () => Promise.reject(new Error('database away')) };
    const check = callerChecks(failing, () => new Date());
    const results = await Promise.allSettled([check(session('a')), check(session('b')), check(key('c'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});
