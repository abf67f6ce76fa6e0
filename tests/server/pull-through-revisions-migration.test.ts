// Migration 0103 on a store as 0102 left it: the pull now finds changed rows through their
// revisions (by organization and Version) instead of a Version index on each table. After the
// upgrade every row is still pulled, a row whose current Version had no revision (written by
// hand, or by an older release) among them; the clips keep no Version index, so a title edit
// need not touch their indexes (HOT).
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../sync-server/store/migrate.ts';
import { updateRow } from '../../sync-server/rows.ts';
import { pull } from '../../sync-server/sync/pull.ts';
import { loadClips } from '../../sync-server/sync/batch.ts';
import { allPermissions } from '../../src/domain/permissions.ts';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe.each(storeKinds)('migration 0103: the pull through revisions (%s)', (kind) => {
  let t: TestStore | null = null;
  afterEach(async () => {
    await t?.drop();
    t = null;
  });

  it('pulls every row after the upgrade (one without a revision at its Version too), keeps no Version index on clips, and pulls an edit after', async () => {
    t = await openTestStore(kind, { migratedBefore: '0103' });
    const { store } = t;

    const organizationId = randomUUID();
    const programId = randomUUID();
    const written = randomUUID();
    const byHand = randomUUID();
    const userId = randomUUID();
    const ctx = { organizationId, userId, now: new Date('2026-03-01T09:00:00.000Z') };
    // Rows and revisions as the release before 0103 wrote them (a revision knew no organization).
    const rows: Array<[string, string, string]> = [
      ['organizations', 'organization', organizationId],
      ['programs', 'program', programId],
      ['clips', 'clip', written],
    ];
    await store.tx(async (q) => {
      await q.query(
        `INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'Castaway FM', 'Podcaster', now(), now(), nextval('row_version'))`,
        [organizationId],
      );
      await q.query(`INSERT INTO programs (id, organization_id, name, created_at_utc, modified_at_utc, version) VALUES ($1, $2, 'Morning Show', now(), now(), nextval('row_version'))`, [
        programId,
        organizationId,
      ]);
      for (const [id, title] of [[written, 'Written by the API'], [byHand, 'Inserted by hand']] as const) {
        await q.query(
          `INSERT INTO clips (id, organization_id, program_id, title, state, publish_state, visibility, data, created_at_utc, modified_at_utc, version)
           VALUES ($1, $2, $3, $4, 'Ready', 'Unpublished', 'Private', $5, now(), now(), nextval('row_version'))`,
          [id, organizationId, programId, title, JSON.stringify({ ...clipDefaults(), ProgramId: undefined, Title: undefined, State: undefined, PublishState: undefined, Visibility: undefined })],
        );
      }
      // Every row but the one inserted by hand has its revision.
      for (const [table, entity, id] of rows) {
        await q.query(
          `INSERT INTO row_revisions (entity, id, version, modified_at_utc, modified_by_id) SELECT $1, id, version, modified_at_utc, $3 FROM ${table} WHERE id = $2`,
          [entity, id, userId],
        );
      }
    });

    await migrate(store);

    const page = await pull(store, {
      organizationId,
      userId,
      permissions: [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: allPermissions() }],
      cursor: undefined,
      limit: 100,
    });
    expect(page.rows.map((r) => `${r.entity}:${r.row['Id'] as string}`).sort()).toEqual(
      [`organizations:${organizationId}`, `programs:${programId}`, `clips:${written}`, `clips:${byHand}`].sort(),
    );
    const revisions = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM row_revisions WHERE organization_id = $1`, [organizationId]);
    expect(revisions[0]!.n).toBe(4);

    // The clip tables keep no Version index: an edit that changes no indexed column can stay on its
    // page (HOT). (Edits of searched text change the search vector, which search indexes: 0480.)
    const indexes = await store.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'clips' ORDER BY indexname`);
    expect(indexes.map((i) => i.indexname)).toEqual(expect.arrayContaining(['clips_pkey', 'clips_program', 'clips_slug']));
    expect(indexes.filter((i) => /\bversion\b/.test(i.indexdef)).map((i) => i.indexname)).toEqual([]);
    const [clip] = await loadClips(store, organizationId, [written], false);
    const after = await store.tx((q) => updateRow(q, 'clip', clip!, ctx, { ...clip!, Title: 'Edited' }));
    const next = await pull(store, {
      organizationId,
      userId,
      permissions: [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: allPermissions() }],
      cursor: page.cursor,
      limit: 100,
    });
    expect(next.rows.map((r) => r.row)).toEqual([{ ...after, PlaylistIds: [] }]);
  }, 120_000);
});
