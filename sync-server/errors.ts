// Errors carry codes (STYLE.md habit 4) and are mapped to responses in ONE place, app.onError:
//   400 → { Errors: [{ Field, Code, Message, MessageKey?, Params? }] }   (src/protocol/errors.ts)
//   412 → the current row as JSON
//   413 → an Errors body naming the size limit
//   401, 403, 404, 429 → no body (section 7: "404 and other statuses have none")
import type * as z from 'zod';
import { formErrorMessageKey, formatFormError } from '../src/domain/messages.ts';
import { formError, type FormError } from '../src/domain/form-errors.ts';
import { JSON_BODY_LIMIT_BYTES, ServerErrorCode, type BadRequestBody, type FieldError } from '../src/protocol/errors.ts';
import type { DomainIssueParams } from '../src/protocol/api/common.ts';

/** Messages of the server are English; the client says them in its user's language from
 * MessageKey and Params. */
const LOCALE = 'en-US' as const;

export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 421 | 429,
    readonly body?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(`HTTP ${status}`);
  }
}

const serverCodes = new Set<string>(Object.values(ServerErrorCode));

/** A field error of the 400 body from a domain FormError (its Message from the catalogue). */
export function fieldError(field: string, error: FormError): FieldError {
  const code = error.reason !== undefined && serverCodes.has(error.reason) ? error.reason : error.type;
  const out: FieldError = { Field: field, Code: code, Message: formatFormError(error, LOCALE), MessageKey: formErrorMessageKey(error) };
  if (error.params) out.Params = error.params;
  return out;
}

export function badRequest(errors: FieldError[]): AppError {
  const body: BadRequestBody = { Errors: errors };
  return new AppError(400, body);
}

/** Throws a 400 when any of the (field, error) pairs holds an error. */
export function assertValid(checks: Array<[string, FormError | null | undefined]>): void {
  const errors = checks.flatMap(([field, e]) => (e ? [fieldError(field, e)] : []));
  if (errors.length > 0) throw badRequest(errors);
}

export const notFound = () => new AppError(404);
export const forbidden = () => new AppError(403);
export const unauthorized = () => new AppError(401);

/**
 * The 400 body's field errors for a failed parse of `input`: a field that is absent is
 * 'required', one that is there but wrong is 'invalid', one a domain validator refused says that
 * validator's own error (src/protocol/api/common.ts checkedString). (zod 4 leaves issue.input out
 * unless the parse asked for it, so the value is looked up in the input itself.)
 */
export function zodFieldErrors(error: z.ZodError, input: unknown, fieldOf: (path: readonly PropertyKey[]) => string = (path) => path.map(String).join('.')): FieldError[] {
  const at = (path: readonly PropertyKey[]): unknown => {
    let v: unknown = input;
    for (const key of path) {
      if (v === null || typeof v !== 'object') return undefined;
      v = (v as Record<PropertyKey, unknown>)[key];
    }
    return v;
  };
  return error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => fieldError(fieldOf([...issue.path, key]), formError('invalid')));
    }
    // An issue of the whole value (a body that is not an object) names the body.
    const field = fieldOf(issue.path) || 'body';
    const domain = issue.code === 'custom' ? (issue.params as Partial<DomainIssueParams> | undefined)?.formError : undefined;
    if (domain) return [fieldError(field, domain)];
    const missing = issue.code === 'invalid_type' && at(issue.path) === undefined;
    return [fieldError(field, formError(missing ? 'required' : 'invalid'))];
  });
}

/** A body that is not JSON: the whole body is the field. */
export function malformedJson(): AppError {
  return badRequest([fieldError('body', formError('invalid', undefined, undefined, ServerErrorCode.MalformedJson))]);
}

/** 413: a JSON body (as sent, or once decoded) larger than JSON_BODY_LIMIT_BYTES. */
export function payloadTooLarge(): AppError {
  return new AppError(413, {
    Errors: [fieldError('', formError('invalid', 'domain_body_too_large', { maxSize: JSON_BODY_LIMIT_BYTES }, ServerErrorCode.PayloadTooLarge))],
  });
}
