// Issue 31: until its e-mail address is confirmed an account is 'unactivated' (section 4), and it
// reads but does not write. The demo's newbie@example.com has content access at Organization scope
// in the demo organization, so every refusal here is the activation's, not a missing flag's: the
// same calls by demo@example.com (activated, the same flags and more) go through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { readExplained403 } from '../../src/protocol/api/plans.ts';
import { UPLOADS_PATH } from '../../src/protocol/uploads.ts';
import { AppClient, seededApp, type Reply } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const NOT_ACTIVATED = { Field: 'account', Code: 'accountNotActivated', MessageKey: 'domain_account_not_activated' };

const refusedAsUnactivated = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(403);
  expect((reply.body as { Errors: unknown[] }).Errors).toEqual([expect.objectContaining({ ...NOT_ACTIVATED, Message: expect.stringContaining('Confirm your e-mail address') })]);
};

describe.each(storeKinds)('an unactivated account on %s', (kind) => {
  let t: TestStore;
  let newbie: AppClient;
  let demo: AppClient;
  let clipId: string;
  let programId: string;
  beforeAll(async () => {
    t = await openTestStore(kind);
    const { app } = await seededApp(t.store);
    newbie = new AppClient(app);
    await newbie.login('newbie@example.com');
    newbie.organizationId = ORG_DEMO;
    demo = new AppClient(app);
    await demo.login('demo@example.com');
    demo.organizationId = ORG_DEMO;
    programId = seedId('program:morning');
    const [clip] = await t.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [programId]);
    clipId = clip!.id;
  });
  afterAll(() => t.drop());

  it('reads what its flags allow', async () => {
    expect((await newbie.get('/api/internal/session')).body).toMatchObject({ Type: 'unactivated' });
    expect((await newbie.get(`/api/v1/clips/${clipId}`)).status).toBe(200);
    expect((await newbie.get(`/api/v1/programs/${programId}/clips`)).status).toBe(200);
    expect((await newbie.get('/api/sync/pull')).status).toBe(200);
  });

  it('is refused every write with a body that says why, and nothing changes', async () => {
    const before = (await newbie.get(`/api/v1/clips/${clipId}`)).body as { Title: string; Version: number };
    refusedAsUnactivated(await newbie.patch(`/api/v1/clips/${clipId}`, { Title: 'Changed by someone unconfirmed' }));
    refusedAsUnactivated(await newbie.post(`/api/v1/programs/${programId}/clips`, { Title: 'New' }));
    refusedAsUnactivated(await newbie.delete(`/api/v1/clips/${clipId}`));
    refusedAsUnactivated(await newbie.post(`/api/v1/clips/${clipId}/publish`, {}));
    // The sync push, whole: the device keeps the edit and shows the server's reason (needs attention).
    refusedAsUnactivated(
      await newbie.push([{ name: 'updateClip', args: { id: clipId, patch: { Title: 'Offline edit' } }, createdAt: 1 }]),
    );
    const after = (await newbie.get(`/api/v1/clips/${clipId}`)).body as { Title: string; Version: number };
    expect(after).toMatchObject({ Title: before.Title, Version: before.Version });
  });

  // The clip screen's upload (tus): the device's queue reads the explained 403 as a refusal to
  // show at the file, not as a stale XSRF token to try again with for ever; a 403 without a body
  // (the XSRF token itself wrong) is still the one tried again.
  it('is refused an upload with the reason, which the device reads as a refusal and not a stale token', async () => {
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const tus = { 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': `filename ${b64('speech-12s.mp3')},clipId ${b64(clipId)}` };
    const begun = await newbie.send('POST', UPLOADS_PATH, { headers: tus });
    expect(begun.status, begun.text).toBe(403);
    expect(readExplained403(begun.status, begun.text)).toEqual({ error: expect.objectContaining(NOT_ACTIVATED), plan: null });
    const staleToken = await demo.send('POST', UPLOADS_PATH, { headers: { ...tus, 'x-xsrf-token': 'not-the-session-token' } });
    expect(staleToken.status).toBe(403);
    expect(readExplained403(staleToken.status, staleToken.text)).toBeNull();
  });

  it('may still ask support for help and sign out', async () => {
    const enquiry = await newbie.post('/api/internal/custom-support', { ContactName: 'Nico Newbie', ContactEmail: 'newbie@example.com', ContactEnquiry: 'My confirmation e-mail never came.' });
    expect(enquiry.status, enquiry.text).toBeLessThan(300);
    // Its API reference says which writes need an activated account.
    const doc = (await newbie.get('/api/openapi.json')).body as { paths: Record<string, Record<string, { 'x-access'?: string }>> };
    expect(doc.paths['/api/v1/clips/{clipId}']!.patch!['x-access']).toMatch(/an activated account$/);
    expect(doc.paths['/api/v1/clips/{clipId}']!.get!['x-access']).not.toMatch(/activated/);
    expect(doc.paths['/api/internal/custom-support']!.post!['x-access']).not.toMatch(/activated/);
  });

  it('the same writes by an activated account with the same flags go through', async () => {
    const edit = await demo.patch(`/api/v1/clips/${clipId}`, { Title: 'Changed by the owner' });
    expect(edit.status, edit.text).toBe(200);
  });
});
