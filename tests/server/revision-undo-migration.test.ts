// Migration 0102 on a store as the release before it left it: revisions were whole copies of the
// row, and a sync client's own writes were found through sync_mutations. After the upgrade the
// kept revisions rebuild to exactly those copies, and the client's writes are still its own.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../sync-server/store/migrate.ts';
import { loadClips } from '../../sync-server/sync/batch.ts';
import { revisionRows } from '../../sync-server/sync/revisions.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe.each(storeKinds)('migration 0102: revisions as undo steps (%s)', (kind) => {
  let t: TestStore | null = null;
  afterEach(async () => {
    await t?.drop();
    t = null;
  });

  it('rebuilds every kept copy exactly and keeps each sync client’s writes its own', async () => {
    t = await openTestStore(kind, { migratedBefore: '0102' });
    const { store } = t;

    const org = randomUUID();
    const clip = randomUUID();
    const program = randomUUID();
    const anna = randomUUID();
    const ben = randomUUID();
    const bensPhone = randomUUID();
    const base = {
      Id: clip,
      OrganizationId: org,
      CreatedAtUtc: '2026-01-01T10:00:00.000Z',
      CreatedById: anna,
      Deleted: false,
      ProgramId: program,
      Slug: null,
      State: 'Ready',
      PublishState: 'Unpublished',
      Visibility: 'Private',
      Description: 'First cut',
      Tags: ['news'],
      Season: 1,
      Urls: { EmbedUrl: null, ShowPageUrl: null },
      PlaylistIds: [],
    };
    // The oldest kept copy is an edit (older ones were pruned), then Anna's title, then Ben's phone.
    const copies = [
      { ...base, Title: 'Draft', ModifiedAtUtc: '2026-01-02T10:00:00.000Z', ModifiedById: anna, Version: 11 },
      { ...base, Title: 'Monday news', ModifiedAtUtc: '2026-01-03T10:00:00.000Z', ModifiedById: anna, Version: 12 },
      { ...base, Title: 'Monday news', Tags: ['news', 'local'], Description: 'Final cut', ModifiedAtUtc: '2026-01-04T10:00:00.000Z', ModifiedById: ben, Version: 13 },
    ];
    const now = copies[2]!;
    await store.query(
      `INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'FM', 'Podcaster', now(), now(), 1)`,
      [org],
    );
    await store.query(
      `INSERT INTO clips (id, organization_id, program_id, title, slug, state, publish_state, visibility, data, created_at_utc, created_by_id, modified_at_utc, modified_by_id, deleted, version)
       VALUES ($1, $2, $3, $4, NULL, 'Ready', 'Unpublished', 'Private', $5, $6, $7, $8, $9, false, $10)`,
      [clip, org, program, now.Title, JSON.stringify({ Description: now.Description, Tags: now.Tags, Season: 1, Urls: now.Urls }), base.CreatedAtUtc, anna, now.ModifiedAtUtc, ben, now.Version],
    );
    for (const c of copies) {
      await store.query(`INSERT INTO row_revisions (entity, id, version, modified_at_utc, row) VALUES ('clip', $1, $2, $3, $4)`, [clip, c.Version, c.ModifiedAtUtc, JSON.stringify(c)]);
    }
    // Ben's phone pushed the last write (its mutation named the row in capitals, as a client may).
    await store.query(
      `INSERT INTO sync_mutations (id, client_id, user_id, entity, entity_id, result, written_modified_at_utc, processed_at_utc) VALUES ($1, $2, $3, 'clips', $4, '{}', $5, now())`,
      [randomUUID(), bensPhone, ben, clip.toUpperCase(), now.ModifiedAtUtc],
    );

    await migrate(store);

    const [current] = await loadClips(store, org, [clip], false);
    const rebuilt = await revisionRows(store, 'clip', current!);
    expect(rebuilt.map((r) => r.row)).toEqual(copies);
    expect(rebuilt.map((r) => r.clientId)).toEqual([null, null, bensPhone]);
    const undo = await store.query<{ version: number | string; undo: unknown }>(`SELECT version, undo FROM row_revisions WHERE id = $1 ORDER BY version`, [clip]);
    expect(undo.map((u) => u.undo)).toEqual([null, { Title: 'Draft' }, { Tags: ['news'], Description: 'First cut' }]);
  });
});
