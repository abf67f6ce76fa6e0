// The OpenAPI document is the API: every route the server serves under /api is in GET
// /api/openapi.json, with a guard (x-access), and every operation in it is served. A route added
// without its declaration (src/protocol/api) fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { openTestStore, type TestStore } from './test-store.ts';
import { fetchDocument, honoPath, operationsOf, servedApiRoutes, type OpenApiDocument } from './openapi-walk.ts';

let test: TestStore;
let app: ReturnType<typeof createApp>;
let doc: OpenApiDocument;

beforeAll(async () => {
  test = await openTestStore('pglite');
  app = createApp({ store: test.store, bus: createMemoryBus() });
  doc = await fetchDocument(app);
}, 60_000);
afterAll(async () => {
  await test?.drop();
});

/** Hono's pattern of a path parameter (`:file{waveform-(high|low)…}`) as the document names it. */
const plainParams = (path: string) => path.replace(/(:[A-Za-z0-9_]+)\{[^/]*\}/g, '$1');

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the studio, served with the reference at /api/docs', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const docs = await app.request('/api/docs');
    expect(docs.status).toBe(200);
    const page = await docs.text();
    // Served by the studio itself (no CDN): the page, Swagger UI's files and its start, which reads this document.
    for (const src of [...page.matchAll(/(?:src|href)="(\/api\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!)) {
      expect((await app.request(src)).status, src).toBe(200);
    }
    expect(await (await app.request('/api/docs/assets/reference.js')).text()).toContain("url: '/api/openapi.json'");
  });

  it('lists every route the server serves under /api, and nothing it does not serve', () => {
    // Hono answers a HEAD through its GET route: a documented HEAD is served when its GET is.
    const documented = new Set(operationsOf(doc).map((op) => `${op.method === 'HEAD' ? 'GET' : op.method} ${honoPath(op.path)}`));
    const served = servedApiRoutes(app).map((r) => `${r.method} ${plainParams(r.path)}`);
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((r) => !documented.has(r)), 'served but not in the OpenAPI document').toEqual([]);
    expect([...documented].filter((r) => !served.includes(r)), 'documented but not served').toEqual([]);
  });

  it('says for every operation who may call it (its access guard)', () => {
    const unguarded = operationsOf(doc).filter((op) => !op.access).map((op) => `${op.method} ${op.path}`);
    expect(unguarded).toEqual([]);
  });

  it('names every path parameter of every operation', () => {
    for (const op of operationsOf(doc)) {
      const named = (op.path.match(/\{([^}]+)\}/g) ?? []).map((p) => p.slice(1, -1)).sort();
      const declared = op.parameters.filter((p) => p.in === 'path').map((p) => p.name).sort();
      expect(declared, `${op.method} ${op.path}`).toEqual(named);
    }
  });
});
