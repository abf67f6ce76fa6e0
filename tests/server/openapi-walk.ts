// Walking the API's own OpenAPI document (GET /api/openapi.json): its operations, their
// parameters, and request bodies made from their schemas, for the tests that must cover every
// route the server serves (tests/server/openapi.test.ts, authz-openapi.test.ts, fuzz-openapi.test.ts).
import type { createApp } from '../../sync-server/app.ts';
import { PUBLIC_PREFIXES } from '../../src/domain/public-urls.ts';
import { OPERATIONS_PATHS } from '../../src/protocol/api/operations.ts';

type App = ReturnType<typeof createApp>;

export type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  const?: unknown;
};

export type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: JsonSchema };

export type Operation = {
  method: string;
  /** The document's path, /api/v1/clips/{clipId}. */
  path: string;
  parameters: Parameter[];
  /** Request body media types and schemas. */
  body: Record<string, JsonSchema> | null;
  bodyRequired: boolean;
  access: string | undefined;
};

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> }; 'x-access'?: string }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export async function fetchDocument(app: App): Promise<OpenApiDocument> {
  const res = await app.request('/api/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const content = op.requestBody?.content;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: content ? Object.fromEntries(Object.entries(content).map(([type, c]) => [type, c.schema ?? {}])) : null,
        bodyRequired: op.requestBody?.required === true,
        access: op['x-access'],
      });
    }
  }
  return out;
}

export const pathParams = (op: Operation) => op.parameters.filter((p) => p.in === 'path').map((p) => p.name);

/** The path with its {parameters} filled in (each value URI-encoded unless `raw`). */
export function fillPath(path: string, values: Record<string, string>, raw = false): string {
  return path.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const v = values[name] ?? crypto.randomUUID();
    return raw ? v : encodeURIComponent(v);
  });
}

export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; i < 20 && s.$ref; i++) s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')] ?? {};
  return s;
}

const typesOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A small value the schema takes: what a careful client would send (required fields only). */
export function exampleOf(doc: OpenApiDocument, schema: JsonSchema, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return exampleOf(doc, variants.find((v) => !typesOf(resolve(doc, v)).includes('null')) ?? variants[0]!, depth + 1);
  if (s.allOf) return Object.assign({}, ...s.allOf.map((p) => exampleOf(doc, p, depth + 1) as object));
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types[0] ?? (s.properties ? 'object' : 'string');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth < 6) for (const key of s.required ?? []) out[key] = exampleOf(doc, s.properties?.[key] ?? {}, depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'boolean':
      return false;
    default:
      if (s.format === 'uuid') return crypto.randomUUID();
      if (s.format === 'date-time') return '2030-01-01T00:00:00.000Z';
      if (s.format === 'email') return 'someone@example.com';
      return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
  }
}

/** A JSON body for the operation, made from its schema; null when it takes none (or no JSON). */
export function exampleBody(doc: OpenApiDocument, op: Operation): unknown {
  const schema = op.body?.['application/json'];
  return schema ? exampleOf(doc, schema) : null;
}

/** Every string field (dotted path) of an object schema, and the types of each field, one level
 * deep and through arrays of objects, for the fuzz's field-by-field cases. */
export function fieldsOf(doc: OpenApiDocument, schema: JsonSchema): Array<{ name: string; schema: JsonSchema }> {
  const s = resolve(doc, schema);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const object = variants.map((v) => resolve(doc, v)).find((v) => v.properties);
    return object ? fieldsOf(doc, object) : [];
  }
  return Object.entries(s.properties ?? {}).map(([name, field]) => ({ name, schema: resolve(doc, field) }));
}

/** Whether a path is on the public surface served outside /api (feeds, audio, show pages, embed). */
export const isPublicPath = (path: string) => PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));

/** Hono's own list of what the app serves under /api, on the public surface and for operators
 * (/healthz, /readyz, /metrics) (method, path with :params), HEAD aside. */
export function servedApiRoutes(app: App): Array<{ method: string; path: string }> {
  const seen = new Set<string>();
  const out: Array<{ method: string; path: string }> = [];
  for (const r of app.routes) {
    const served = r.path.startsWith('/api') || isPublicPath(r.path) || (OPERATIONS_PATHS as readonly string[]).includes(r.path);
    if (!served || r.method === 'ALL' || r.method === 'HEAD') continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path: r.path });
  }
  return out;
}

/** The document's path as Hono writes it (/api/v1/clips/:clipId). */
export const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
