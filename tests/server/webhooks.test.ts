// Webhooks (issue 33), on PGlite and on PostgreSQL: the API (create, edit, delete, the secret shown
// once and rotated, targets refused at Url), and delivery to a real HTTP receiver on 127.0.0.1
// started here, its signatures checked with the standardwebhooks package (an implementation of the
// same scheme that is not ours) and with Node's crypto by the published algorithm. Changes made
// through the REST API and through a sync push arrive as the right event types, in order per row;
// a receiver that is down for a while gets every event exactly once when it is back; re-send, the
// test event, the log's filters, its pruning to 100, and a webhook failing for a day disabled.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks.ts';
import type { Webhook, WebhookEvent, WebhookWithSecret } from '../../src/protocol/api/webhooks.ts';
import { safePost } from '../../sync-server/net/outbound.ts';
import { AppClient, type Reply } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type App = ReturnType<typeof createApp>;
type Received = { id: string; headers: http.IncomingHttpHeaders; body: string; json: { id: string; type: string; timestamp: string; data: { entity: string | null; id: string | null; version: number | null; row: Record<string, unknown> | null; changed: string[] } } };

/** A webhook receiver on 127.0.0.1: keeps what it was sent; answers `status`; can go away and come back on its port. */
class Receiver {
  received: Received[] = [];
  status = 204;
  port = 0;
  private server: http.Server | null = null;

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ id: String(req.headers['webhook-id']), headers: req.headers, body, json: JSON.parse(body) as Received['json'] });
        res.writeHead(this.status, { 'content-type': 'text/plain' });
        res.end(this.status < 300 ? 'thanks' : 'not now');
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url() {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  of(type: string) {
    return this.received.filter((r) => r.json.type === type);
  }
}

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A port nothing listens on: a connection there is refused. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const MORNING = seedId('program:morning'); // Castaway News
const NEWS = seedId('network:news');
const SPORT = seedId('network:sport');

describe.each(storeKinds)('webhooks on %s', (kind) => {
  let test: TestStore;
  let app: App;
  let api: AppClient;
  let receiver: Receiver;
  /** The server's clock runs with the real one, this far ahead (the day of failures). */
  let clockOffsetMs = 0;
  let clipId = '';
  let otherClipId = '';
  let playlistId = '';

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 48 });
    app = createApp({
      store: test.store,
      bus: createMemoryBus(),
      clock: () => new Date(Date.now() + clockOffsetMs),
      // Retries in milliseconds; long enough, all told, that a receiver away for a second is not given up on.
      webhooks: { allowLoopback: true, retryScheduleMs: [100, 200, 400, 800, 1600, 3200, 6400], timeoutMs: 3_000, sweepMs: 60_000 },
      jobs: { pollMs: 50 },
    });
    await app.jobs.start();
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
    receiver = await new Receiver().start();
    const q = test.store;
    clipId = (await q.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
    const sport = (await q.query<{ id: string }>(`SELECT id FROM programs WHERE network_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [SPORT]))[0]!.id;
    otherClipId = (await q.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [sport]))[0]!.id;
    playlistId = (await q.query<{ id: string }>(`SELECT id FROM playlists WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  }, 180_000);

  afterAll(async () => {
    await app?.jobs.stop();
    await receiver?.stop();
    await test?.drop();
  });

  const create = async (body: Record<string, unknown>, path = '/api/v1/webhooks') => {
    const reply = await api.post(path, body);
    expect(reply.status, reply.text).toBe(201);
    return reply.body as WebhookWithSecret;
  };
  const errorsOf = (reply: Reply) => (reply.body as { Errors: Array<{ Field: string; Code: string; Params?: { reason?: string } }> }).Errors;
  const log = async (webhookId: string, query = '') => ((await api.get(`/api/v1/webhooks/${webhookId}/events${query}`)).body as { Items: WebhookEvent[] }).Items;
  const allDelivered = (webhookId: string) =>
    until(`the deliveries of ${webhookId}`, async () => {
      const items = await log(webhookId);
      return items.length > 0 && items.every((e) => e.Status === 'Succeeded' || e.Status === 'Failed') && items;
    });

  describe('the API', () => {
    it('creates a webhook and shows its secret once (Standard Webhooks form), never again', async () => {
      // Made off: a test connects to nothing but loopback (hooks.example.com is not ours).
      const made = await create({ Url: 'https://hooks.example.com/castaway', Description: '  CMS sync  ', EventTypes: ['ClipCreated', 'ClipUpdated'], Enabled: false });
      expect(made).toMatchObject({ OrganizationId: ORG_DEMO, NetworkId: null, Url: 'https://hooks.example.com/castaway', Description: 'CMS sync', Enabled: false, DisabledReason: 'User', FailingSinceUtc: null });
      expect(made.Secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(made.Secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      const got = await api.get(`/api/v1/webhooks/${made.Id}`);
      expect(got.status).toBe(200);
      expect(got.text).not.toContain(made.Secret);
      expect(got.body).not.toHaveProperty('Secret');
      const list = await api.get('/api/v1/webhooks');
      expect((list.body as { Items: Webhook[] }).Items.map((w) => w.Id)).toContain(made.Id);
      expect(list.text).not.toContain('whsec_');
    });

    it('edits, turns off and on, and deletes', async () => {
      const nowhere = `http://127.0.0.1:${await closedPort()}/b`;
      const made = await create({ Url: nowhere.replace('/b', '/a'), EventTypes: ['ClipCreated'] });
      expect(made).toMatchObject({ Enabled: true, DisabledReason: null, DisabledAtUtc: null });
      const patched = await api.patch(`/api/v1/webhooks/${made.Id}`, { Url: nowhere, EventTypes: ['ClipDeleted', 'ProgramUpdated'], Description: null, Enabled: false });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toMatchObject({ Url: nowhere, EventTypes: ['ClipDeleted', 'ProgramUpdated'], Enabled: false, DisabledReason: 'User' });
      expect((patched.body as Webhook).DisabledAtUtc).not.toBeNull();
      const on = await api.patch(`/api/v1/webhooks/${made.Id}`, { Enabled: true });
      expect(on.body).toMatchObject({ Enabled: true, DisabledReason: null, DisabledAtUtc: null });
      expect((await api.delete(`/api/v1/webhooks/${made.Id}`)).status).toBe(204);
      const gone = await api.get(`/api/v1/webhooks/${made.Id}`);
      expect(gone.status).toBe(404);
      expect(gone.text).toBe('');
    });

    it('refuses, at Url, targets that are not https, carry credentials, or are private, link-local or metadata addresses, without connecting to them', async () => {
      const connect = vi.spyOn(net.Socket.prototype, 'connect');
      try {
        for (const [url, reason] of [
          ['http://hooks.example.com/x', 'scheme'],
          ['ftp://hooks.example.com/x', 'scheme'],
          ['https://user:secret@hooks.example.com/x', 'credentials'],
          ['https://10.0.0.1/x', 'private'],
          ['https://169.254.169.254/latest/meta-data/', 'private'],
          ['https://192.168.1.1/x', 'private'],
          ['https://[fd00::1]/x', 'private'],
          ['https://[::ffff:10.0.0.1]/x', 'private'],
          ['https://0.0.0.0/x', 'private'],
        ] as const) {
          const reply = await api.post('/api/v1/webhooks', { Url: url, EventTypes: ['ClipCreated'] });
          expect(reply.status, url).toBe(400);
          expect(errorsOf(reply), url).toEqual([expect.objectContaining({ Field: 'Url', Code: 'urlInvalid', Params: expect.objectContaining({ reason }) })]);
        }
        const patch = await api.patch(`/api/v1/webhooks/${(await create({ Url: 'https://hooks.example.com/ok', EventTypes: ['ClipCreated'], Enabled: false })).Id}`, { Url: 'https://169.254.169.254/' });
        expect(errorsOf(patch)).toEqual([expect.objectContaining({ Field: 'Url', Params: expect.objectContaining({ reason: 'private' }) })]);
        // The same refusal where it is checked again, before a delivery: nothing was sent anywhere.
        for (const target of ['https://10.0.0.1/x', 'https://169.254.169.254/x', 'http://192.168.1.1/x']) {
          await expect(safePost(target, '{}', {}, { allowLoopback: false, timeoutMs: 1000, maxResponseBytes: 10 }), target).rejects.toMatchObject({ code: 'ImportRefusedTarget' });
        }
        expect(connect).not.toHaveBeenCalled();
      } finally {
        connect.mockRestore();
      }
    });

    it('refuses loopback unless the server allows it (development and tests)', async () => {
      const strict = createApp({ store: test.store, bus: createMemoryBus(), webhooks: { allowLoopback: false } });
      const client = new AppClient(strict);
      await client.login('demo@example.com');
      client.organizationId = ORG_DEMO;
      for (const url of ['https://127.0.0.1/x', 'http://127.0.0.1:8080/x', 'https://localhost/x', 'https://[::1]/x']) {
        const reply = await client.post('/api/v1/webhooks', { Url: url, EventTypes: ['ClipCreated'] });
        expect(reply.status, url).toBe(400);
        expect(errorsOf(reply)[0], url).toMatchObject({ Field: 'Url', Params: { reason: 'loopback' } });
      }
      // This suite's app allows it, over http too.
      expect((await api.post('/api/v1/webhooks', { Url: 'http://127.0.0.1:9/x', EventTypes: ['ClipCreated'], Enabled: false })).status).toBe(201);
    });

    it('checks the event types and the description', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ Url: 'https://hooks.example.com/x', EventTypes: [] }, 'EventTypes', 'required'],
        [{ Url: 'https://hooks.example.com/x', EventTypes: ['ClipCreated', 'ClipCreated'] }, 'EventTypes', 'invalid'],
        [{ Url: 'https://hooks.example.com/x', EventTypes: ['ClipExploded'] }, 'EventTypes.0', 'invalid'],
        [{ Url: 'https://hooks.example.com/x', EventTypes: ['ClipCreated'], Description: 'x'.repeat(501) }, 'Description', 'tooLong'],
        [{ EventTypes: ['ClipCreated'] }, 'Url', 'required'],
        [{ Url: 'not a url', EventTypes: ['ClipCreated'] }, 'Url', 'urlInvalid'],
      ];
      for (const [body, field, code] of cases) {
        const reply = await api.post('/api/v1/webhooks', body);
        expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(errorsOf(reply).map((e) => [e.Field, e.Code]), JSON.stringify(body).slice(0, 80)).toEqual([[field, code]]);
      }
    });

    it('a network’s webhooks are its own: listed under it, not with the organization’s, and not found under another network', async () => {
      const made = await create({ Url: 'https://hooks.example.com/news', EventTypes: ['ClipUpdated'], Enabled: false }, `/api/v1/networks/${NEWS}/webhooks`);
      expect(made.NetworkId).toBe(NEWS);
      expect(((await api.get(`/api/v1/networks/${NEWS}/webhooks`)).body as { Items: Webhook[] }).Items.map((w) => w.Id)).toEqual([made.Id]);
      expect(((await api.get('/api/v1/webhooks')).body as { Items: Webhook[] }).Items.map((w) => w.Id)).not.toContain(made.Id);
      expect((await api.get(`/api/v1/networks/${NEWS}/webhooks/${made.Id}`)).status).toBe(200);
      // Reached by its own id too (the re-send, secret and test routes are there).
      expect((await api.get(`/api/v1/webhooks/${made.Id}`)).status).toBe(200);
      const elsewhere = await api.get(`/api/v1/networks/${SPORT}/webhooks/${made.Id}`);
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.text).toBe('');
      expect((await api.patch(`/api/v1/networks/${NEWS}/webhooks/${made.Id}`, { Description: 'News desk' })).body).toMatchObject({ Description: 'News desk' });
      expect((await api.delete(`/api/v1/networks/${NEWS}/webhooks/${made.Id}`)).status).toBe(204);
    });

    it('who may: support reads but does not change; a producer and an analyst neither; another organization sees nothing', async () => {
      const made = await create({ Url: 'https://hooks.example.com/who', EventTypes: ['ClipCreated'], Enabled: false });
      const as = (email: string, organizationId = ORG_DEMO) => AppClient.signedIn(app, email, organizationId);
      const support = await as('support@example.com');
      expect((await support.get('/api/v1/webhooks')).status).toBe(200);
      expect((await support.get(`/api/v1/webhooks/${made.Id}/events`)).status).toBe(200);
      expect((await support.patch(`/api/v1/webhooks/${made.Id}`, { Description: 'mine' })).status).toBe(403);
      expect((await support.post('/api/v1/webhooks', { Url: 'https://hooks.example.com/x', EventTypes: ['ClipCreated'] })).status).toBe(403);
      expect((await support.post(`/api/internal/webhooks/${made.Id}/secret`, {})).status).toBe(403);
      for (const email of ['producer@example.com', 'analyst@example.com']) {
        const client = await as(email);
        expect((await client.get('/api/v1/webhooks')).status, email).toBe(403);
        expect((await client.get(`/api/v1/webhooks/${made.Id}`)).status, email).toBe(403);
      }
      // The demo user acting in the other organization: the webhook is not there.
      const elsewhere = await as('demo@example.com', ORG_PODCASTS);
      for (const [method, path] of [
        ['GET', `/api/v1/webhooks/${made.Id}`],
        ['PATCH', `/api/v1/webhooks/${made.Id}`],
        ['DELETE', `/api/v1/webhooks/${made.Id}`],
        ['GET', `/api/v1/webhooks/${made.Id}/events`],
        ['POST', `/api/internal/webhooks/${made.Id}/secret`],
        ['POST', `/api/internal/webhooks/${made.Id}/test`],
      ] as const) {
        const reply = await elsewhere.send(method, path, method === 'PATCH' ? { json: { Description: 'x' } } : {});
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(reply.text).toBe('');
      }
      expect(((await elsewhere.get('/api/v1/webhooks')).body as { Items: Webhook[] }).Items.map((w) => w.Id)).not.toContain(made.Id);
    });
  });

  describe('delivery to a real receiver', () => {
    let hook: WebhookWithSecret;

    beforeAll(async () => {
      // Everything the organization does, from now on (an edit made before it is not sent).
      await api.patch(`/api/v1/clips/${clipId}`, { Description: 'Before the webhook' });
      hook = await create({ Url: receiver.url, EventTypes: [...WEBHOOK_EVENT_TYPES] });
    });

    it('a clip edited through the API: ClipUpdated, signed so that standardwebhooks and Node’s crypto both verify it', async () => {
      const edit = await api.patch(`/api/v1/clips/${clipId}`, { Title: 'Signed and delivered' });
      expect(edit.status, edit.text).toBe(200);
      const got = await until('ClipUpdated', () => receiver.of('ClipUpdated').find((r) => r.json.data.row?.['Title'] === 'Signed and delivered'));
      expect(got.json).toMatchObject({ id: got.id, type: 'ClipUpdated', data: { entity: 'clip', id: clipId, changed: expect.arrayContaining(['Title']) } });
      expect(got.json.data.row).toMatchObject({ Id: clipId, Title: 'Signed and delivered' });
      expect(got.json.data.version).toBe((edit.body as { Version: number }).Version);
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toMatch(/CastawayStudio-Webhooks/);
      // The library written for the scheme.
      const verified = new StandardWebhook(hook.Secret).verify(got.body, {
        'webhook-id': String(got.headers['webhook-id']),
        'webhook-timestamp': String(got.headers['webhook-timestamp']),
        'webhook-signature': String(got.headers['webhook-signature']),
      });
      expect(verified).toMatchObject({ id: got.id, type: 'ClipUpdated' });
      // And by the published algorithm: base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the secret's bytes.
      const key = Buffer.from(hook.Secret.slice('whsec_'.length), 'base64');
      const expected = createHmac('sha256', key).update(`${got.headers['webhook-id']}.${got.headers['webhook-timestamp']}.${got.body}`).digest('base64');
      expect(got.headers['webhook-signature']).toBe(`v1,${expected}`);
      // A tampered body does not verify.
      expect(() =>
        new StandardWebhook(hook.Secret).verify(got.body.replace('Signed', 'Forged'), {
          'webhook-id': String(got.headers['webhook-id']),
          'webhook-timestamp': String(got.headers['webhook-timestamp']),
          'webhook-signature': String(got.headers['webhook-signature']),
        }),
      ).toThrow();
      // Nothing of the edit made before the webhook.
      expect(receiver.received.some((r) => r.json.data.row?.['Description'] === 'Before the webhook' && r.json.data.changed.includes('Description'))).toBe(false);
    });

    it('Visibility changed: ClipUpdated and ClipVisibilityChanged; programs, playlists, creates and deletes their own types', async () => {
      const start = receiver.received.length;
      const was = ((await api.get(`/api/v1/clips/${clipId}`)).body as { Visibility: string }).Visibility;
      const visibility = was === 'Unlisted' ? 'Private' : 'Unlisted';
      expect((await api.patch(`/api/v1/clips/${clipId}`, { Visibility: visibility })).status).toBe(200);
      expect((await api.patch(`/api/v1/programs/${MORNING}`, { Description: 'Programme notes' })).status).toBe(200);
      expect((await api.patch(`/api/v1/playlists/${playlistId}`, { Title: 'Renamed feed' })).status).toBe(200);
      const made = await api.post(`/api/v1/programs/${MORNING}/clips`, { Title: 'Born and gone' });
      expect(made.status).toBe(201);
      const newId = (made.body as { Id: string }).Id;
      expect((await api.delete(`/api/v1/clips/${newId}`)).status).toBe(204);
      // Only these rows (the seed's publishing jobs change other clips meanwhile).
      const mine = () => receiver.received.slice(start).filter((r) => [clipId, MORNING, playlistId, newId].includes(r.json.data.id!));
      const got = await until('six events', () => mine().length >= 6 && mine());
      expect(got.map((r) => `${r.json.type}:${r.json.data.id}`)).toEqual([
        `ClipUpdated:${clipId}`,
        `ClipVisibilityChanged:${clipId}`,
        `ProgramUpdated:${MORNING}`,
        `PlaylistUpdated:${playlistId}`,
        `ClipCreated:${newId}`,
        `ClipDeleted:${newId}`,
      ]);
      const [, changed, , , created, deleted] = got;
      expect(changed!.json.data.row).toMatchObject({ Visibility: visibility });
      expect(changed!.json.data.changed).toContain('Visibility');
      expect(created!.json.data.row).toMatchObject({ Title: 'Born and gone', Deleted: false });
      expect(created!.json.data.changed).toEqual([]);
      expect(deleted!.json.data.row).toBeNull();
      await allDelivered(hook.Id);
    });

    it('a clip edited through a sync push: ClipUpdated with the row as that write left it', async () => {
      const start = receiver.received.length;
      const reply = await api.push([
        { name: 'clip.update', args: { clipId, fields: { Title: 'Pushed once' } } },
        { name: 'clip.update', args: { clipId, fields: { Title: 'Pushed twice' } } },
      ]);
      expect(reply.status, reply.text).toBe(200);
      const mine = () => receiver.received.slice(start).filter((r) => r.json.data.id === clipId);
      const got = await until('two pushed edits', () => mine().length >= 2 && mine());
      expect(got.map((r) => [r.json.type, r.json.data.row?.['Title']])).toEqual([
        ['ClipUpdated', 'Pushed once'],
        ['ClipUpdated', 'Pushed twice'],
      ]);
      expect(got[0]!.json.data.version).toBeLessThan(got[1]!.json.data.version!);
    });

    it('a network’s webhook hears of its programs’ rows only; a webhook hears only the types it asked for', async () => {
      const news = new Receiver();
      await news.start();
      try {
        const networkHook = await create({ Url: news.url, EventTypes: ['ClipUpdated'] }, `/api/v1/networks/${NEWS}/webhooks`);
        const narrow = await create({ Url: news.url.replace('/hook', '/narrow'), EventTypes: ['ClipVisibilityChanged'] });
        expect((await api.patch(`/api/v1/clips/${otherClipId}`, { Title: 'A sport clip' })).status).toBe(200);
        expect((await api.patch(`/api/v1/clips/${clipId}`, { Title: 'A news clip' })).status).toBe(200);
        expect((await api.patch(`/api/v1/clips/${clipId}`, { Visibility: 'Public' })).status).toBe(200);
        const mine = () => news.received.filter((r) => r.json.data.id === clipId || r.json.data.id === otherClipId);
        await until('the network webhook’s two and the narrow one', () => mine().length >= 3);
        await allDelivered(networkHook.Id);
        await allDelivered(narrow.Id);
        expect(mine().map((r) => `${r.json.type}:${r.json.data.id}`).sort()).toEqual([`ClipUpdated:${clipId}`, `ClipUpdated:${clipId}`, `ClipVisibilityChanged:${clipId}`].sort());
      } finally {
        await news.stop();
      }
    });

    it('a receiver away for a while: every event arrives exactly once when it is back, in order per row', async () => {
      await allDelivered(hook.Id);
      const before = new Set(receiver.received.map((r) => r.id));
      await receiver.stop();
      const q = test.store;
      const clips = (await q.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 3`, [MORNING])).map((c) => c.id);
      for (let round = 1; round <= 3; round++) for (const id of clips) expect((await api.patch(`/api/v1/clips/${id}`, { Title: `Round ${round}` })).status).toBe(200);
      // Refused connections: the first event waits for its retry, the others behind it.
      const waiting = await until('a retry', async () => (await log(hook.Id, '?status=Retrying')).find((e) => e.Attempts >= 2));
      expect(waiting.Error).toMatch(/could not be reached|ECONNREFUSED/);
      expect(waiting.ResponseStatus).toBeNull();
      expect((await api.get(`/api/v1/webhooks/${hook.Id}`)).body).toMatchObject({ FailingSinceUtc: expect.any(String) });
      await new Promise((r) => setTimeout(r, 500));
      await receiver.start();
      // Only these clips' (the seed's publishing jobs change others meanwhile).
      const freshOf = () => receiver.received.filter((r) => !before.has(r.id) && clips.includes(r.json.data.id!));
      await until('nine edits', () => freshOf().length >= 9);
      await allDelivered(hook.Id);
      const fresh = freshOf();
      expect(fresh).toHaveLength(9);
      expect(new Set(fresh.map((r) => r.id)).size).toBe(9);
      for (const id of clips) expect(fresh.filter((r) => r.json.data.id === id).map((r) => r.json.data.row?.['Title'])).toEqual(['Round 1', 'Round 2', 'Round 3']);
      expect((await api.get(`/api/v1/webhooks/${hook.Id}`)).body).toMatchObject({ FailingSinceUtc: null, LastResponseStatus: 204, Enabled: true });
    });

    it('the log: newest first, filtered by event type and status, with request, answer and time', async () => {
      await allDelivered(hook.Id);
      const all = await log(hook.Id);
      expect(all.length).toBeGreaterThan(10);
      const seqOrder = [...all].sort((a, b) => b.CreatedAtUtc.localeCompare(a.CreatedAtUtc));
      expect(all.map((e) => e.CreatedAtUtc)).toEqual(seqOrder.map((e) => e.CreatedAtUtc));
      const visibility = await log(hook.Id, '?eventType=ClipVisibilityChanged');
      expect(visibility.length).toBeGreaterThan(0);
      expect(visibility.every((e) => e.EventType === 'ClipVisibilityChanged')).toBe(true);
      const two = await log(hook.Id, '?eventType=ClipVisibilityChanged,ProgramUpdated&status=Succeeded');
      expect(new Set(two.map((e) => e.EventType))).toEqual(new Set(['ClipVisibilityChanged', 'ProgramUpdated']));
      expect(await log(hook.Id, '?status=Failed')).toEqual([]);
      const entry = all[0]!;
      expect(entry).toMatchObject({ WebhookId: hook.Id, Status: 'Succeeded', ResponseStatus: 204, Error: null, NextAttemptAtUtc: null });
      expect(JSON.parse(entry.RequestBody)).toMatchObject({ id: entry.Id, type: entry.EventType });
      expect(entry.DurationMs).toEqual(expect.any(Number));
      expect(entry.LastAttemptAtUtc).toEqual(expect.any(String));
      const bad = await api.get(`/api/v1/webhooks/${hook.Id}/events?status=Lost`);
      expect(bad.status).toBe(400);
      expect(errorsOf(bad)[0]!.Field).toBe('status');
    });

    it('re-send: the same id and body again, one more attempt in its entry', async () => {
      const [entry] = await log(hook.Id, '?eventType=ProgramUpdated');
      const sent = receiver.received.filter((r) => r.id === entry!.Id);
      expect(sent).toHaveLength(1);
      const reply = await api.send('PUT', `/api/v1/webhooks/${hook.Id}/events/${entry!.Id}`);
      expect(reply.status, reply.text).toBe(204);
      await until('the re-send', () => receiver.received.filter((r) => r.id === entry!.Id).length === 2);
      const again = receiver.received.filter((r) => r.id === entry!.Id);
      expect(again[1]!.body).toBe(again[0]!.body);
      const after = await until('its entry', async () => (await log(hook.Id, '?eventType=ProgramUpdated')).find((e) => e.Id === entry!.Id && e.Attempts === entry!.Attempts + 1 && e.Status === 'Succeeded'));
      expect(after.LastAttemptAtUtc! >= entry!.LastAttemptAtUtc!).toBe(true);
      expect((await api.send('PUT', `/api/v1/webhooks/${hook.Id}/events/${crypto.randomUUID()}`)).status).toBe(404);
    });

    it('send test event: a WebhookTest delivery, queued and answered 202', async () => {
      const reply = await api.post(`/api/internal/webhooks/${hook.Id}/test`, {});
      expect(reply.status, reply.text).toBe(202);
      const queued = reply.body as WebhookEvent;
      expect(queued).toMatchObject({ EventType: 'WebhookTest', Status: 'Pending', EntityId: null, WebhookId: hook.Id });
      const got = await until('the test event', () => receiver.received.find((r) => r.id === queued.Id));
      expect(got.json).toMatchObject({ type: 'WebhookTest', id: queued.Id });
      expect(new StandardWebhook(hook.Secret).verify(got.body, { 'webhook-id': got.id, 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) })).toBeTruthy();
      await until('its entry', async () => (await log(hook.Id, '?eventType=WebhookTest')).find((e) => e.Id === queued.Id && e.Status === 'Succeeded'));
    });

    it('rotation: a new secret, shown once; the old one signs beside it for a day', async () => {
      const reply = await api.post(`/api/internal/webhooks/${hook.Id}/secret`, {});
      expect(reply.status, reply.text).toBe(200);
      const { Secret } = reply.body as { Secret: string };
      expect(Secret).toMatch(/^whsec_/);
      expect(Secret).not.toBe(hook.Secret);
      expect((await api.get(`/api/v1/webhooks/${hook.Id}`)).text).not.toContain(Secret);
      const queued = (await api.post(`/api/internal/webhooks/${hook.Id}/test`, {})).body as WebhookEvent;
      const got = await until('a delivery after the rotation', () => receiver.received.find((r) => r.id === queued.Id));
      const headers = { 'webhook-id': got.id, 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) };
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(new StandardWebhook(Secret).verify(got.body, headers)).toBeTruthy();
      expect(new StandardWebhook(hook.Secret).verify(got.body, headers)).toBeTruthy();
      expect(() => new StandardWebhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got.body, headers)).toThrow();
      hook = { ...hook, Secret };
    });

    it('keeps the last 100 log entries, and never drops one still to be sent', async () => {
      const q = test.store;
      // 120 old deliveries, and an older one still waiting (its retry far off).
      await q.query(
        `INSERT INTO webhook_events (id, webhook_id, event_type, created_at_utc, status, attempts, manual, next_attempt_at_utc, request_body)
         VALUES ($1, $2, 'ClipUpdated', now() - interval '2 days', 'Retrying', 3, false, now() + interval '1 day', '{}')`,
        [crypto.randomUUID(), hook.Id],
      );
      const waiting = (await q.query<{ id: string }>(`SELECT id FROM webhook_events WHERE webhook_id = $1 AND status = 'Retrying'`, [hook.Id]))[0]!.id;
      await q.query(
        `INSERT INTO webhook_events (id, webhook_id, event_type, created_at_utc, status, attempts, request_body)
         SELECT gen_random_uuid(), $1, 'ClipUpdated', now() - interval '1 day', 'Succeeded', 1, '{}' FROM generate_series(1, 120)`,
        [hook.Id],
      );
      const queued = (await api.post(`/api/internal/webhooks/${hook.Id}/test`, {})).body as WebhookEvent;
      await until('the test delivered', async () => (await log(hook.Id, '?eventType=WebhookTest')).find((e) => e.Id === queued.Id && e.Status === 'Succeeded'));
      const left = await q.query<{ id: string; status: string }>(`SELECT id, status FROM webhook_events WHERE webhook_id = $1`, [hook.Id]);
      expect(left.length).toBe(101);
      expect(left.map((e) => e.id)).toContain(waiting);
      expect(left.map((e) => e.id)).toContain(queued.Id);
      await q.query(`DELETE FROM webhook_events WHERE id = $1`, [waiting]);
    });

    it('a webhook failing for a day is disabled and says so; it then gets no new events until turned on again', async () => {
      const dead = await create({ Url: `http://127.0.0.1:${await closedPort()}/gone`, EventTypes: ['ClipUpdated'] });
      expect((await api.patch(`/api/v1/clips/${clipId}`, { Title: 'Nobody listens' })).status).toBe(200);
      const failing = await until('failing', async () => {
        const w = (await api.get(`/api/v1/webhooks/${dead.Id}`)).body as Webhook;
        return w.FailingSinceUtc !== null && w;
      });
      expect(failing.Enabled).toBe(true);
      // A day and more later, the next failed attempt turns it off.
      clockOffsetMs = 25 * 3_600_000;
      try {
        const off = await until('disabled', async () => {
          const w = (await api.get(`/api/v1/webhooks/${dead.Id}`)).body as Webhook;
          return !w.Enabled && w;
        });
        expect(off).toMatchObject({ Enabled: false, DisabledReason: 'Failing', DisabledAtUtc: expect.any(String) });
        const entries = await log(dead.Id);
        expect(entries.length).toBe(1);
        expect((await api.patch(`/api/v1/clips/${clipId}`, { Title: 'Still nobody' })).status).toBe(200);
        await allDelivered(hook.Id);
        // The sweep's scan too: nothing is made for a disabled webhook.
        expect((await log(dead.Id)).length).toBe(1);
        const on = await api.patch(`/api/v1/webhooks/${dead.Id}`, { Enabled: true });
        expect(on.body).toMatchObject({ Enabled: true, DisabledReason: null, DisabledAtUtc: null, FailingSinceUtc: null });
      } finally {
        clockOffsetMs = 0;
        await api.delete(`/api/v1/webhooks/${dead.Id}`);
      }
    });
  });
});
