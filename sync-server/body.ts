// The one body reader of the API: every request under /api passes it before any route runs.
//
//   request ──upload route?──yes──> the route streams the file with its own limit
//      │ no
//      ▼
//   bytes, any content type, gzip decoded ──> JSON_BODY_LIMIT_BYTES ──over──> 413
//      │
//      ▼ JSON content type
//   parsed ──malformed──> 400 (Field 'body')
//      │
//      ▼
//   every string checked: a NUL or half a surrogate pair ──> 400 naming the field (no store keeps
//   them: PostgreSQL's text and jsonb refuse NUL, and a lone surrogate is not Unicode text)
//      │
//      ▼
//   every string NFC-normalised (one spelling for "é": slugs, searches and comparisons agree),
//   handed to the route's validator as the parsed body
//
// Query strings get the same string checks (400 naming the parameter). A sync push checks each
// mutation's strings on its own (sync/push.ts), so that one bad edit is refused, not the batch.
import type { Context, MiddlewareHandler } from 'hono';
import type * as z from 'zod';
import { formError } from '../src/domain/form-errors.ts';
import { JSON_BODY_LIMIT_BYTES, ServerErrorCode, type FieldError } from '../src/protocol/errors.ts';
import { badRequest, fieldError, malformedJson, payloadTooLarge, zodFieldErrors } from './errors.ts';
import { decodeRequestBody } from './compress.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a string no store can keep (null: nothing). */
function stringProblem(s: string): 'nul' | 'surrogate' | null {
  if (s.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(s)) return 'surrogate';
  return null;
}

const problemError = (field: string, problem: 'nul' | 'surrogate'): FieldError =>
  fieldError(field, formError('invalid', problem === 'nul' ? 'domain_text_nul' : 'domain_text_surrogate', undefined, ServerErrorCode.InvalidText));

const joinPath = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** How deep a JSON body may nest: far beyond any body of the API, well within the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * Every value of a JSON value that no store can keep, as 400 field errors named by their path
 * (`fieldOf` names a path as the route's callers know it): strings and keys with a NUL or half a
 * surrogate pair, numbers too large for a double (JSON.parse reads 1e400 as Infinity, which JSON
 * cannot say again), nesting deeper than MAX_JSON_DEPTH.
 */
export function stringProblems(value: unknown, fieldOf: (path: readonly PropertyKey[]) => string = joinPath, path: PropertyKey[] = []): FieldError[] {
  const field = () => fieldOf(path) || 'body';
  if (typeof value === 'string') {
    const p = stringProblem(value);
    return p ? [problemError(field(), p)] : [];
  }
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [fieldError(field(), formError('outOfRange'))];
  if (value === null || typeof value !== 'object') return [];
  if (path.length >= MAX_JSON_DEPTH) return [fieldError(field(), formError('invalid'))];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringProblems(v, fieldOf, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) => {
    const p = stringProblem(k);
    return p ? [problemError(fieldOf([...path, k]), p)] : stringProblems(v, fieldOf, [...path, k]);
  });
}

/** The value with every string (and key) in Unicode normal form C; the very same value (===)
 * when nothing in it changes, as nearly always. */
export function nfc<T>(value: T): T {
  if (typeof value === 'string') return value.normalize('NFC') as T;
  if (Array.isArray(value)) {
    const out = value.map(nfc);
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = k.normalize('NFC');
      const normal = nfc(v);
      if (key !== k || normal !== v) changed = true;
      out[key] = normal;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/** zod issues as 400 field errors ('required' for a missing field, 'invalid' otherwise). */
export function fieldErrorsOfZod(error: z.ZodError, input: unknown, fieldOf: (path: readonly PropertyKey[]) => string = joinPath): FieldError[] {
  return zodFieldErrors(error, input, fieldOf);
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** Whether a Content-Type names JSON (application/json, application/merge-patch+json, …). */
export const isJsonType = (type: string | undefined) => type !== undefined && JSON_TYPE.test(type.trim());

/**
 * Routes whose bodies are files streamed to storage with limits of their own (audio, images,
 * resumable uploads). Every other route's body, of any content type, is held to
 * JSON_BODY_LIMIT_BYTES.
 */
export type BodyRoutes = {
  isUpload(c: Context): boolean;
  /** Routes that check the strings of their JSON body themselves (the sync push: per mutation). */
  checksOwnStrings(c: Context): boolean;
};

async function readLimited(c: Context): Promise<Uint8Array | null> {
  const body = c.req.raw.body;
  if (!body) return null;
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > JSON_BODY_LIMIT_BYTES) throw payloadTooLarge();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > JSON_BODY_LIMIT_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** The query parameters' strings checked as bodies' are (400 naming the parameter). */
function checkQuery(c: Context): void {
  const url = c.req.url;
  const q = url.indexOf('?');
  if (q < 0) return;
  const errors: FieldError[] = [];
  for (const part of url.slice(q + 1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const name = decodePart(rawName) ?? rawName;
    const value = decodePart(rawValue);
    // Percent-escapes that are not UTF-8 ("%ff", "%ed%a0%80": half a surrogate pair) read as nothing.
    if (value === null) errors.push(fieldError(name, formError('invalid', 'domain_text_surrogate', undefined, ServerErrorCode.InvalidText)));
    else {
      const p = stringProblem(value) ?? stringProblem(name);
      if (p) errors.push(problemError(name, p));
    }
  }
  if (errors.length > 0) throw badRequest(errors);
}

function decodePart(s: string): string | null {
  try {
    return decodeURIComponent(s.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/** Bytes that are not UTF-8 are not JSON: refused, not read with replacement characters. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The middleware: see the header. */
export function bodyReader(routes: BodyRoutes): MiddlewareHandler {
  return async (c, next) => {
    checkQuery(c);
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || routes.isUpload(c)) return next();
    await decodeRequestBody(c, async () => {
      const bytes = await readLimited(c);
      if (bytes === null || bytes.byteLength === 0) {
        c.req.raw = new Request(c.req.raw.url, { method, headers: c.req.raw.headers });
        return next();
      }
      let body: Uint8Array<ArrayBuffer> | string = bytes as Uint8Array<ArrayBuffer>;
      // A route that checks its own body's strings (the sync push, per mutation) reads the JSON
      // itself: not parsed twice.
      if (isJsonType(c.req.header('content-type')) && !routes.checksOwnStrings(c)) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(UTF8.decode(bytes));
        } catch {
          throw malformedJson();
        }
        const problems = stringProblems(parsed);
        if (problems.length > 0) throw badRequest(problems);
        // The route reads the body as normalised: re-encoded only when that changed anything.
        const normal = nfc(parsed);
        if (normal !== parsed) body = JSON.stringify(normal);
      }
      const headers = new Headers(c.req.raw.headers);
      headers.delete('content-length');
      c.req.raw = new Request(c.req.raw.url, { method, headers, body });
      await next();
    });
  };
}
