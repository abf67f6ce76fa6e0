// The push's batch transaction on both stores: a push of every kind of result runs in ONE
// transaction (a failure there would be rolled back and redone over the API router, giving the
// same answers, so the answers alone would not show it), stores in sync_mutations exactly what it
// answered, and answers a retry the same way from there.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addUser, api, login, startServer, type Server } from './harness.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';
import type { Store } from '../../sync-server/store/store.ts';

type Result = { mutationId: string; status: string; row?: Record<string, unknown> | null; serverRow?: Record<string, unknown> };

describe.each(storeKinds)('a push on %s', (kind) => {
  let t: TestStore;
  let server: Server;
  let cookie = '';
  let programId = '';
  let n = 0;
  /** Transactions begun, and statements that failed inside one, since the last push. */
  const watch = { transactions: 0, failures: [] as unknown[] };

  beforeAll(async () => {
    t = await openTestStore(kind);
    const store = t.store;
    const watched: Store = {
      ...store,
      tx: (fn) => {
        watch.transactions++;
        return store.tx((q) =>
          fn({
            query: <T,>(sql: string, params?: readonly unknown[]) =>
              q.query<T>(sql, params).catch((err: unknown) => {
                watch.failures.push(err);
                throw err;
              }),
          }),
        );
      },
    };
    server = await startServer({ store: watched });
  });
  afterAll(async () => {
    await t.drop();
  });
  beforeEach(async () => {
    n++;
    await server.newOrganization();
    await addUser(server, `anna.${n}@example.com`);
    cookie = await login(server, `anna.${n}@example.com`);
    programId = (await api(server, cookie, 'POST', '/v1/programs', { Name: 'Morning Show' })).json!['Id'] as string;
  });

  const clip = async (title: string) => (await api(server, cookie, 'POST', `/v1/programs/${programId}/clips`, { Title: title })).json!['Id'] as string;
  const row = async (path: string) => (await api(server, cookie, 'GET', path)).json!;
  const mutation = (entityId: string, method: string, path: string, body: unknown, base: string | null, entity = 'clips') => ({
    id: crypto.randomUUID(), entity, entityId, method, path, body, baseModifiedAtUtc: base, createdAt: Date.now(),
  });

  /** POST /api/sync/push (a fresh clientId each time: the server knows the device by nothing else). */
  async function push(mutations: unknown[]): Promise<Result[]> {
    watch.transactions = 0;
    watch.failures = [];
    const res = await api(server, cookie, 'POST', '/sync/push', { protocolVersion: 1, clientId: crypto.randomUUID(), mutations });
    expect(res.status).toBe(200);
    return (res.json as unknown as { results: Result[] }).results;
  }

  /** What sync_mutations holds for each answered mutation, against what the answer said: an
   * applied or merged row as its status and Version, anything else whole. */
  async function expectStoredAsAnswered(results: Result[]) {
    for (const r of results) {
      const [stored] = await server.store.query<{ result: unknown }>(`SELECT result FROM sync_mutations WHERE id = $1`, [r.mutationId]);
      const compact = (r.status === 'applied' || r.status === 'merged') && r.row ? { status: r.status, rowVersion: r.row['Version'] } : r;
      expect(stored?.result, `${r.status} ${r.mutationId}`).toEqual(compact);
    }
  }

  /** A retry's answer, less the clips' PlaylistIds: a row answered again is rebuilt with its
   * playlists as they are now, and this push changed one. */
  const withoutPlaylistIds = (results: Result[]) => JSON.parse(JSON.stringify(results, (k, v: unknown) => (k === 'PlaylistIds' ? undefined : v))) as Result[];

  it('every kind of result in one transaction, each stored as answered, and answered the same again', async () => {
    const [one, two, three, four] = [await clip('One'), await clip('Two'), await clip('Three'), await clip('Four')];
    const base: Record<string, string> = {};
    for (const id of [one, two, three, four]) base[id] = (await row(`/v1/clips/${id}`))['ModifiedAtUtc'] as string;
    const playlist = (await api(server, cookie, 'POST', `/v1/programs/${programId}/playlists`, { Title: 'Feed' })).json!;
    // Edits on the web the device has not seen: one it merges over, one it conflicts with.
    await api(server, cookie, 'PATCH', `/v1/clips/${two}`, { Description: 'From the web' });
    await api(server, cookie, 'PATCH', `/v1/clips/${three}`, { Title: 'Three, from the web' });
    const created = crypto.randomUUID();
    const first = mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: 'One, edited' }, base[one]!);
    const mutations = [
      first,
      mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: 'One, edited again' }, base[one]!),
      first, // the same mutation twice in one push: answered once
      mutation(two, 'PATCH', `/v1/clips/${two}`, { Title: 'Two, edited' }, base[two]!),
      mutation(three, 'PATCH', `/v1/clips/${three}`, { Title: 'Three, edited' }, base[three]!),
      mutation(four, 'PATCH', `/v1/clips/${four}`, { Title: 7 }, base[four]!),
      mutation(created, 'POST', `/v1/programs/${programId}/clips`, { Id: created, Title: 'Made offline' }, null),
      mutation(playlist['Id'] as string, 'PATCH', `/v1/playlists/${playlist['Id']}/clips`, { ClipIds: [one, two] }, playlist['ModifiedAtUtc'] as string, 'playlists'),
      mutation(four, 'DELETE', `/v1/clips/${four}`, null, base[four]!),
    ];
    const results = await push(mutations);
    expect(watch).toEqual({ transactions: 1, failures: [] });
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'merged', 'conflict', 'rejected', 'applied', 'applied', 'applied']);
    expect(results[1]!.row).toMatchObject({ Title: 'One, edited again', Version: (await row(`/v1/clips/${one}`))['Version'] });
    expect(results[3]!.row).toMatchObject({ Title: 'Two, edited', Description: 'From the web' });
    await expectStoredAsAnswered(results.filter((_, i) => i !== 2));

    const again = await push(mutations);
    expect(watch.failures).toEqual([]);
    expect(withoutPlaylistIds(again)).toEqual(withoutPlaylistIds(results));
  });

  it('a conflict over the row its own merge wrote, beside an applied and a merged edit: stored with that row’s Version', async () => {
    const [one, two] = [await clip('One'), await clip('Two')];
    const oneBase = (await row(`/v1/clips/${one}`))['ModifiedAtUtc'] as string;
    const twoBase = (await row(`/v1/clips/${two}`))['ModifiedAtUtc'] as string;
    await api(server, cookie, 'PATCH', `/v1/clips/${one}`, { Title: 'One, from the web' });
    await api(server, cookie, 'PATCH', `/v1/clips/${two}`, { Description: 'From the web' });
    const mutations = [
      mutation(two, 'PATCH', `/v1/clips/${two}`, { Season: 2 }, twoBase),
      mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: 'One, from the train', Season: 4 }, oneBase),
      mutation(two, 'PATCH', `/v1/clips/${two}`, { Episode: 9 }, null),
    ];
    const results = await push(mutations);
    expect(watch).toEqual({ transactions: 1, failures: [] });
    expect(results.map((r) => r.status)).toEqual(['merged', 'conflict', 'applied']);
    expect(results[1]!.serverRow).toMatchObject({ Title: 'One, from the web', Season: 4, Version: (await row(`/v1/clips/${one}`))['Version'] });
    await expectStoredAsAnswered(results);
    expect(await push(mutations)).toEqual(results);
  });

  it('nothing to write (an edit the row already has, a refused one): the results are stored all the same', async () => {
    const one = await clip('One');
    const base = (await row(`/v1/clips/${one}`))['ModifiedAtUtc'] as string;
    await api(server, cookie, 'PATCH', `/v1/clips/${one}`, { Title: 'Same' });
    const version = (await row(`/v1/clips/${one}`))['Version'];
    const mutations = [mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: 'Same' }, base), mutation(one, 'PATCH', `/v1/clips/${one}`, { Season: 'two' }, null)];
    const results = await push(mutations);
    expect(watch).toEqual({ transactions: 1, failures: [] });
    expect(results.map((r) => r.status)).toEqual(['merged', 'rejected']);
    expect((await row(`/v1/clips/${one}`))['Version']).toBe(version);
    await expectStoredAsAnswered(results);
    expect(await push(mutations)).toEqual(results);
  });

  it('a mutation id in capitals sent again is answered from what was stored, with the id as sent, and not applied twice', async () => {
    const one = await clip('One');
    const base = (await row(`/v1/clips/${one}`))['ModifiedAtUtc'] as string;
    const edit = { ...mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: 'Once' }, base), id: crypto.randomUUID().toUpperCase() };
    const [first] = await push([edit]);
    expect(first).toMatchObject({ mutationId: edit.id, status: 'applied' });
    const version = (await row(`/v1/clips/${one}`))['Version'];
    expect(await push([edit])).toEqual([first]);
    expect((await row(`/v1/clips/${one}`))['Version']).toBe(version);
  });
});
