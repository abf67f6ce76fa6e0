// The API's own description: GET /api/openapi.json, the OpenAPI 3.1 document generated from the
// route declarations every resource module serves (src/protocol/api), and /api/docs, an
// interactive reference (Swagger UI, served from the swagger-ui-dist package: no CDN, so it works
// wherever the studio runs, offline networks included). Signed-in users can try calls from it:
// it runs in the studio's origin with the studio's session.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { notFound } from '../errors.ts';
import { SYNC_PROTOCOL_VERSION } from '../../src/protocol/sync.ts';
import { REFERENCE_POLICY } from '../security-headers.ts';

const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const tags = ['API'];

export const openApiDocument = {
  method: 'get',
  path: '/openapi.json',
  tags,
  summary: 'This document: every route of the API, OpenAPI 3.1',
  responses: { 200: { description: 'The OpenAPI document', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
} as const;

export const apiReference = {
  method: 'get',
  path: '/docs',
  tags,
  summary: 'An interactive reference of the API (HTML)',
  responses: { 200: { description: 'The reference page', content: { 'text/html': { schema: z.string() } } } },
} as const;

export const apiReferenceAsset = {
  method: 'get',
  path: '/docs/assets/{file}',
  tags,
  summary: 'A file of the interactive reference (Swagger UI)',
  request: { params: z.object({ file: z.string().max(100) }) },
  responses: { 200: { description: 'The file' }, 404: { description: 'No such file' } },
} as const;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Castaway Studio API</title>
<link rel="icon" href="/api/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/reference.js"></script>
</body>
</html>`;

/** Swagger UI's start, a file of its own (no inline script: a content security policy may forbid them). */
const START = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true });`;

/** The document of `app` (every route it serves through resource modules), made once. */
export function apiDocsRoutes(app: Pick<OpenAPIHono, 'getOpenAPI31Document'>) {
  let document: unknown = null;
  const make = () =>
    (document ??= app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Castaway Studio API',
        version: `1.0.2625 (sync protocol ${SYNC_PROTOCOL_VERSION})`,
        description:
          'Every route of the studio. Calls are made with the session cookie (and, on writes, the x-xsrf-token header from GET /api/internal/session/xsrf) or an API key (Authorization: Bearer). x-organization-id names the organization a call is made in. Errors: 400 names every invalid field (Errors[].Field, Code, Message); 404 has no body and is also the answer for a row the caller may not see; 412 carries the row as it now is. Each operation says who may call it in x-access.',
      },
      servers: [{ url: '/', description: 'This studio' }],
    }));
  return resourceApp()
    .openapi(guarded(openApiDocument, guard.public()), (c) => c.json(make() as Record<string, unknown>, 200))
    .openapi(guarded(apiReference, guard.public()), (c) => c.html(PAGE, 200, { 'content-security-policy': REFERENCE_POLICY }))
    .openapi(guarded(apiReferenceAsset, guard.public()), async (c) => {
      const file = c.req.valid('param').file;
      if (file === 'reference.js') return c.body(START, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
      const type = ASSETS[file];
      if (!type) throw notFound();
      const bytes = await readFile(join(assetsDir, file));
      return c.body(bytes, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
    });
}
