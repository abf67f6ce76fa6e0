// Request helpers shared by the route modules: JSON bodies through zod, query parameters through
// the domain validators, paging of section 7, and the If-Match / ETag concurrency token.
import type { Context } from 'hono';
import type * as z from 'zod';
import { validateGuid, validateInteger, validatePageSize } from '../src/domain/validators.ts';
import { PAGE_SIZE_MAX, FIRST_PAGE } from '../src/domain/constants.ts';
import { AppError, assertValid, badRequest, fieldError, malformedJson, zodFieldErrors } from './errors.ts';
import { formError } from '../src/domain/form-errors.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function malformedJsonValue(): never {
  throw malformedJson();
}

/** Parses the JSON body with a schema: malformed JSON and wrong types are 400, never 500. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    // A lone UTF-16 surrogate ("\ud800") parses but no jsonb column takes it: refuse it here, not with a 500.
    raw = text.trim() === '' ? undefined : JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' && LONE_SURROGATE.test(value) ? malformedJsonValue() : value));
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw malformedJson();
  }
  if (raw === undefined) throw malformedJson();
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw badRequest(zodFieldErrors(parsed.error, raw));
  return parsed.data;
}

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasLoneSurrogate);
  return false;
}

/** An already parsed JSON body (a queued mutation's, sync/push.ts) through the same checks as readJson. */
export function parseJsonBody<S extends z.ZodType>(raw: unknown, schema: S): z.infer<S> {
  if (raw === undefined || raw === null || hasLoneSurrogate(raw)) throw malformedJson();
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw badRequest(zodFieldErrors(parsed.error, raw));
  return parsed.data;
}

export type PageParams = { page: number; pageSize: number; offset: number };

/** page from 1, pageSize 1..2500 (default 2500, the full-list page size); 400 naming the field. */
export function pageParams(c: Context): PageParams {
  const page = c.req.query('page');
  const pageSize = c.req.query('pageSize');
  assertValid([
    ['page', page === undefined ? null : validateInteger(page, { required: true, min: FIRST_PAGE })],
    ['pageSize', pageSize === undefined ? null : validatePageSize(pageSize)],
  ]);
  const p = page === undefined ? FIRST_PAGE : Number(page);
  const size = pageSize === undefined ? PAGE_SIZE_MAX : Number(pageSize);
  return { page: p, pageSize: size, offset: (p - 1) * size };
}

/** Rows fetched with LIMIT pageSize + 1 → the paged response of section 7. */
export function paged<T>(rows: T[], params: PageParams) {
  return { Items: rows.slice(0, params.pageSize), HasNext: rows.length > params.pageSize, Page: params.page };
}

/** A comma-joined list parameter ('' and absent → null, i.e. no filter). */
export function listParam(c: Context, name: string): string[] | null {
  const raw = c.req.query(name);
  if (raw === undefined || raw.trim() === '') return null;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A comma-joined list of GUIDs, each validated ('Not a valid GUID' names the parameter). */
export function idListParam(c: Context, name: string): string[] | null {
  const ids = listParam(c, name);
  if (!ids) return null;
  const bad = ids.find((id) => validateGuid(id, { required: true }) !== null);
  if (bad !== undefined) throw badRequest([fieldError(name, validateGuid(bad, { required: true }) ?? formError('invalid'))]);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** A GUID path parameter; anything else cannot name a row, so it is 404 (no body). */
export function pathId(c: Context, name: string): string {
  const value = c.req.param(name);
  if (value === undefined || validateGuid(value, { required: true }) !== null) throw new AppError(404);
  return value.toLowerCase();
}

export function boolParam(c: Context, name: string): boolean {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw badRequest([fieldError(name, formError('invalid'))]);
}

/** The If-Match precondition: null when absent or '*'; the quoted ModifiedAtUtc otherwise. */
export function ifMatch(c: Context): string | null {
  const raw = c.req.header('if-match');
  if (raw === undefined || raw.trim() === '*' || raw.trim() === '') return null;
  return raw.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
}

export function etagOf(row: { ModifiedAtUtc: string }): string {
  return `"${row.ModifiedAtUtc}"`;
}

/** Stale precondition → 412 with the current row (and its ETag). */
export function checkPrecondition(expected: string | null, row: { ModifiedAtUtc: string }): void {
  if (expected === null) return;
  const same = expected === row.ModifiedAtUtc || Date.parse(expected) === Date.parse(row.ModifiedAtUtc);
  if (!same) throw new AppError(412, row, { ETag: etagOf(row) });
}
