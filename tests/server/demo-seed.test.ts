// The real demo seed of issue 2 item 10 (2,000 clips), on PGlite and PostgreSQL: counts, every
// State, PublishState and Visibility, the section-4 invariants of each row, and the users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { DEMO_CLIP_COUNT, ORG_PODCASTS, PROGRAMS, seedClip, seedId, seedIfEmpty } from '../../sync-server/seed.ts';
import { ClipSchema, RecordingSchema } from '../../src/protocol/entities.ts';
import { normalizeClip } from '../../src/domain/clip.ts';
import { normalizeRecording } from '../../src/domain/recording.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe.each(storeKinds)('demo seed on %s', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(kind);
    const summary = await seedIfEmpty(t.store);
    expect(summary?.clips).toBe(DEMO_CLIP_COUNT);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('holds the two organizations, at least 3 networks, 12 programs and 2,000 clips', async () => {
    const orgs = await t.store.query<{ name: string; is_demo: boolean; provider: string }>(`SELECT name, is_demo, provider FROM organizations ORDER BY name`);
    expect(orgs).toEqual([
      { name: 'Castaway Demo Radio', is_demo: true, provider: 'Broadcaster' },
      { name: 'Castaway Podcasts', is_demo: false, provider: 'Podcaster' },
    ]);
    const [counts] = await t.store.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM networks)::int AS networks, (SELECT count(*) FROM programs)::int AS programs,
              (SELECT count(*) FROM clips)::int AS clips, (SELECT count(*) FROM playlists)::int AS playlists`,
    );
    expect(counts!.networks).toBeGreaterThanOrEqual(3);
    expect(counts!.programs).toBe(12);
    expect(counts!.clips).toBe(2000);
    expect(counts!.playlists).toBeGreaterThan(0);
  });

  it('covers every State, PublishState and Visibility, seasons and episodes, scheduled visibility', async () => {
    const distinct = async (col: string) => (await t.store.query<{ v: string }>(`SELECT DISTINCT ${col} AS v FROM clips ORDER BY 1`)).map((r) => r.v);
    expect(await distinct('state')).toEqual(['AudioUploaded', 'Draft', 'Error', 'None', 'Processing', 'Ready', 'Warning']);
    expect(await distinct('publish_state')).toEqual(['Published', 'Publishing', 'Unpublished', 'Unpublishing']);
    expect(await distinct('visibility')).toEqual(['Private', 'Public', 'Restricted', 'Unlisted']);
    const [combos] = await t.store.query<{ n: number }>(`SELECT count(DISTINCT (state, publish_state, visibility))::int AS n FROM clips`);
    expect(combos!.n).toBe(7 * 4 * 4);
    const [extra] = await t.store.query<Record<string, number>>(
      `SELECT count(*) FILTER (WHERE data->>'Season' IS NOT NULL AND data->>'Episode' IS NOT NULL)::int AS both,
              count(*) FILTER (WHERE data->>'Season' IS NULL AND data->>'Episode' IS NULL)::int AS neither,
              count(*) FILTER (WHERE data->>'ScheduledVisibility' IS NOT NULL AND data->>'VisibleAtUtc' IS NOT NULL)::int AS scheduled,
              count(*) FILTER (WHERE title IS NULL)::int AS untitled,
              count(*) FILTER (WHERE deleted)::int AS deleted
       FROM clips`,
    );
    expect(extra!.both).toBeGreaterThan(0);
    expect(extra!.neither).toBeGreaterThan(0);
    expect(extra!.scheduled).toBeGreaterThan(0);
    expect(extra!.untitled).toBeGreaterThan(0);
    expect(extra!.deleted).toBeGreaterThan(0);
  });

  it('makes every clip and recording pass the normalisation of section 4 (no data errors)', async () => {
    const app = createApp({ store: t.store, bus: createMemoryBus() });
    const demo = new AppClient(app);
    await demo.login('demo@example.com');
    const demoRadio = (await demo.get('/api/v1/clips?pageSize=2500&includeDeleted=true')).body as { Items: unknown[] };
    const podcasts = (await demo.get('/api/v1/clips?pageSize=2500&includeDeleted=true', { 'x-organization-id': ORG_PODCASTS })).body as { Items: unknown[] };
    // Clips go to the 12 programs by weight: 20 of every 26 to Castaway Demo Radio's nine programs
    // (76 rounds × 20 + 18 of the last, unfinished round).
    expect(demoRadio.Items.length).toBe(1538);
    expect(demoRadio.Items.length + podcasts.Items.length).toBe(2000);
    for (const raw of [...demoRadio.Items, ...podcasts.Items]) {
      const clip = ClipSchema.parse(raw);
      const result = normalizeClip({ ...clip, ...clip.Urls });
      expect(result.ok, `${clip.Id} ${clip.State} ${clip.Visibility}`).toBe(true);
    }
    const recordings = (await demo.get('/api/v1/recordings')).body as { Items: unknown[] };
    const phases = new Set<string>();
    for (const raw of recordings.Items) {
      const rec = RecordingSchema.parse(raw);
      const result = normalizeRecording(rec);
      expect(result.ok, rec.Title ?? rec.Id).toBe(true);
      if (result.ok) phases.add(result.value.Phase);
    }
    expect([...phases].sort()).toEqual(['finalized', 'finalizedZeroDuration', 'live', 'processing']);
  });

  it('has the seven users of the README, each able to log in with castaway-demo (newbie unactivated)', async () => {
    const app = createApp({ store: t.store, bus: createMemoryBus() });
    const expected: Record<string, string> = {
      'demo@example.com': 'activated',
      'producer@example.com': 'activated',
      'analyst@example.com': 'activated',
      'admin@example.com': 'activated',
      'support@example.com': 'activated',
      'reseller@example.com': 'activated',
      'newbie@example.com': 'unactivated',
    };
    for (const [email, type] of Object.entries(expected)) {
      const client = new AppClient(app);
      await client.login(email);
      const session = (await client.get('/api/internal/session')).body as { Type: string; User: Record<string, unknown> };
      expect(session.Type, email).toBe(type);
      if (email === 'admin@example.com') expect(session.User.IsAdmin).toBe(true);
      if (email === 'support@example.com') expect(session.User).toMatchObject({ IsAdmin: false, IsAdminOrSupport: true });
      if (email === 'reseller@example.com') expect(session.User.HasResellerAccess).toBe(true);
    }
  });

  it('is deterministic (ids from names, the same rows every run) and seeds only an empty store', async () => {
    expect(await seedIfEmpty(t.store)).toBeNull();
    const rows = await t.store.query<{ id: string; title: string | null }>(`SELECT id, title FROM clips ORDER BY created_at_utc LIMIT 30`);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => seedId(`clip:${i}`)));
    const again = seedClip(5, PROGRAMS[5]!, 0, () => 0.5);
    expect(seedClip(5, PROGRAMS[5]!, 0, () => 0.5)).toEqual(again);
    expect(rows[5]!.title).toBe(again.fields.Title);
  });
});
