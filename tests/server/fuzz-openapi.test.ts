// Malformed requests against every route of the OpenAPI document, more than ten thousand of them:
// NUL characters and halves of surrogate pairs in path, query and body; values of the wrong type in
// every body field; numbers out of range; malformed and empty JSON; bodies over the size limit
// under every content type. The server must never fail (no status of 500 or more), and every 400
// must name the field it is about (sync-server/body.ts, sync-server/api/route.ts).
//
// Calls are made by a user with every flag on rows it may see, so they pass the guards and reach
// the validators: the part under test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { DEMO_PASSWORD, ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { JSON_BODY_LIMIT_BYTES } from '../../src/protocol/errors.ts';
import { openTestStore, type TestStore } from './test-store.ts';
import { insertMember } from '../../sync-server/members/members.ts';
import { createApiKey } from '../../sync-server/auth.ts';
import { currentKey } from '../../sync-server/members/signing.ts';
import { DEMO_ENTERPRISE, DEMO_SALES_CODE } from '../../sync-server/enterprises/demo.ts';
import { exampleBody, fetchDocument, fieldsOf, fillPath, operationsOf, pathParams, type JsonSchema, type OpenApiDocument, type Operation } from './openapi-walk.ts';

type App = ReturnType<typeof createApp>;
type Case = { op: Operation; what: string; path: string; headers: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> };
type Outcome = { status: number; text: string };

/** Calls that end the caller's session or never end: left out. */
const SKIPPED = new Set(['POST /api/internal/session/logout', 'POST /api/logout', 'GET /api/sync/events']);

let test: TestStore;
let app: App;
let doc: OpenApiDocument;
let cookie = '';
let xsrf = '';
const own: Record<string, string> = {};

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 60 });
  // Webhooks may target loopback here: the seeded one below points at a port nothing listens on, so
  // a delivery the walk sets off (a test event, a re-send) is refused on 127.0.0.1 and goes nowhere else.
  app = createApp({ store: test.store, bus: createMemoryBus(), webhooks: { allowLoopback: true } });
  // As served (server.ts): the job runner takes jobs, so /readyz is ready and a 503 there is a fault.
  await app.jobs.start();
  doc = await fetchDocument(app);
  const login = await app.request('/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: 'demo@example.com', Password: DEMO_PASSWORD }) });
  cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))!.split(';')[0]!;
  xsrf = ((await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken;
  const programId = seedId('program:morning');
  const q = test.store;
  const one = async (sql: string) => (await q.query<{ id: string }>(sql, [programId]))[0]!.id;
  Object.assign(own, {
    programId,
    networkId: seedId('network:news'),
    organizationId: ORG_DEMO,
    clipId: await one(`SELECT id FROM clips WHERE program_id = $1 ORDER BY id LIMIT 1`),
    playlistId: await one(`SELECT id FROM playlists WHERE program_id = $1 ORDER BY id LIMIT 1`),
    recordingId: await one(`SELECT id FROM recordings WHERE program_id = $1 ORDER BY id LIMIT 1`),
    annotationId: await one(`SELECT a.id FROM annotations a JOIN recordings r ON r.id = a.recording_id WHERE r.program_id = $1 ORDER BY a.id LIMIT 1`),
    userId: (await q.query<{ id: string }>(`SELECT id FROM users WHERE email = 'producer@example.com'`))[0]!.id,
    file: 'waveform-high.dat',
    memberId: (await insertMember(q, { id: crypto.randomUUID(), organizationId: ORG_DEMO, programId, name: 'Fuzz', email: 'fuzz@example.com', note: null, createdById: null, at: new Date() })).id,
    signingKeyId: (await currentKey(q, ORG_DEMO, programId, new Date())).id,
    // The caller's own API key, so the routes with an {apiKeyId} get past their 404 to their validators.
    apiKeyId: (await createApiKey(q, { organizationId: ORG_DEMO, userId: seedId('user:demo@example.com'), name: 'Fuzz', now: new Date() })).id,
  });
  // The enterprise calls are for admins and resellers: the fuzzing user is made a reseller of the
  // demo's enterprise, so the routes with an {enterpriseId} or a {salesCodeName} get past their guard
  // to their validators ({organizationId} is the demo organization, which that enterprise holds).
  await q.query(`UPDATE users SET has_reseller_access = true WHERE email = 'demo@example.com'`);
  await q.query(`INSERT INTO enterprise_users (enterprise_id, user_id, added_at_utc) VALUES ($1, $2, now())`, [DEMO_ENTERPRISE, seedId('user:demo@example.com')]);
  Object.assign(own, { enterpriseId: DEMO_ENTERPRISE, salesCodeName: DEMO_SALES_CODE });
  // A webhook of the organization and one of the network, with an event in its log, so the routes
  // with a webhookId or webhookEventId get past their 404 to their validators.
  const post = async (path: string, json: unknown, method = 'POST') => {
    const res = await app.request(path, { method, headers: { cookie, 'x-xsrf-token': xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { Id: string };
  };
  // A recording agent, so the routes with a {recordingAgentId} get past their 404 to their validators.
  own.recordingAgentId = (await post('/api/v1/recording-agents', { Name: 'Fuzz encoder', ProgramIds: [programId] })).Id;
  // An invitation, so the routes with an {invitationId} get past their 404 to their validators.
  own.invitationId = (await post('/api/v1/users/invitation', { Email: 'fuzz.invited@example.com', Permissions: [] })).Id;
  const hook = { Url: 'http://127.0.0.1:9/fuzz', EventTypes: ['ClipUpdated'] };
  own.webhookId = (await post('/api/v1/webhooks', hook)).Id;
  await post(`/api/v1/networks/${own.networkId}/webhooks`, hook);
  own.webhookEventId = (await post(`/api/internal/webhooks/${own.webhookId}/test`, {})).Id;
  // A program's intro or outro: the routes with a {type} get past its 400 to their validators.
  own.type = 'intro';
  // A directory of a playlist (src/domain/directories.ts): the routes with a {directory} get past their 404.
  own.directory = 'podcast-index';
  // Billing is for admins (section 6): the fuzzing user is made one, and a metered add-on and this
  // month's invoice are named, so the billing routes get past their guard and 404 to their validators.
  await q.query(`UPDATE users SET is_admin = true, is_admin_or_support = true WHERE email = 'demo@example.com'`);
  Object.assign(own, { addOnType: 'TranscriptionMinutes', invoiceId: new Date().toISOString().slice(0, 7) });
  // A headliner video of the fuzzed clip (its row; no file), so the routes with a {headlinerId} get past the clip's guard.
  own.headlinerId = crypto.randomUUID();
  await q.query(
    `INSERT INTO headliner_videos (id, clip_id, organization_id, aspect_ratio, transcript_enabled, background_color, foreground_color, state, created_at_utc, modified_at_utc)
     VALUES ($1, $2, $3, '1:1', false, '#000000', '#FFFFFF', 'Failed', now(), now())`,
    [own.headlinerId, own.clipId, ORG_DEMO],
  );
  // A named setting at every level, so the routes with a {name} get past their 404 to their validators.
  own.name = 'fuzz-setting';
  for (const base of ['', `/networks/${own.networkId}`, `/programs/${own.programId}`, `/playlists/${own.playlistId}`, `/clips/${own.clipId}`]) {
    await post(`/api/internal${base}/settings/${own.name}`, { Value: { seeded: true } }, 'PUT');
  }
}, 120_000);

afterAll(async () => {
  await app?.jobs.stop();
  await test?.drop();
});

async function send(c: Case): Promise<Outcome> {
  const headers: Record<string, string> = { cookie, 'x-organization-id': ORG_DEMO, ...c.headers };
  if (c.op.method !== 'GET' && c.op.method !== 'HEAD') headers['x-xsrf-token'] = xsrf;
  const res = await app.request(c.path, { method: c.op.method, headers, ...(c.body !== undefined ? { body: c.body } : {}) });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, text: type.includes('json') ? await res.text() : `<${(await res.arrayBuffer()).byteLength} bytes of ${type}>` };
}

// ── The malformed values ─────────────────────────────────────────────────────────────────────
const BAD_PATH = ['%00', 'a%00b', '%ED%A0%80', '%FF', 'not-a-guid', 'x'.repeat(2000), '..%2F..%2Fetc', '%E2%80%AE', '00000000-0000-0000-0000-00000000000'];
const BAD_QUERY = [
  '%00', 'a%00b', '%ED%A0%80', '%ED%B0%80x', '%FF', '%C0%AF', '%', '%2', '-1', '0', '-0', '2147483648', '99999999999999999999999', '1e400', 'NaN', 'Infinity', '1.5', '0x10',
  'x'.repeat(5000), '', ' ', ',,,', '%2C', 'true', '[]', '{}', 'null', 'undefined', '%E2%80%AE', '00000000-0000-0000-0000-000000000000,not-a-guid',
];
/** Values of every kind, to put where a field expects another. */
const WRONG_VALUES: unknown[] = [
  'text', '', '   ', '\t\n', 'a\u0000b', '\u0000', '\ud800', 'x\udfff', 'e\u0301', '\u202eevil', '😀'.repeat(2000), '<script>alert(1)</script>', "'; DROP TABLE clips; --",
  'x'.repeat(256), 'x'.repeat(2049), 'x'.repeat(100_000), 'NaN', 'Infinity', '2147483648',
  -1, 0, -0, 1.5, 2147483647, 2147483648, -2147483649, 9007199254740993, 1e300,
  true, false, null, [], ['x'], [1, null], [{}], {}, { '': 1 }, { nested: { deep: true } },
];
const RAW_BODIES = ['{', '[', 'null', '"x"', '1', 'true', '[]', '{"a":', '\uFEFF{}', '{"Title": "\\ud800"}', '{"a":1e400}', `${'['.repeat(200)}${']'.repeat(200)}`, '{"__proto__": {"x": 1}}', '\u0000'];
const CONTENT_TYPES = ['application/json', 'text/plain', 'application/octet-stream', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', ''];

const isUpload = (op: Operation) => op.body !== null && !('application/json' in op.body);

function query(params: Record<string, string>): string {
  const parts = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${v}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

function casesOf(op: Operation): Case[] {
  const names = pathParams(op);
  const path = fillPath(op.path, own);
  const json = { 'content-type': 'application/json' };
  const valid = exampleBody(doc, op);
  const out: Case[] = [];
  const add = (what: string, c: Partial<Case>) => out.push({ op, what, path, headers: {}, ...c });
  for (const name of names) for (const bad of BAD_PATH) add(`path ${name}=${bad.slice(0, 20)}`, { path: fillPath(op.path, { ...own, [name]: bad }, true) });
  const queryParams = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  for (const name of [...queryParams, 'unknownParameter']) {
    for (const bad of BAD_QUERY) add(`query ${name}=${bad.slice(0, 20)}`, { path: `${path}${query({ [name]: bad })}`, ...(valid !== null ? { headers: json, body: JSON.stringify(valid) } : {}) });
  }
  for (const header of ['if-match', 'x-organization-id', 'content-encoding']) {
    for (const bad of ['"', 'W/"x"', 'garbage', 'x'.repeat(3000), '*']) add(`header ${header}`, { headers: { [header]: bad } });
  }
  if (op.body && !isUpload(op)) {
    const schema = op.body['application/json']!;
    for (const raw of RAW_BODIES) add(`body ${raw.slice(0, 20)}`, { headers: json, body: raw });
    add('an empty body', { headers: json, body: '' });
    add('no body', {});
    const fields = fieldsOf(doc, schema);
    const base = valid !== null && typeof valid === 'object' && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
    for (const field of fields) {
      for (const wrong of WRONG_VALUES) add(`field ${field.name}=${JSON.stringify(wrong)?.slice(0, 20)}`, { headers: json, body: JSON.stringify({ ...base, [field.name]: wrong }) });
      add(`field ${field.name} nested deep`, { headers: json, body: `{"${field.name}": ${'['.repeat(100)}${']'.repeat(100)}}` });
    }
    add('an unknown field', { headers: json, body: JSON.stringify({ ...base, NotAField: 1 }) });
    if (Array.isArray(valid) || (schema as JsonSchema).type === 'array') for (const wrong of WRONG_VALUES) add(`array item ${JSON.stringify(wrong)?.slice(0, 20)}`, { headers: json, body: JSON.stringify([wrong]) });
  }
  if (!isUpload(op) && op.path !== '/api/internal/uploads' && !op.path.startsWith('/api/internal/uploads/')) {
    // Bodies over the limit under every content type: 413, whatever the route takes.
    const huge = new TextEncoder().encode(`{"x":"${'y'.repeat(JSON_BODY_LIMIT_BYTES)}"}`) as Uint8Array<ArrayBuffer>;
    if (op.method !== 'GET' && op.method !== 'HEAD') for (const type of CONTENT_TYPES) add(`a body over the limit as ${type || 'no type'}`, { headers: type ? { 'content-type': type } : {}, body: huge });
    // A small body of another type where JSON is expected, or where none is.
    if (op.method !== 'GET' && op.method !== 'HEAD') for (const type of CONTENT_TYPES.slice(1)) add(`a body as ${type || 'no type'}`, { headers: type ? { 'content-type': type } : {}, body: 'Title=x' });
  }
  return out;
}

/** The operations are fuzzed in this many parts, each its own test with its own time limit: the
 *  whole walk (26,000 requests) took most of one 600 s limit on a loaded machine. */
const PARTS = 4;
let sentInAll = 0;

describe('fuzzing every route of the OpenAPI document', () => {
  for (let part = 0; part < PARTS; part++) {
    it(`part ${part + 1} of ${PARTS}: malformed requests get no server error, and every 400 names its field`, async () => {
      const failures: string[] = [];
      let sent = 0;
      const ops = operationsOf(doc).filter((op, i) => i % PARTS === part && !SKIPPED.has(`${op.method} ${op.path}`));
      for (const op of ops) {
        for (const c of casesOf(op)) {
          const { status, text } = await send(c);
          sent++;
          const where = `${op.method} ${op.path} with ${c.what}`;
          if (status >= 500) failures.push(`${where}: ${status} ${text.slice(0, 160)}`);
          // A HEAD answer carries no body (RFC 9110), so its 400 cannot name a field.
          if (status === 400 && op.method !== 'HEAD') {
            let named = false;
            try {
              const errors = (JSON.parse(text) as { Errors?: Array<{ Field?: unknown }> }).Errors;
              named = Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof e.Field === 'string' && e.Field !== '');
            } catch {
              named = false;
            }
            if (!named) failures.push(`${where}: a 400 that names no field: ${text.slice(0, 160)}`);
          }
        }
      }
      sentInAll += sent;
      console.log(`fuzz part ${part + 1}: ${sent} malformed requests over ${ops.length} operations`);
      expect(ops.length).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    }, 600_000);
  }

  it('sent more than 10,000 malformed requests over every operation', () => {
    expect(sentInAll).toBeGreaterThanOrEqual(10_000);
  });
});
