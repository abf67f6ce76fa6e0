// The API's edges over REAL HTTP (@hono/node-server on a random port), on PGlite and PostgreSQL:
// paging (section 7: page from 1, pageSize 1 to 2500), XSRF (section 7: "Writes first GET
// /internal/session/xsrf … and send it in header x-xsrf-token"), If-Match / 412 with the current
// row (ARCHITECTURE.md), and bad bodies (section 8: 400 has a body; never a 500).
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { seed } from '../../sync-server/seed.ts';
import { BadRequestBodySchema } from '../../src/protocol/errors.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const PASSWORD = 'castaway-demo';

type Reply = { status: number; headers: Headers; text: string; json: () => unknown };

/** A browser-like client: keeps the session cookie, sends the XSRF token when asked to. */
class HttpClient {
  cookie = '';
  xsrf = '';
  constructor(readonly base: string) {}

  async send(
    method: string,
    path: string,
    options: { body?: string | Blob; json?: unknown; headers?: Record<string, string>; xsrf?: boolean } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (options.xsrf !== false && this.xsrf && method !== 'GET') headers['x-xsrf-token'] ??= this.xsrf;
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.base + path, { method, headers, body: body ?? null, redirect: 'manual' });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('castaway_session='));
    if (cookie) this.cookie = cookie.split(';')[0]!;
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
  }

  async login(email: string): Promise<void> {
    const reply = await this.send('POST', '/api/internal/session/login', { json: { Email: email, Password: PASSWORD } });
    expect(reply.status, reply.text).toBe(200);
    const xsrf = await this.send('GET', '/api/internal/session/xsrf');
    this.xsrf = (xsrf.json() as { XsrfToken: string }).XsrfToken;
  }
}

/** One request on a connection of its own (node:http, no keep-alive pool). */
function rawRequest(base: string, method: string, path: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    // The server may answer 413 and close while the body is still going out.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(body);
  });
}

function errorFields(reply: Reply): string[] {
  const body = BadRequestBodySchema.parse(reply.json());
  return body.Errors.map((e) => e.Field);
}

describe.each(storeKinds)('HTTP edges on %s', (kind) => {
  let test: TestStore;
  let server: ServerType;
  let client: HttpClient;
  let base: string;
  let programId: string;
  let clipId: string;
  let clipCount: number;

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store);
    const app = createApp({ store: test.store, bus: createMemoryBus() });
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new HttpClient(base);
    await client.login('demo@example.com');
    // The program with the most clips of the demo organization.
    const programs = (await client.send('GET', '/api/v1/programs')).json() as { Items: Array<{ Id: string }> };
    let best = { id: '', count: -1 };
    for (const p of programs.Items) {
      const clips = (await client.send('GET', `/api/v1/programs/${p.Id}/clips`)).json() as { Items: unknown[] };
      if (clips.Items.length > best.count) best = { id: p.Id, count: clips.Items.length };
    }
    programId = best.id;
    clipCount = best.count;
    const first = (await client.send('GET', `/api/v1/programs/${programId}/clips?pageSize=1`)).json() as { Items: Array<{ Id: string }> };
    clipId = first.Items[0]!.Id;
  }, 120_000);

  afterAll(async () => {
    if (server) await new Promise((resolve) => server.close(resolve));
    await test?.drop();
  });

  describe('paging', () => {
    it.each(['0', '2501', '-1', '1.5', 'ten', ''])('pageSize=%s is 400 naming pageSize', async (size) => {
      const reply = await client.send('GET', `/api/v1/programs/${programId}/clips?pageSize=${size}`);
      expect(reply.status).toBe(400);
      expect(errorFields(reply)).toEqual(['pageSize']);
    });

    it('accepts the bounds 1 and 2500', async () => {
      const one = await client.send('GET', `/api/v1/programs/${programId}/clips?pageSize=1`);
      expect(one.status).toBe(200);
      expect(one.json()).toMatchObject({ Page: 1, HasNext: clipCount > 1 });
      expect((one.json() as { Items: unknown[] }).Items).toHaveLength(1);
      const max = await client.send('GET', `/api/v1/programs/${programId}/clips?pageSize=2500`);
      expect(max.status).toBe(200);
    });

    it.each(['0', '-3', 'x'])('page=%s is 400 naming page', async (page) => {
      const reply = await client.send('GET', `/api/v1/clips?page=${page}&pageSize=10`);
      expect(reply.status).toBe(400);
      expect(errorFields(reply)).toEqual(['page']);
    });

    it('walks a program page by page: the last page has HasNext false, a page past the end is empty', async () => {
      const size = Math.max(1, Math.ceil(clipCount / 3));
      const seen = new Set<string>();
      let page = 1;
      for (;;) {
        const reply = await client.send('GET', `/api/v1/programs/${programId}/clips?page=${page}&pageSize=${size}`);
        const body = reply.json() as { Items: Array<{ Id: string }>; HasNext: boolean; Page: number };
        expect(body.Page).toBe(page);
        for (const item of body.Items) seen.add(item.Id);
        if (!body.HasNext) break;
        page += 1;
      }
      expect(seen.size).toBe(clipCount);
      const past = await client.send('GET', `/api/v1/programs/${programId}/clips?page=${page + 5}&pageSize=${size}`);
      expect(past.status).toBe(200);
      expect(past.json()).toEqual({ Items: [], HasNext: false, Page: page + 5 });
    });
  });

  describe('XSRF', () => {
    it('refuses a write without the token or with a wrong one (403, no body), and keeps the row', async () => {
      const before = (await client.send('GET', `/api/v1/clips/${clipId}`)).json() as { Title: string | null; ModifiedAtUtc: string };
      const missing = await client.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Title: 'No token' }, xsrf: false });
      expect(missing.status).toBe(403);
      expect(missing.text).toBe('');
      const wrong = await client.send('PATCH', `/api/v1/clips/${clipId}`, {
        json: { Title: 'Wrong token' },
        headers: { 'x-xsrf-token': 'not-the-token' },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.text).toBe('');
      const after = (await client.send('GET', `/api/v1/clips/${clipId}`)).json() as { Title: string | null; ModifiedAtUtc: string };
      expect(after).toMatchObject({ Title: before.Title, ModifiedAtUtc: before.ModifiedAtUtc });
    });

    it("does not accept another session's token", async () => {
      const other = new HttpClient(base);
      await other.login('demo@example.com');
      expect(other.xsrf).not.toBe(client.xsrf);
      const reply = await client.send('PATCH', `/api/v1/clips/${clipId}`, {
        json: { Title: 'Borrowed token' },
        headers: { 'x-xsrf-token': other.xsrf },
      });
      expect(reply.status).toBe(403);
    });

    it('guards logout too', async () => {
      const other = new HttpClient(base);
      await other.login('demo@example.com');
      expect((await other.send('POST', '/api/internal/session/logout', { xsrf: false })).status).toBe(403);
      expect((await other.send('GET', '/api/internal/session')).json()).toMatchObject({ Type: 'activated' });
      expect((await other.send('POST', '/api/internal/session/logout')).status).toBe(204);
    });

    it('answers 401 without a session', async () => {
      const anonymous = new HttpClient(base);
      const reply = await anonymous.send('GET', `/api/v1/clips/${clipId}`);
      expect(reply.status).toBe(401);
      expect(reply.text).toBe('');
    });
  });

  describe('If-Match', () => {
    it('a current If-Match writes and moves the ETag; a stale one is 412 with the current row', async () => {
      const got = await client.send('GET', `/api/v1/clips/${clipId}`);
      const etag = got.headers.get('etag');
      const row = got.json() as { ModifiedAtUtc: string };
      expect(etag).toBe(`"${row.ModifiedAtUtc}"`);

      const first = await client.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Title: 'First edit' }, headers: { 'if-match': etag! } });
      expect(first.status).toBe(200);
      const firstRow = first.json() as { Title: string; ModifiedAtUtc: string };
      expect(firstRow.Title).toBe('First edit');
      expect(Date.parse(firstRow.ModifiedAtUtc)).toBeGreaterThan(Date.parse(row.ModifiedAtUtc));
      expect(first.headers.get('etag')).toBe(`"${firstRow.ModifiedAtUtc}"`);

      const stale = await client.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Title: 'Stale edit' }, headers: { 'if-match': etag! } });
      expect(stale.status).toBe(412);
      expect(stale.json()).toMatchObject({ Id: clipId, Title: 'First edit', ModifiedAtUtc: firstRow.ModifiedAtUtc });
      expect(stale.headers.get('etag')).toBe(`"${firstRow.ModifiedAtUtc}"`);

      const staleDelete = await client.send('DELETE', `/api/v1/clips/${clipId}`, { headers: { 'if-match': etag! } });
      expect(staleDelete.status).toBe(412);
      expect((await client.send('GET', `/api/v1/clips/${clipId}`)).json()).toMatchObject({ Title: 'First edit', Deleted: false });
    });

    it('an If-Match that is not a timestamp is stale, not a crash', async () => {
      const reply = await client.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Title: 'x' }, headers: { 'if-match': '"yesterday"' } });
      expect(reply.status).toBe(412);
    });
  });

  describe('bad bodies are 4xx with a body, never 5xx', () => {
    const cases: Array<[string, string]> = [
      ['malformed JSON', '{"Title": '],
      ['a JSON string', '"Title"'],
      ['JSON null', 'null'],
      ['an array', '[{"Title":"x"}]'],
      ['an empty body', ''],
      ['a wrong type', '{"Title": 42}'],
      ['a nested object for a string', '{"Title": {"$gt": ""}}'],
      ['an unknown field', '{"Titel": "typo"}'],
      ['an episode beyond the largest integer', '{"Episode": 2147483648}'],
      ['a number too large for a double', '{"Episode": 1e400}'],
      ['a fractional episode', '{"Episode": 1.5}'],
      ['an unknown visibility', '{"Visibility": "Everyone"}'],
      ['deeply nested JSON', `{"Tags": ${'['.repeat(5000)}${']'.repeat(5000)}}`],
    ];
    it.each(cases)('%s → 400 with an Errors body', async (_name, body) => {
      const reply = await client.send('PATCH', `/api/v1/clips/${clipId}`, { body, headers: { 'content-type': 'application/json' } });
      expect(reply.status, reply.text).toBe(400);
      expect(BadRequestBodySchema.safeParse(reply.json()).success, reply.text).toBe(true);
    });

    it('names each invalid field', async () => {
      const reply = await client.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Title: 7, Season: 'one', Visibility: 'Nope' } });
      expect(reply.status).toBe(400);
      expect(errorFields(reply).sort()).toEqual(['Season', 'Title', 'Visibility']);
    });

    it('a field of the wrong type is invalid, a missing one required, with their messages', async () => {
      const wrong = await client.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Title: 7 } });
      expect(wrong.status).toBe(400);
      expect((wrong.json() as { Errors: Array<{ Field: string; Code: string }> }).Errors).toEqual([expect.objectContaining({ Field: 'Title', Code: 'invalid' })]);
      const missing = await client.send('POST', '/api/internal/custom-support', { json: { ContactName: 'Ana', ContactEmail: 'ana@example.com' } });
      expect(missing.status).toBe(400);
      expect((missing.json() as { Errors: Array<{ Field: string; Code: string }> }).Errors).toContainEqual(expect.objectContaining({ Field: 'ContactEnquiry', Code: 'required' }));
    });

    it('a lone surrogate in a string (not Unicode; jsonb refuses it) is 400 naming the field, not a 500', async () => {
      for (const [body, field] of [['{"Description": "half \\ud800 a pair"}', 'Description'], ['{"Title": "\\udc00"}', 'Title']]) {
        const reply = await client.send('PATCH', `/api/v1/clips/${clipId}`, { body: body!, headers: { 'content-type': 'application/json' } });
        expect(reply.status, reply.text).toBe(400);
        expect(BadRequestBodySchema.parse(reply.json()).Errors[0]).toMatchObject({ Field: field, Code: 'invalidText' });
      }
      const pair = await client.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Description: 'A whole pair 😀 is fine' } });
      expect(pair.status).toBe(200);
    });

    it('a body over the limit is 413 with a body naming the limit', async () => {
      const big = JSON.stringify({ Description: 'x'.repeat(2 * 1024 * 1024) });
      // Its own connection: the server answers before reading the whole body and drops the socket.
      const reply = await rawRequest(base, 'PATCH', `/api/v1/clips/${clipId}`, big, {
        cookie: client.cookie,
        'x-xsrf-token': client.xsrf,
        'content-type': 'application/json',
      });
      expect(reply.status).toBe(413);
      const body = BadRequestBodySchema.parse(JSON.parse(reply.text));
      expect(body.Errors[0]!.Code).toBe('payloadTooLarge');
    });

    it('a body of invalid UTF-8 bytes is 400', async () => {
      const bytes = new Uint8Array([0x7b, 0x22, 0x54, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
      const reply = await client.send('PATCH', `/api/v1/clips/${clipId}`, { body: new Blob([bytes]), headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
    });

    it('malformed login bodies are 400, not 500', async () => {
      const anonymous = new HttpClient(base);
      for (const body of ['{', '[]', '{"Email": 1, "Password": 2}', '{"Email": "demo@example.com"}']) {
        const reply = await anonymous.send('POST', '/api/internal/session/login', { body, headers: { 'content-type': 'application/json' } });
        expect(reply.status, body).toBe(400);
        expect(BadRequestBodySchema.safeParse(reply.json()).success, body).toBe(true);
      }
    });

    it('ids that are not GUIDs are 404 with no body', async () => {
      for (const path of ['/api/v1/clips/not-a-guid', '/api/v1/programs/1', `/api/v1/clips/${clipId}x`]) {
        const reply = await client.send('GET', path);
        expect(reply.status, path).toBe(404);
        expect(reply.text).toBe('');
      }
      const patch = await client.send('PATCH', '/api/v1/clips/%27%3B%20DROP%20TABLE%20clips', { json: { Title: 'x' } });
      expect(patch.status).toBe(404);
    });

    it('bad list parameters are 400 naming the parameter', async () => {
      const ids = await client.send('GET', '/api/v1/clips?clipIds=abc,def');
      expect(ids.status).toBe(400);
      expect(errorFields(ids)).toEqual(['clipIds']);
      const flag = await client.send('GET', '/api/v1/clips?includeDeleted=maybe');
      expect(flag.status).toBe(400);
      expect(errorFields(flag)).toEqual(['includeDeleted']);
    });
  });
});
