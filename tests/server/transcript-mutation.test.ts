// clip.setTranscript through the sync push, as a device sends an edit made offline: written when
// the transcript is still the one it was edited from, refused at Cues (409, nothing written) when it
// changed meanwhile, a bad cue refused at its cue, and a clip the caller may not change is not found.
// On PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../src/protocol/api/transcripts.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { AppClient, demoApp, type DemoApp, type PushOutcome } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';
import { CHANGED_ELSEWHERE, cue } from './transcript-edits.ts';

describe.each(storeKinds)('clip.setTranscript on %s', (kind) => {
  let test: TestStore;
  let app: DemoApp['app'];
  let api: AppClient;
  let clipId = '';
  let worldClip = '';

  beforeAll(async () => {
    ({ test, app, api } = await demoApp(kind, { clips: 6 }));
    const first = async (program: string) => (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [seedId(program)]))[0]!.id;
    clipId = await first('program:morning');
    worldClip = await first('program:world');
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const push = (client: AppClient, args: unknown): Promise<PushOutcome> => client.pushOne('clip.setTranscript', args);
  const held = async () => {
    const reply = await api.get(`/api/internal/clips/${clipId}/transcript`);
    return reply.status === 200 ? (reply.body as Transcript) : null;
  };

  it('writes a first transcript edited from none, and keeps the clip in step', async () => {
    expect(await push(api, { clipId, Cues: [cue('Good morning.', 0, 'Ana')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'applied' });
    expect((await held())?.Cues).toEqual([cue('Good morning.', 0, 'Ana')]);
    expect(((await api.get(`/api/v1/clips/${clipId}`)).body as { TranscriptStatus: string }).TranscriptStatus).toBe('Completed');
  });

  it('writes an edit made on the transcript as it is; refuses one made on an earlier one at Cues, writing nothing', async () => {
    const base = (await held())!.ModifiedAtUtc;
    expect(await push(api, { clipId, Cues: [cue('Good morning, harbour.', 0, 'Ana')], BaseModifiedAtUtc: base })).toMatchObject({ status: 'applied' });
    const stale = await push(api, { clipId, Cues: [cue('Hello.', 0, 'Ana')], BaseModifiedAtUtc: base });
    expect(stale).toMatchObject({ status: 'rejected', httpStatus: 409 });
    expect(stale.errors!.map((e) => [e.Field, e.Message])).toEqual([['Cues', CHANGED_ELSEWHERE]]);
    expect((await held())?.Cues[0]!.Text).toBe('Good morning, harbour.');
    // Edited from none while one exists: the same refusal.
    expect(await push(api, { clipId, Cues: [cue('Hello.')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'rejected', httpStatus: 409 });
  });

  it('refuses a cue the rules refuse at that cue, and an empty list, writing nothing', async () => {
    const base = (await held())!.ModifiedAtUtc;
    const reversed = await push(api, { clipId, Cues: [cue('One.'), { StartSeconds: 9, EndSeconds: 3, Text: 'Two.', Speaker: null }], BaseModifiedAtUtc: base });
    expect(reversed).toMatchObject({ status: 'rejected', httpStatus: 400 });
    expect(reversed.errors!.map((e) => e.Field)).toEqual(['Cues.1']);
    expect((await push(api, { clipId, Cues: [], BaseModifiedAtUtc: base })).errors!.map((e) => e.Field)).toEqual(['Cues']);
    expect((await held())!.ModifiedAtUtc).toBe(base);
  });

  it('a clip of a program the caller has no content access to is not found; a clip of another organization too', async () => {
    // A clip of the other demo organization (the seed makes none at this size: one is made for it).
    const other = (await test.store.query<{ organization_id: string; id: string }>(`SELECT organization_id, id FROM programs WHERE organization_id <> $1 ORDER BY id LIMIT 1`, [ORG_DEMO]))[0]!;
    const stranger = randomUUID();
    await test.store.query(
      `INSERT INTO clips SELECT (jsonb_populate_record(null::clips, to_jsonb(c) || jsonb_build_object('id', $1::uuid, 'organization_id', $2::uuid, 'program_id', $3::uuid, 'slug', null, 'version', next_row_version()))).* FROM clips c WHERE c.id = $4`,
      [stranger, other.organization_id, other.id, clipId],
    );
    const producer = await AppClient.signedIn(app, 'producer@example.com');
    expect(await push(producer, { clipId: worldClip, Cues: [cue('Mine.')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'rejected', httpStatus: 404 });
    expect(await push(api, { clipId: stranger, Cues: [cue('Mine.')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'rejected', httpStatus: 404 });
    expect((await api.get(`/api/internal/clips/${worldClip}/transcript`)).status).toBe(404);
  });
});
