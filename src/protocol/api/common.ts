// The pieces every route declaration of src/protocol/api uses: path parameters, query strings
// checked by the specification's own rules (their messages), paged answers, and the error answers
// of section 8. A route declaration is data (path, method, schemas): the server implements it
// (sync-server/api), the OpenAPI document is generated from it, and the client's typed calls
// (src/lib/api.ts) are derived from it.
import * as z from 'zod';
import { validateGuid, validateInteger, validatePageSize } from '../../domain/validators.ts';
import { FIRST_PAGE, PAGE_SIZE_MAX } from '../../domain/constants.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { validateAnalyticsRange } from '../../domain/analytics.ts';
import { BadRequestBodySchema } from '../errors.ts';

/** A zod issue carrying the specification's own FormError, so the server's 400 says its message. */
export type DomainIssueParams = { formError: FormError };

/** A string checked by a domain validator (its FormError rides on the issue: DomainIssueParams). */
export function checkedString(validate: (value: string) => FormError | null) {
  return z.string().superRefine((value, ctx) => {
    const error = validate(value);
    if (error) ctx.addIssue({ code: 'custom', message: error.type, params: { formError: error } satisfies DomainIssueParams });
  });
}

/** A GUID path parameter. (A parameter that is not a GUID names no row: the server answers 404.) */
export const IdParam = z.uuid().transform((id) => id.toLowerCase());

export function idParams<K extends string>(...names: K[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, IdParam.meta({ param: { name: n, in: 'path' } })])) as Record<K, typeof IdParam>);
}

/** page (from 1) and pageSize (1..2500, default 2500: the full-list page size), section 7. */
export const PagingQuery = {
  page: checkedString((v) => validateInteger(v, { required: true, min: FIRST_PAGE }))
    .transform(Number)
    .optional()
    .meta({ description: 'Page number, from 1', example: '1' }),
  pageSize: checkedString((v) => validatePageSize(v))
    .transform(Number)
    .optional()
    .meta({ description: 'Items per page, 1 to 2500 (default 2500)', example: '50' }),
};

/** The page a paged list asks for. */
export function pageOf(query: { page?: number | undefined; pageSize?: number | undefined }) {
  const page = query.page ?? FIRST_PAGE;
  const pageSize = query.pageSize ?? PAGE_SIZE_MAX;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** startDate and endDate, both required where section 5 says so (reports, audit events): local
 * dates YYYY-MM-DD, end not before start, each error on its own field. */
export function checkDates(value: { startDate?: string | undefined; endDate?: string | undefined }, ctx: z.RefinementCtx) {
  for (const { field, error } of validateAnalyticsRange(value.startDate, value.endDate, 'day')) {
    ctx.addIssue({ code: 'custom', path: [field], message: error.type, params: { formError: error } satisfies DomainIssueParams });
  }
}

/** A comma-joined list of GUIDs ('' means none), each checked ('Not a valid GUID'). */
export const IdListQuery = checkedString((v) => {
  for (const id of splitList(v)) {
    const error = validateGuid(id, { required: true });
    if (error) return error;
  }
  return null;
})
  .transform((v) => [...new Set(splitList(v).map((id) => id.toLowerCase()))])
  .optional()
  .meta({ description: 'Comma-joined ids' });

/** A comma-joined list of values of an enum ('' means no filter). */
export function enumListQuery<T extends string>(values: readonly T[]) {
  const allowed = new Set<string>(values);
  return z
    .string()
    .superRefine((v, ctx) => {
      if (splitList(v).some((x) => !allowed.has(x))) ctx.addIssue({ code: 'custom', message: 'invalid' });
    })
    .transform((v) => splitList(v) as T[])
    .optional()
    .meta({ description: `Comma-joined, of: ${values.join(', ')}` });
}

export const BoolQuery = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1')
  .optional();

export function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A paged list of section 7. */
export function PagedOf<T extends z.ZodType>(item: T) {
  return z.object({ Items: z.array(item), HasNext: z.boolean(), Page: z.number().int() });
}

// ── Answers ──────────────────────────────────────────────────────────────────────────────────
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A JSON request body (required: a call without one is refused). */
export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

const BadRequest = { description: 'A field is not valid: every invalid field is named, with its code and message', content: { 'application/json': { schema: BadRequestBodySchema } } };
const NotFound = { description: 'No such row, or none the caller may see (no body)' };
const Forbidden = { description: 'The caller sees the row but lacks the permission this needs (no body)' };
const Unauthorized = { description: 'Not signed in (no body)' };
const Conflict = { description: 'The Id is taken (no body)' };
const TooLarge = { description: 'The body is larger than the server accepts', content: { 'application/json': { schema: BadRequestBodySchema } } };

const UnknownHost = {
  description: 'The studio was reached under a host name it does not know and PUBLIC_URL is not set: a link carrying a token is mailed only to the studio’s own origin (nothing was sent or changed)',
  content: { 'application/json': { schema: BadRequestBodySchema } },
};
/** A call that mails a link with a token (sync-server/public-origin.ts mailOrigin). */
export const mailLinkErrors = { 421: UnknownHost } as const;

/** The error answers a signed-in call may get. */
export const errors = { 400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound } as const;
export const writeErrors = { ...errors, 413: TooLarge } as const;
export const createErrors = { ...writeErrors, 409: Conflict } as const;
/** A write on a base (If-Match: "<ModifiedAtUtc>"): 412 with the row as it now is. */
export const preconditionFailed = <T extends z.ZodType>(row: T) => ({ 412: jsonContent(row, 'If-Match names an earlier ModifiedAtUtc: the row as it now is') });

export const noContent = { description: 'Done (no body)' };

/** The If-Match precondition of a write (the row's ETag is its ModifiedAtUtc, quoted). */
export const IfMatchHeader = z.object({
  'if-match': z.string().max(64).optional().meta({ description: 'The row’s ModifiedAtUtc the change was made on, quoted; a stale one is answered 412 with the row' }),
});
