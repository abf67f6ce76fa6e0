// Auto-add rules of playlists (section 7: /v1/playlists/{playlistId}/settings/auto-add), on PGlite:
// the routes (read, change, 400 naming the field, 404 for a playlist the caller may not see, 403
// without manage-settings access), the rule kept on the row (playlist.setAutoAdd) and applied by
// the server when a clip is created in the program, over REST and in a sync push's batch, and by
// applyAutoAdd, which the publishing job calls when a clip becomes Published.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedId } from '../../sync-server/seed.ts';
import { applyAutoAdd } from '../../sync-server/mutations/playlists.ts';
import { loadRow } from '../../sync-server/rows.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
const FEED = seedId('playlist:morning:feed');
const HIGHLIGHTS = seedId('playlist:morning:highlights');
const WORLD_FEED = seedId('playlist:world:feed');
const url = (playlistId: string) => `/api/v1/playlists/${playlistId}/settings/auto-add`;

describe('playlist auto-add rules', () => {
  let t: TestStore;
  let app: SeededApp['app'];
  let demo: AppClient;
  let producer: AppClient;

  beforeAll(async () => {
    t = await openTestStore('pglite');
    ({ app } = await seededApp(t.store));
    demo = new AppClient(app);
    await demo.login('demo@example.com');
    producer = new AppClient(app);
    await producer.login('producer@example.com');
  });
  afterAll(async () => {
    await t?.drop();
  });

  const clipIdsOf = async (playlistId: string) => ((await demo.get(`/api/v1/playlists/${playlistId}`)).body as { ClipIds: string[] }).ClipIds;
  const createClip = async (programId: string, body: Record<string, unknown>) => {
    const reply = await demo.post(`/api/v1/programs/${programId}/clips`, body);
    expect(reply.status, reply.text).toBe(201);
    return (reply.body as { Id: string }).Id;
  };

  it('a playlist without a rule reads as off; a change is kept on the row, normalised, with a new ETag', async () => {
    const before = await demo.get(url(FEED));
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ Enabled: false, Tags: [], EpisodeType: null });
    const reply = await demo.patch(url(FEED), { Enabled: true, Tags: [' Interview ', 'interview', ''] }, { 'if-match': before.headers.get('etag')! });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ Enabled: true, Tags: ['Interview'], EpisodeType: null });
    expect(reply.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const playlist = (await demo.get(`/api/v1/playlists/${FEED}`)).body as { AutoAdd: unknown };
    expect(playlist.AutoAdd).toEqual({ Enabled: true, Tags: ['Interview'], EpisodeType: null });
    // Fields not sent stay as they were.
    const typed = await demo.patch(url(FEED), { EpisodeType: 'Bonus' });
    expect(typed.body).toEqual({ Enabled: true, Tags: ['Interview'], EpisodeType: 'Bonus' });
    // A stale If-Match on a rule changed since is a conflict on the rule: 412 with the playlist.
    const stale = await demo.patch(url(FEED), { Enabled: false }, { 'if-match': before.headers.get('etag')! });
    expect(stale.status).toBe(412);
    await demo.patch(url(FEED), { Enabled: false, Tags: [], EpisodeType: null });
  });

  it('a 400 names every invalid field', async () => {
    const reply = await demo.patch(url(FEED), { Enabled: 'yes', EpisodeType: 'Special', Tags: ['x'.repeat(101)] });
    expect(reply.status).toBe(400);
    expect(fields(reply).map(([f]) => f).sort()).toEqual(['Enabled', 'EpisodeType', 'Tags.0']);
    const unknown = await demo.patch(url(FEED), { Position: 'Top' });
    expect(unknown.status).toBe(400);
  });

  it('a playlist the caller may not see is a 404 for both, exactly as one that does not exist; seen without manage-settings access, the change is 403', async () => {
    for (const id of [WORLD_FEED, randomUUID()]) {
      expect((await producer.get(url(id))).status).toBe(404);
      expect((await producer.patch(url(id), { Enabled: true })).status).toBe(404);
    }
    expect((await producer.get(url(FEED))).status).toBe(200);
    expect((await producer.patch(url(FEED), { Enabled: true })).status).toBe(403);
  });

  it('a new clip of the program joins every playlist whose rule takes it, at the end, and no other', async () => {
    await demo.patch(url(FEED), { Enabled: true, Tags: [], EpisodeType: null });
    await demo.patch(url(HIGHLIGHTS), { Enabled: true, Tags: ['interview'], EpisodeType: null });
    await demo.patch(url(WORLD_FEED), { Enabled: true, Tags: [], EpisodeType: null });
    const [feedBefore, highlightsBefore, worldBefore] = await Promise.all([clipIdsOf(FEED), clipIdsOf(HIGHLIGHTS), clipIdsOf(WORLD_FEED)]);

    const plain = await createClip(MORNING, { Title: 'Auto-added everywhere it may' });
    expect(await clipIdsOf(FEED)).toEqual([...feedBefore, plain]);
    expect(await clipIdsOf(HIGHLIGHTS)).toEqual(highlightsBefore);
    expect(await clipIdsOf(WORLD_FEED)).toEqual(worldBefore);

    const tagged = await createClip(MORNING, { Title: 'An interview', Tags: ['Interview'] });
    expect(await clipIdsOf(FEED)).toEqual([...feedBefore, plain, tagged]);
    expect(await clipIdsOf(HIGHLIGHTS)).toEqual([...highlightsBefore, tagged]);
    // The clip lists the playlists it joined.
    const clip = (await demo.get(`/api/v1/clips/${tagged}`)).body as { PlaylistIds: string[] };
    expect([...clip.PlaylistIds].sort()).toEqual([FEED, HIGHLIGHTS].sort());
  });

  it('a clip created in a sync push joins the playlists too (the batch writes them with the clip)', async () => {
    const before = await clipIdsOf(FEED);
    const clipIds = [randomUUID(), randomUUID()];
    const reply = await demo.push(clipIds.map((clipId, i) => ({ name: 'clip.create', args: { programId: MORNING, clipId, fields: { Title: `Pushed ${i}` } } })));
    expect(reply.status, reply.text).toBe(200);
    expect((reply.body as { results: Array<{ status: string }> }).results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await clipIdsOf(FEED)).toEqual([...before, ...clipIds]);
  });

  it('applyAutoAdd (the publishing job): adds a published clip whose tags now match, once', async () => {
    await demo.patch(url(FEED), { Enabled: false });
    const clipId = await createClip(MORNING, { Title: 'Tagged later' });
    expect(await clipIdsOf(HIGHLIGHTS)).not.toContain(clipId);
    await demo.patch(`/api/v1/clips/${clipId}`, { Tags: ['interview'] });
    const written = await t.store.tx(async (q) => applyAutoAdd(q, (await loadRow(q, 'clip', seedId('org:demo'), clipId))!));
    expect(written.map((r) => r.Id)).toEqual([HIGHLIGHTS]);
    expect((await clipIdsOf(HIGHLIGHTS)).at(-1)).toBe(clipId);
    // A second time adds nothing: the clip is there already.
    const again = await t.store.tx(async (q) => applyAutoAdd(q, (await loadRow(q, 'clip', seedId('org:demo'), clipId))!));
    expect(again).toEqual([]);
    expect((await clipIdsOf(HIGHLIGHTS)).filter((id) => id === clipId)).toHaveLength(1);
  });

  it('a deleted playlist takes nothing, and a clip of another program never joins', async () => {
    await demo.patch(url(HIGHLIGHTS), { Enabled: true, Tags: [], EpisodeType: null });
    const before = await clipIdsOf(HIGHLIGHTS);
    const other = await createClip(WORLD, { Title: 'Elsewhere' });
    expect(await clipIdsOf(HIGHLIGHTS)).toEqual(before);
    expect(await clipIdsOf(WORLD_FEED)).toContain(other);
    expect((await demo.delete(`/api/v1/playlists/${WORLD_FEED}`)).status).toBe(204);
    const after = await createClip(WORLD, { Title: 'After the delete' });
    const row = await loadRow(t.store, 'playlist', seedId('org:demo'), WORLD_FEED);
    expect(row!['ClipIds']).not.toContain(after);
  });
});
