// The push's batch transaction on both stores: a push of every kind of result runs in ONE
// transaction (a failure there would be rolled back and redone over the API router, giving the
// same answers, so the answers alone would not show it), stores in sync_mutations exactly what it
// answered, and answers a retry the same way from there.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addUser, api, login, startServer, type Server } from './harness.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { PIPELINE_MIN } from '../../sync-server/sync/push.ts';

type Result = { mutationId: string; status: string; row?: Record<string, unknown> | null; serverRow?: Record<string, unknown> };

describe.each(storeKinds)('a push on %s', (kind) => {
  let t: TestStore;
  let server: Server;
  let cookie = '';
  let programId = '';
  let n = 0;
  /** Transactions begun, and statements that failed inside one, since the last push. */
  const watch = { transactions: 0, failures: [] as unknown[] };
  /** A delay before each statement's answer reaches the server's code (the database runs them in
   * the order they were sent all the same), as a slow link to the database would make it. */
  let answerDelayMs = 0;
  /** Reads sent and not yet answered, and whether a push's write statement was sent while one
   * was (on PostgreSQL a push in two halves sends its first half's writes while the second
   * half's rows are being read). */
  const overlap = { reads: 0, writeDuringRead: false };
  /** Fails the n-th write statement, or read, from now on (counting from 1) before it is sent. */
  const inject = { write: 0, read: 0 };

  beforeAll(async () => {
    t = await openTestStore(kind);
    const store = t.store;
    const watched: Store = {
      ...store,
      tx: (fn) => {
        watch.transactions++;
        return store.tx((q) =>
          fn({
            query: <T,>(sql: string, params?: readonly unknown[]) => {
              const write = sql.startsWith('WITH x AS');
              if (write ? --inject.write === 0 : --inject.read === 0) {
                const err = new Error(`injected: ${write ? 'a write' : 'a read'} fails`);
                watch.failures.push(err);
                answerDelayMs = 0; // what follows (the redo over the router, 100 transactions) at full speed
                return Promise.reject(err);
              }
              if (write && overlap.reads > 0) overlap.writeDuringRead = true;
              if (!write) overlap.reads++;
              return q.query<T>(sql, params).finally(() => !write && overlap.reads--).then(
                async (rows) => {
                  if (answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, answerDelayMs));
                  return rows;
                },
                (err: unknown) => {
                  watch.failures.push(err);
                  throw err;
                },
              );
            },
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
    answerDelayMs = 0;
    inject.write = inject.read = 0;
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
    return (await pushAtOnce([mutations]))[0]!;
  }

  /** Several pushes sent together, from as many devices. */
  async function pushAtOnce(pushes: unknown[][]): Promise<Result[][]> {
    watch.transactions = 0;
    watch.failures = [];
    overlap.writeDuringRead = false;
    return Promise.all(
      pushes.map(async (mutations) => {
        const res = await api(server, cookie, 'POST', '/sync/push', { protocolVersion: 1, clientId: crypto.randomUUID(), mutations });
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        return (res.json as unknown as { results: Result[] }).results;
      }),
    );
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
    // A refusal of the mutation's shape (Title: 7) is answered from the mutation itself, before any
    // run: nothing to store, and the same answer again.
    await expectStoredAsAnswered(results.filter((_, i) => i !== 2 && i !== 5));

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

  it('nothing to write (an edit the row already has, a refused one): the merge is stored, the refused shape answered again from the mutation itself', async () => {
    const one = await clip('One');
    const base = (await row(`/v1/clips/${one}`))['ModifiedAtUtc'] as string;
    await api(server, cookie, 'PATCH', `/v1/clips/${one}`, { Title: 'Same' });
    const version = (await row(`/v1/clips/${one}`))['Version'];
    const mutations = [mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: 'Same' }, base), mutation(one, 'PATCH', `/v1/clips/${one}`, { Season: 'two' }, null)];
    const results = await push(mutations);
    expect(watch).toEqual({ transactions: 1, failures: [] });
    expect(results.map((r) => r.status)).toEqual(['merged', 'rejected']);
    expect((await row(`/v1/clips/${one}`))['Version']).toBe(version);
    await expectStoredAsAnswered(results.slice(0, 1));
    expect(await push(mutations)).toEqual(results);
  });

  /** PIPELINE_MIN mutations: `first` and then edits of a filler clip, then `second` and more
   * edits of it, so that on PostgreSQL the push runs in two halves (push.ts), `first` and `second`
   * starting each; on PGlite it runs whole, with the same answers. */
  async function halves(first: unknown[], second: unknown[]) {
    const filler = await clip('Filler');
    const fill = (count: number) => Array.from({ length: count }, (_, i) => mutation(filler, 'PATCH', `/v1/clips/${filler}`, { Episode: i }, null));
    const half = PIPELINE_MIN / 2;
    return { filler, half, mutations: [...first, ...fill(half - first.length), ...second, ...fill(half - second.length)] };
  }

  async function inTwoHalves(first: unknown[], second: unknown[]) {
    const { filler, half, mutations } = await halves(first, second);
    // Answers late enough that the second half's rows, and the first half's Versions, arrive after
    // the operations that run meanwhile (what the halves overlap).
    answerDelayMs = 30;
    const results = await push(mutations);
    expect(watch).toEqual({ transactions: 1, failures: [] });
    expect((await row(`/v1/clips/${filler}`))['Episode']).toBe(half - second.length - 1);
    return { mutations, results, half };
  }

  it('a push large enough to run in two halves: the second half sees what the first wrote, in one transaction', async () => {
    const [one, listed] = [await clip('One'), await clip('Listed')];
    const playlist = (await api(server, cookie, 'POST', `/v1/programs/${programId}/playlists`, { Title: 'Feed' })).json!;
    expect((await api(server, cookie, 'PATCH', `/v1/playlists/${playlist['Id']}/clips`, { ClipIds: [listed] })).status).toBe(204);
    const created = crypto.randomUUID();
    const { mutations, results, half } = await inTwoHalves(
      [
        mutation(playlist['Id'] as string, 'DELETE', `/v1/playlists/${playlist['Id']}`, null, null, 'playlists'),
        mutation(created, 'POST', `/v1/programs/${programId}/clips`, { Id: created, Title: 'Made offline' }, null),
        mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: 'One, first half' }, null),
      ],
      [
        mutation(created, 'PATCH', `/v1/clips/${created}`, { Title: 'Made offline, edited' }, null),
        mutation(one, 'PATCH', `/v1/clips/${one}`, { Season: 3 }, null),
        mutation(listed, 'PATCH', `/v1/clips/${listed}`, { Title: 'Listed, edited' }, null),
      ],
    );
    expect(results.every((r) => r.status === 'applied')).toBe(true);
    // On PostgreSQL the halves overlapped: the first half's writes went out while the second
    // half's rows were being read.
    expect(overlap.writeDuringRead).toBe(kind === 'postgres');
    // The clip made in the first half is there for the second; the playlist the first half
    // deleted is no longer among the PlaylistIds of a clip the second half edits.
    expect(results[half]!.row).toMatchObject({ Id: created, Title: 'Made offline, edited' });
    const oneNow = await row(`/v1/clips/${one}`);
    expect(oneNow).toMatchObject({ Title: 'One, first half', Season: 3 });
    expect(results[half + 1]!.row).toMatchObject({ Title: 'One, first half', Season: 3, Version: oneNow['Version'] });
    expect(results[half + 2]!.row).toMatchObject({ Title: 'Listed, edited', PlaylistIds: [] });
    await expectStoredAsAnswered(results);
    const again = await push(mutations);
    expect(watch.failures).toEqual([]);
    expect(again).toEqual(results);
  });

  it('a conflict in the first half of a push in two halves is stored with the Version its merge’s write was given', async () => {
    const three = await clip('Three');
    const threeBase = (await row(`/v1/clips/${three}`))['ModifiedAtUtc'] as string;
    await api(server, cookie, 'PATCH', `/v1/clips/${three}`, { Title: 'Three, from the web' });
    const { mutations, results } = await inTwoHalves([mutation(three, 'PATCH', `/v1/clips/${three}`, { Title: 'Three, from the train', Description: 'From the train' }, threeBase)], []);
    expect(results.map((r) => r.status)).toEqual(['conflict', ...Array<string>(PIPELINE_MIN - 1).fill('applied')]);
    // Its server row is what the merge wrote (the field only the device changed), with that
    // write's Version, known only once the first half's writes are answered.
    const threeNow = await row(`/v1/clips/${three}`);
    expect(threeNow).toMatchObject({ Title: 'Three, from the web', Description: 'From the train' });
    expect(results[0]!.serverRow).toMatchObject({ Title: 'Three, from the web', Description: 'From the train', Version: threeNow['Version'] });
    await expectStoredAsAnswered(results);
    expect(await push(mutations)).toEqual(results);
  });

  it('two pushes in two halves at once over the same rows, crossing: one waits for the other, in one transaction each', async () => {
    const [one, two] = [await clip('One'), await clip('Two')];
    const a = await halves([mutation(one, 'PATCH', `/v1/clips/${one}`, { Season: 1 }, null)], [mutation(two, 'PATCH', `/v1/clips/${two}`, { Season: 1 }, null)]);
    const b = await halves([mutation(two, 'PATCH', `/v1/clips/${two}`, { Episode: 2 }, null)], [mutation(one, 'PATCH', `/v1/clips/${one}`, { Episode: 2 }, null)]);
    // Each locks its first half's rows, then its second half's: taken in that order, each would
    // wait for the other's first row until PostgreSQL ended one of them (a deadlock, 40P01).
    answerDelayMs = 30;
    const [ra, rb] = await pushAtOnce([a.mutations, b.mutations]);
    expect(watch).toEqual({ transactions: 2, failures: [] });
    expect([...ra!, ...rb!].every((r) => r.status === 'applied')).toBe(true);
    expect(await row(`/v1/clips/${one}`)).toMatchObject({ Season: 1, Episode: 2 });
    expect(await row(`/v1/clips/${two}`)).toMatchObject({ Season: 1, Episode: 2 });
  });

  it('a push in two halves whose first half’s writes, or second half’s read, fail midway is redone over the router: the same answers, nothing left behind', async () => {
    const [one, two] = [await clip('One'), await clip('Two')];
    for (const failing of ['write', 'read'] as const) {
      const { filler, half, mutations } = await halves([mutation(one, 'PATCH', `/v1/clips/${one}`, { Title: `One, ${failing}` }, null)], [mutation(two, 'PATCH', `/v1/clips/${two}`, { Title: `Two, ${failing}` }, null)]);
      answerDelayMs = 30;
      // On PostgreSQL the first write statement is the first half's (sent while the second half
      // runs) and the second read the second half's (sent while the first half runs).
      inject[failing] = failing === 'write' ? 1 : 2;
      const results = await push(mutations);
      answerDelayMs = 0;
      inject.write = inject.read = 0;
      const failed = failing === 'write' || kind === 'postgres';
      expect(watch.failures.map(String), failing).toEqual(failed ? [`Error: injected: a ${failing} fails`] : []);
      // Rolled back and redone one mutation at a time over the router.
      expect(watch.transactions, failing).toBe(failed ? PIPELINE_MIN + 1 : 1);
      expect(results.every((r) => r.status === 'applied')).toBe(true);
      expect(results[0]!.row).toMatchObject({ Title: `One, ${failing}` });
      expect(results[half]!.row).toMatchObject({ Title: `Two, ${failing}` });
      expect((await row(`/v1/clips/${filler}`))['Episode']).toBe(half - 2);
      await expectStoredAsAnswered(results);
    }
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
