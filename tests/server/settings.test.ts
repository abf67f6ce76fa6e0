// Settings (issue 33), on PGlite and on PostgreSQL: named settings at every level (PUT, GET,
// DELETE /internal/…/settings/{name}: the name's rule and the value's size at their fields, If-Match
// on the setting's ModifiedAtUtc, levels and organizations kept apart), and normalization with
// visible inheritance: set at the organization, inherited by a program, overridden, reset; the
// same change queued offline (a sync push of program.setNormalization on an old base) merged, and
// a conflicting one answered as a conflict on Normalization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { SETTING_VALUE_MAX_BYTES } from '../../src/domain/settings.ts';
import type { NamedSetting, ProgramNormalization } from '../../src/protocol/api/settings.ts';
import { AppClient, demoApp, fields, type DemoApp } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
const NEWS = seedId('network:news');

describe.each(storeKinds)('settings on %s', (kind) => {
  let test: TestStore;
  let app: DemoApp['app'];
  let api: AppClient;
  let clipId = '';
  let playlistId = '';

  beforeAll(async () => {
    ({ test, app, api } = await demoApp(kind, { clips: 24 }));
    clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
    playlistId = (await test.store.query<{ id: string }>(`SELECT id FROM playlists WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const put = (path: string, json: unknown, headers?: Record<string, string>) => api.send('PUT', path, { json, ...(headers ? { headers } : {}) });
  const levels = () => [
    ['organization', '/api/internal/settings'],
    ['network', `/api/internal/networks/${NEWS}/settings`],
    ['program', `/api/internal/programs/${MORNING}/settings`],
    ['playlist', `/api/internal/playlists/${playlistId}/settings`],
    ['clip', `/api/internal/clips/${clipId}/settings`],
  ] as const;

  it('sets, reads and deletes a named setting at every level, each level its own', async () => {
    for (const [level, base] of levels()) {
      const value = { level, colours: ['#112233'], volume: 0.8, nested: { on: true } };
      const saved = await put(`${base}/player-theme`, { Value: value });
      expect(saved.status, `${level}: ${saved.text}`).toBe(200);
      expect(saved.body).toMatchObject({ Name: 'player-theme', Value: value });
      expect(saved.headers.get('etag')).toBe(`"${(saved.body as NamedSetting).ModifiedAtUtc}"`);
      const read = await api.get(`${base}/player-theme`);
      expect(read.status).toBe(200);
      expect((read.body as NamedSetting).Value).toEqual(value);
    }
    // The same name at each level is a setting of its own.
    for (const [level, base] of levels()) expect(((await api.get(`${base}/player-theme`)).body as NamedSetting).Value).toMatchObject({ level });
    // Any JSON value: a string, a number, null, an array.
    for (const value of ['text', 42, null, [1, 'two'], false]) {
      const reply = await put('/api/internal/settings/any-json', { Value: value });
      expect(reply.status, reply.text).toBe(200);
      expect(((await api.get('/api/internal/settings/any-json')).body as NamedSetting).Value).toEqual(value);
    }
    for (const [, base] of levels()) {
      const gone = await api.delete(`${base}/player-theme`);
      expect(gone.status).toBe(200);
      expect((gone.body as NamedSetting).Name).toBe('player-theme');
      const after = await api.get(`${base}/player-theme`);
      expect(after.status).toBe(404);
      expect(after.text).toBe('');
      expect((await api.delete(`${base}/player-theme`)).status).toBe(404);
    }
  });

  it('refuses a bad name at name and a value too large at Value (400), writing nothing', async () => {
    for (const bad of ['Player', '1st', 'two--dashes', 'trailing-', 'space%20d', 'x'.repeat(65), 'é']) {
      const reply = await put(`/api/internal/programs/${MORNING}/settings/${bad}`, { Value: 1 });
      expect(reply.status, bad).toBe(400);
      expect(fields(reply), bad).toEqual([['name', expect.any(String)]]);
      expect((await api.get(`/api/internal/programs/${MORNING}/settings/${bad}`)).status, bad).toBe(400);
    }
    const big = 'x'.repeat(SETTING_VALUE_MAX_BYTES);
    const tooLarge = await put('/api/internal/settings/too-large', { Value: big });
    expect(tooLarge.status).toBe(400);
    expect(fields(tooLarge)).toEqual([['Value', 'tooLong']]);
    expect((await api.get('/api/internal/settings/too-large')).status).toBe(404);
    // Just under the limit is taken (the quotes count).
    expect((await put('/api/internal/settings/just-fits', { Value: big.slice(2) })).status).toBe(200);
    const missing = await put('/api/internal/settings/no-value', {});
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual([['Value', 'required']]);
    const extra = await put('/api/internal/settings/extra', { Value: 1, Other: 2 });
    expect(extra.status).toBe(400);
  });

  it('takes If-Match on the setting’s ModifiedAtUtc: a stale one is a 412 with the setting', async () => {
    const first = (await put('/api/internal/settings/with-base', { Value: 'one' })).body as NamedSetting;
    const second = await put('/api/internal/settings/with-base', { Value: 'two' }, { 'if-match': `"${first.ModifiedAtUtc}"` });
    expect(second.status, second.text).toBe(200);
    const secondAt = (second.body as NamedSetting).ModifiedAtUtc;
    expect(Date.parse(secondAt)).toBeGreaterThan(Date.parse(first.ModifiedAtUtc));
    const stale = await put('/api/internal/settings/with-base', { Value: 'three' }, { 'if-match': `"${first.ModifiedAtUtc}"` });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ Value: 'two', ModifiedAtUtc: secondAt });
    expect(((await api.get('/api/internal/settings/with-base')).body as NamedSetting).Value).toBe('two');
    // A base for a setting that does not exist is stale too.
    expect((await put('/api/internal/settings/never-set', { Value: 1 }, { 'if-match': `"${first.ModifiedAtUtc}"` })).status).toBe(412);
  });

  it('keeps organizations apart: another organization’s settings are not found, and its own are its own', async () => {
    expect((await put('/api/internal/settings/station-id', { Value: 'demo' })).status).toBe(200);
    const podcasts = new AppClient(app);
    await podcasts.login('demo@example.com');
    podcasts.organizationId = ORG_PODCASTS;
    expect((await podcasts.get('/api/internal/settings/station-id')).status).toBe(404);
    expect((await podcasts.send('PUT', '/api/internal/settings/station-id', { json: { Value: 'podcasts' } })).status).toBe(200);
    expect(((await api.get('/api/internal/settings/station-id')).body as NamedSetting).Value).toBe('demo');
    // The demo organization's program, network, playlist and clip, asked from Castaway Podcasts: 404, no body.
    for (const [, base] of levels().slice(1)) {
      for (const reply of [await podcasts.get(`${base}/player-theme`), await podcasts.send('PUT', `${base}/player-theme`, { json: { Value: 1 } }), await podcasts.delete(`${base}/player-theme`)]) {
        expect(reply.status, base).toBe(404);
        expect(reply.text).toBe('');
      }
    }
  });

  it('every settings route is in the OpenAPI document', async () => {
    const doc = (await api.get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    for (const path of ['/api/internal/settings/{name}', '/api/internal/networks/{networkId}/settings/{name}', '/api/internal/programs/{programId}/settings/{name}', '/api/internal/playlists/{playlistId}/settings/{name}', '/api/internal/clips/{clipId}/settings/{name}']) {
      expect(methods(path), path).toEqual(['delete', 'get', 'put']);
    }
    expect(methods('/api/v1/settings/normalization')).toEqual(['get', 'patch']);
    expect(methods('/api/v1/programs/{programId}/settings/normalization')).toEqual(['delete', 'get', 'patch']);
  });

  // ── Normalization ───────────────────────────────────────────────────────────────────────────
  const programPath = `/api/v1/programs/${MORNING}/settings/normalization`;
  const programNormalization = async () => {
    const reply = await api.get(programPath);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as ProgramNormalization;
  };

  it('normalization: off until chosen; set at the organization, inherited, overridden, reset to inherited', async () => {
    expect((await api.get('/api/v1/settings/normalization')).body).toEqual({ PresetId: null });
    expect(await programNormalization()).toEqual({ PresetId: null, Source: 'Organization', OrganizationPresetId: null });

    const set = await api.patch('/api/v1/settings/normalization', { PresetId: 'podcast' });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ PresetId: 'podcast' });
    expect((await api.get('/api/v1/settings/normalization')).body).toEqual({ PresetId: 'podcast' });
    expect(await programNormalization()).toEqual({ PresetId: 'podcast', Source: 'Organization', OrganizationPresetId: 'podcast' });

    const own = await api.patch(programPath, { PresetId: 'broadcast-ebu-r128' });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toEqual({ PresetId: 'broadcast-ebu-r128', Source: 'Program', OrganizationPresetId: 'podcast' });
    // Off is a choice of its own, not inheritance.
    expect((await api.patch(programPath, { PresetId: null })).body).toEqual({ PresetId: null, Source: 'Program', OrganizationPresetId: 'podcast' });
    // Another program still inherits, and follows the organization's change.
    await api.patch('/api/v1/settings/normalization', { PresetId: 'streaming' });
    const world = await api.get(`/api/v1/programs/${WORLD}/settings/normalization`);
    expect(world.body).toEqual({ PresetId: 'streaming', Source: 'Organization', OrganizationPresetId: 'streaming' });

    const reset = await api.delete(programPath);
    expect(reset.status).toBe(204);
    expect(reset.text).toBe('');
    expect(await programNormalization()).toEqual({ PresetId: 'streaming', Source: 'Organization', OrganizationPresetId: 'streaming' });
    // The choice is on the program's row (synced), as the pull and GET /v1/programs/{id} show it.
    const program = await api.get(`/api/v1/programs/${MORNING}`);
    expect((program.body as { Normalization?: unknown }).Normalization ?? null).toBeNull();
  });

  it('normalization: a preset not in the reference list is a 400 at PresetId; a stale If-Match a 412', async () => {
    for (const path of ['/api/v1/settings/normalization', programPath]) {
      const unknown = await api.patch(path, { PresetId: 'very-loud' });
      expect(unknown.status, path).toBe(400);
      expect(fields(unknown)).toEqual([['PresetId', 'invalid']]);
      const missing = await api.patch(path, {});
      expect(missing.status, path).toBe(400);
      expect(fields(missing).map(([f]) => f)).toEqual(['PresetId']);
    }
    const before = await api.get(programPath);
    const etag = before.headers.get('etag')!;
    expect((await api.patch(programPath, { PresetId: 'podcast' }, { 'if-match': etag })).status).toBe(200);
    const stale = await api.patch(programPath, { PresetId: 'streaming' }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect((stale.body as { Id: string }).Id).toBe(MORNING);
    expect((await programNormalization()).PresetId).toBe('podcast');
    expect((await api.delete(programPath)).status).toBe(204);
  });

  it('normalization offline: a queued program.setNormalization on an old base merges; one that crosses another change is a conflict', async () => {
    const base = ((await api.get(`/api/v1/programs/${MORNING}`)).body as { ModifiedAtUtc: string }).ModifiedAtUtc;
    // Meanwhile someone renames the program: a field the offline edit did not touch.
    const name = ((await api.get(`/api/v1/programs/${MORNING}`)).body as { Name: string }).Name;
    expect((await api.patch(`/api/v1/programs/${MORNING}`, { Name: `${name} (renamed)` })).status).toBe(200);
    const merged = await api.pushOne('program.setNormalization', { programId: MORNING, Normalization: { PresetId: 'podcast-mono' } }, base);
    expect(merged.status).toBe('merged');
    expect(await programNormalization()).toMatchObject({ PresetId: 'podcast-mono', Source: 'Program' });

    // Two devices chose differently on the same base: the second is a conflict on Normalization.
    const shared = ((await api.get(`/api/v1/programs/${MORNING}`)).body as { ModifiedAtUtc: string }).ModifiedAtUtc;
    const first = await api.pushOne('program.setNormalization', { programId: MORNING, Normalization: { PresetId: 'streaming' } }, shared);
    expect(first.status).toBe('applied');
    const result = await api.pushOne('program.setNormalization', { programId: MORNING, Normalization: null }, shared);
    expect(result.status).toBe('conflict');
    expect(result.fields).toEqual([expect.objectContaining({ field: 'Normalization', mine: null, theirs: { PresetId: 'streaming' } })]);
    expect((await programNormalization()).PresetId).toBe('streaming');

    // The organization's choice queued offline: applied on its current base.
    const org = await api.pushOne('organization.setNormalization', { organizationId: ORG_DEMO, Normalization: { PresetId: 'film-streaming' } });
    expect(org.status).toBe('applied');
    expect((await api.get('/api/v1/settings/normalization')).body).toEqual({ PresetId: 'film-streaming' });
    // Another organization's row is not one a push can reach.
    const elsewhere = await api.pushOne('organization.setNormalization', { organizationId: ORG_PODCASTS, Normalization: { PresetId: 'podcast' } });
    expect(elsewhere).toMatchObject({ status: 'rejected', httpStatus: 404 });
    expect((await api.delete(programPath)).status).toBe(204);
  });
});
