// Recording agents (issue 34), on PGlite and on PostgreSQL: made with a token shown once, listed
// with and without their programs, renamed, moved to other programs, token renewed, deleted; each
// refusal a 400 naming its field (Name, ProgramIds, ProgramIds.<i>); another organization's agent
// and a deleted one 404; the token is never listed and only its hash is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import type { RecordingAgent, RecordingAgentWithToken } from '../../src/protocol/api/recording-agents.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type ErrorBody = { Errors: Array<{ Field: string; Code: string; Message: string }> };
const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
const DEEPDIVE = seedId('program:deepdive');

describe.each(storeKinds)('recording agents on %s', (kind) => {
  let test: TestStore;
  let api: AppClient;

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 12 });
    const app = createApp({ store: test.store, bus: createMemoryBus() });
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const fields = (body: unknown) => (body as ErrorBody).Errors.map((e) => e.Field).sort();

  it('makes an agent whose token is answered once and stored only as its hash', async () => {
    const made = await api.post('/api/v1/recording-agents', { Name: '  Studio 2 encoder ', ProgramIds: [MORNING.toUpperCase()] });
    expect(made.status, made.text).toBe(201);
    const agent = made.body as RecordingAgentWithToken;
    expect(agent.Name).toBe('Studio 2 encoder');
    expect(agent.ProgramIds).toEqual([MORNING]);
    expect(agent.Token).toMatch(/^crt_.{43}$/);
    expect(agent.LastSeenAtUtc).toBeNull();
    const stored = await test.store.query<{ token_hash: string }>(`SELECT token_hash FROM recording_agents WHERE id = $1`, [agent.Id]);
    expect(stored[0]!.token_hash).not.toContain(agent.Token);
    expect(stored[0]!.token_hash).toHaveLength(64);

    const listed = await api.get('/api/v1/recording-agents');
    const row = (listed.body as RecordingAgent[]).find((a) => a.Id === agent.Id)!;
    expect(row).not.toHaveProperty('Token');
    expect(row).not.toHaveProperty('ProgramIds');
    const withPrograms = await api.get('/api/v1/recording-agents?includeProgramIds=true');
    expect((withPrograms.body as RecordingAgent[]).find((a) => a.Id === agent.Id)!.ProgramIds).toEqual([MORNING]);
    expect(listed.text).not.toContain(agent.Token);
  });

  it('refuses a bad agent at the field it names', async () => {
    const empty = await api.post('/api/v1/recording-agents', { Name: ' ', ProgramIds: [] });
    expect(empty.status).toBe(400);
    expect(fields(empty.body)).toEqual(['Name', 'ProgramIds']);
    const bad = await api.post('/api/v1/recording-agents', { Name: 'x'.repeat(101), ProgramIds: [MORNING, 'not-an-id', MORNING] });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['Name', 'ProgramIds.1', 'ProgramIds.2']);
    // A program of another organization reads as one that does not exist.
    const foreign = await api.post('/api/v1/recording-agents', { Name: 'Thief', ProgramIds: [WORLD, DEEPDIVE] });
    expect(foreign.status).toBe(400);
    expect(fields(foreign.body)).toEqual(['ProgramIds.1']);
    expect((foreign.body as ErrorBody).Errors[0]!.Message).toBe('No program of this organization has this id');
    const missing = await api.post('/api/v1/recording-agents', { ProgramIds: [WORLD] });
    expect(fields(missing.body)).toEqual(['Name']);
    const extra = await api.post('/api/v1/recording-agents', { Name: 'A', ProgramIds: [WORLD], Token: 'mine' });
    expect(extra.status).toBe(400);
    expect((await test.store.query(`SELECT 1 FROM recording_agents WHERE name = 'Thief'`)).length).toBe(0);
  });

  it('renames, moves and renews; deleted, its agent is gone', async () => {
    const agent = (await api.post('/api/v1/recording-agents', { Name: 'Van', ProgramIds: [MORNING] })).body as RecordingAgentWithToken;
    const renamed = await api.patch(`/api/v1/recording-agents/${agent.Id}`, { Name: 'Outside broadcast van', ProgramIds: [WORLD, MORNING] });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ Name: 'Outside broadcast van', ProgramIds: [MORNING, WORLD].sort() });
    expect(renamed.body).not.toHaveProperty('Token');
    expect(Date.parse((renamed.body as RecordingAgent).ModifiedAtUtc)).toBeGreaterThan(Date.parse(agent.ModifiedAtUtc));
    const refused = await api.patch(`/api/v1/recording-agents/${agent.Id}`, { ProgramIds: [DEEPDIVE] });
    expect(fields(refused.body)).toEqual(['ProgramIds.0']);
    const renewed = await api.patch(`/api/v1/recording-agents/${agent.Id}`, { RenewToken: true });
    const token = (renewed.body as RecordingAgentWithToken).Token;
    expect(token).toMatch(/^crt_/);
    expect(token).not.toBe(agent.Token);
    expect((await api.delete(`/api/v1/recording-agents/${agent.Id}`)).status).toBe(204);
    for (const reply of [await api.delete(`/api/v1/recording-agents/${agent.Id}`), await api.patch(`/api/v1/recording-agents/${agent.Id}`, { Name: 'Back' })]) {
      expect(reply.status).toBe(404);
      expect(reply.text).toBe('');
    }
    expect(((await api.get('/api/v1/recording-agents')).body as RecordingAgent[]).map((a) => a.Id)).not.toContain(agent.Id);
  });

  it('another organization’s agent is not found, and its list is its own', async () => {
    api.organizationId = ORG_PODCASTS;
    const theirs = (await api.post('/api/v1/recording-agents', { Name: 'Podcasts desk', ProgramIds: [DEEPDIVE] })).body as RecordingAgent;
    api.organizationId = ORG_DEMO;
    const patched = await api.patch(`/api/v1/recording-agents/${theirs.Id}`, { Name: 'Taken' });
    expect(patched.status).toBe(404);
    expect(patched.text).toBe('');
    expect(((await api.get('/api/v1/recording-agents')).body as RecordingAgent[]).map((a) => a.Id)).not.toContain(theirs.Id);
  });
});
