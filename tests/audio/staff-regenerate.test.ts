// The staff clip tool "regenerate audio" (issue 33; POST /internal/tools/clips/{clipId}/regenerate-audio):
// an admin, not a member of the clip's organization, has a processed clip's published version made
// again from its upload (a new version, the same audio) though it was current; a clip without
// audio is a 409 naming clipId with the domain's words; an unknown or deleted clip a 404; anyone
// but admin and support 403 with no body.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp, type SeededApp } from '../server/app-client.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';
import { fixturePath } from './fixtures.ts';

describe('regenerate a clip’s audio (staff)', () => {
  let t: TestStore;
  let s: SeededApp;
  let owner: AppClient;
  let admin: AppClient;
  let blobDir = '';
  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-regenerate-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
    t = await openTestStore('pglite');
    s = await seededApp(t.store);
    owner = new AppClient(s.app);
    await owner.login('demo@example.com');
    owner.organizationId = ORG_PODCASTS;
    admin = new AppClient(s.app);
    await admin.login('admin@example.com');
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
    await rm(blobDir, { recursive: true, force: true });
    delete process.env.CASTAWAY_BLOB_DIR;
  });

  const tool = (who: AppClient, clipId: string) => who.post(`/api/internal/tools/clips/${clipId}/regenerate-audio`, undefined);

  it('makes a current version again for an admin who is not a member; refuses a clip without audio, an unknown one and other users', async () => {
    const create = await owner.post(`/api/v1/programs/${seedId('program:deepdive')}/clips`, { Title: 'Support case' });
    expect(create.status, create.text).toBe(201);
    const clipId = (create.body as { Id: string }).Id;

    // No audio yet: nothing to make it from.
    const early = await tool(admin, clipId);
    expect(early.status).toBe(409);
    expect(fields(early)).toEqual([['clipId', 'invalid']]);
    expect(early.text).toContain('This clip has no audio to make again');

    const original = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const put = await s.app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, {
      method: 'PUT',
      headers: { cookie: owner.cookie, 'x-xsrf-token': owner.xsrf, 'x-organization-id': ORG_PODCASTS, 'content-type': 'application/octet-stream' },
      body: original as Uint8Array<ArrayBuffer>,
    });
    expect(put.status, await put.text()).toBe(202);
    await s.app.jobs.drain();
    const before = (await owner.get(`/api/v1/clips/${clipId}`)).body as { State: string; Urls: { AudioPrivateUrl: string } };
    expect(before.State).toBe('Ready');

    const regenerated = await tool(admin, clipId);
    expect(regenerated.status, regenerated.text).toBe(204);
    await s.app.jobs.drain();
    const after = (await owner.get(`/api/v1/clips/${clipId}`)).body as { State: string; Urls: { AudioPrivateUrl: string } };
    // A new version (its own URL), the same audio.
    expect(after.State).toBe('Ready');
    expect(after.Urls.AudioPrivateUrl).not.toBe(before.Urls.AudioPrivateUrl);
    const served = await s.app.request(after.Urls.AudioPrivateUrl, { headers: { cookie: owner.cookie, 'x-organization-id': ORG_PODCASTS } });
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(original);

    expect((await tool(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const refused = await tool(owner, clipId);
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('');
  }, 120_000);
});
