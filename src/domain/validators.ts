// Field validators of specification section 5. Each returns a typed FormError (or null when the
// value is acceptable); multi-value validators return every error. No text is formatted here.
import {
  MAX_INT,
  MIN_INT,
  NAME_MAX_LENGTH,
  PAGE_SIZE_MAX,
  PAGE_SIZE_MIN,
  SLUG_MAX_LENGTH,
  SLUG_MIN_LENGTH,
  TITLE_MAX_LENGTH,
  TITLE_MIN_LENGTH,
  URL_MAX_LENGTH,
  URL_MIN_LENGTH,
} from './constants.ts';
import { formError, type DomainMessageKey, type FormError } from './form-errors.ts';

/** "null or empty gives required"; a string of only whitespace counts as empty. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export function validateRequired(value: unknown, message: DomainMessageKey = 'domain_required'): FormError | null {
  return isEmpty(value) ? formError('required', message) : null;
}

/** Text areas are split by line, trimmed, empties dropped. */
export function splitLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

// ── Name and title ──────────────────────────────────────────────────────────────────────────

export function validateName(value: string | null | undefined, options: { maxLength?: number } = {}): FormError | null {
  const max = options.maxLength ?? NAME_MAX_LENGTH;
  if (isEmpty(value)) return formError('required', 'domain_name_required');
  if ((value as string).trim().length > max) return formError('tooLong', 'domain_name_too_long', { max });
  return null;
}

export type TitleOptions = { required?: boolean; minLength?: number; maxLength?: number };

export function validateTitle(value: string | null | undefined, options: TitleOptions = {}): FormError | null {
  const min = options.minLength ?? TITLE_MIN_LENGTH;
  const max = options.maxLength ?? TITLE_MAX_LENGTH;
  if (isEmpty(value)) return options.required === false ? null : formError('required', 'domain_title_required');
  const length = (value as string).trim().length;
  if (length < min) return formError('tooShort', 'domain_title_too_short', { min });
  if (length > max) return formError('tooLong', 'domain_title_too_long', { max });
  return null;
}

// ── Slug ────────────────────────────────────────────────────────────────────────────────────

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Lowercases, drops every character other than Latin letters, digits, spaces, tabs and hyphens,
 * then turns each run of spaces, tabs and hyphens into one hyphen. Dropping comes first so that
 * the result never holds a run the next call would collapse: the function is idempotent.
 */
export function normalizeSlug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9 \t-]/g, '')
    .replace(/[ \t-]+/g, '-');
}

/** A slug suggestion from free text (a title): normalised, without leading or trailing dashes. */
export function slugFromText(text: string, maxLength: number = SLUG_MAX_LENGTH): string {
  return normalizeSlug(text).slice(0, maxLength).replace(/^-+|-+$/g, '');
}

export type SlugOptions = {
  /** The slug is always required. */
  alwaysRequired?: boolean;
  /** The slug saved before this edit: once saved, it cannot be cleared. */
  savedSlug?: string | null;
  minLength?: number;
  maxLength?: number;
};

export function validateSlug(value: string | null | undefined, options: SlugOptions = {}): FormError | null {
  const min = options.minLength ?? SLUG_MIN_LENGTH;
  const max = options.maxLength ?? SLUG_MAX_LENGTH;
  if (value === null || value === undefined || value === '') {
    const required = options.alwaysRequired === true || !isEmpty(options.savedSlug);
    return required ? formError('required', 'domain_slug_required') : null;
  }
  if (normalizeSlug(value) !== value || !SLUG_PATTERN.test(value)) return formError('invalid', 'domain_slug_invalid');
  if (value.length < min) return formError('tooShort', 'domain_slug_too_short', { min });
  if (value.length > max) return formError('tooLong', 'domain_slug_too_long', { max });
  return null;
}

// ── Numbers ─────────────────────────────────────────────────────────────────────────────────

export type NumberOptions = { required?: boolean; min?: number; max?: number };

const INTEGER_PATTERN = /^[+-]?\d+$/;
const DECIMAL_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** An optionally signed decimal integer within the 32-bit range, else null. */
export function parseInteger(value: string | number): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!INTEGER_PATTERN.test(text)) return null;
  return Number(text);
}

export function parseNumber(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value.trim();
  return DECIMAL_PATTERN.test(text) ? Number(text) : null;
}

function rangeError(n: number, min: number | undefined, max: number | undefined): FormError | null {
  const below = min !== undefined && n < min;
  const above = max !== undefined && n > max;
  if (!below && !above) return null;
  const reason = below ? 'underflow' : 'overflow';
  if (min !== undefined && max !== undefined) return formError('outOfRange', 'domain_number_between', { min, max }, reason);
  if (min !== undefined) return formError('outOfRange', 'domain_number_min', { min }, reason);
  return formError('outOfRange', 'domain_number_max', { max: max as number }, reason);
}

function validateNumeric(
  value: string | number | null | undefined,
  options: NumberOptions,
  parse: (v: string | number) => number | null,
): FormError | null {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    return options.required === true ? formError('required', 'domain_number_required') : null;
  }
  const n = parse(value);
  if (n === null) return formError('invalid', 'domain_number_invalid');
  return rangeError(n, options.min, options.max);
}

export function validateNumber(value: string | number | null | undefined, options: NumberOptions = {}): FormError | null {
  return validateNumeric(value, options, parseNumber);
}

/** Integers are an optionally signed decimal only; the largest is 2147483647 (MAX_INT). */
export function validateInteger(value: string | number | null | undefined, options: NumberOptions = {}): FormError | null {
  const min = Math.max(options.min ?? MIN_INT, MIN_INT);
  const max = Math.min(options.max ?? MAX_INT, MAX_INT);
  return validateNumeric(value, { ...options, min, max }, parseInteger);
}

/** The default page-style integer: 1 to 2500. */
export function validatePageSize(value: string | number | null | undefined, options: { required?: boolean } = {}): FormError | null {
  return validateInteger(value, { required: options.required ?? true, min: PAGE_SIZE_MIN, max: PAGE_SIZE_MAX });
}

// ── URL ─────────────────────────────────────────────────────────────────────────────────────

export type UrlScheme = 'http' | 'https';
export type UrlOptions = {
  required?: boolean;
  /** Schemes allowed when the URL names one; default http and https. */
  schemes?: readonly UrlScheme[];
  /** Accept a bare host and path ("{host}") without a scheme. */
  allowWithoutScheme?: boolean;
  minLength?: number;
  maxLength?: number;
};

const SCHEME_PATTERN = /^([a-z][a-z0-9+.-]*):\/\//i;

export function validateUrl(value: string | null | undefined, options: UrlOptions = {}): FormError | null {
  const schemes = options.schemes ?? ['http', 'https'];
  const min = options.minLength ?? URL_MIN_LENGTH;
  const max = options.maxLength ?? URL_MAX_LENGTH;
  if (value === null || value === undefined || value.trim() === '') {
    return options.required === true ? formError('required', 'domain_url_required') : null;
  }
  if (value.length < min) return formError('tooShort', 'domain_url_too_short', { min });
  if (value.length > max) return formError('tooLong', 'domain_url_too_long', { max });
  if (/[\n\r\t]/.test(value) || value.includes(' ') || value.toLowerCase().includes('%20')) {
    return formError('urlInvalid', 'domain_url_invalid');
  }
  const scheme = SCHEME_PATTERN.exec(value)?.[1]?.toLowerCase();
  const schemeList = schemes.map((s) => `${s}://`).join(', ');
  if (scheme === undefined && options.allowWithoutScheme !== true) {
    return formError('urlInvalid', 'domain_url_scheme', { schemes: schemeList });
  }
  if (scheme !== undefined && !(schemes as readonly string[]).includes(scheme)) {
    return formError('urlInvalid', 'domain_url_scheme', { schemes: schemeList });
  }
  let hostname: string;
  try {
    hostname = new URL(scheme === undefined ? `https://${value}` : value).hostname;
  } catch {
    return formError('urlInvalid', 'domain_url_invalid');
  }
  if (!hostname.includes('.') || hostname.startsWith('.') || hostname.endsWith('.')) {
    return formError('urlInvalid', 'domain_url_invalid');
  }
  return null;
}

// ── GUID ────────────────────────────────────────────────────────────────────────────────────

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isGuid(value: unknown): value is string {
  return typeof value === 'string' && GUID_PATTERN.test(value);
}

export function validateGuid(value: string | null | undefined, options: { required?: boolean } = {}): FormError | null {
  if (value === null || value === undefined || value === '') {
    return options.required === true ? formError('required', 'domain_required') : null;
  }
  return isGuid(value) ? null : formError('invalid', 'domain_guid_invalid', { value });
}

// ── E-mail ──────────────────────────────────────────────────────────────────────────────────

// The WHATWG "valid e-mail address" pattern, with at least one dot in the domain.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

export function validateEmail(value: string | null | undefined, options: { required?: boolean } = {}): FormError | null {
  if (value === null || value === undefined || value.trim() === '') {
    return options.required === false ? null : formError('required', 'domain_email_required');
  }
  const trimmed = value.trim();
  return isEmail(trimmed) ? null : formError('emailInvalid', 'domain_email_invalid', { value: trimmed });
}

/** Multi-address fields split on semicolon, trim, drop empties. */
export function splitEmails(value: string): string[] {
  return value
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Every invalid address is reported, in the order written. */
export function validateEmails(value: string | null | undefined, options: { required?: boolean } = {}): FormError[] {
  const addresses = splitEmails(value ?? '');
  if (addresses.length === 0) return options.required === false ? [] : [formError('required', 'domain_email_required')];
  return addresses.filter((a) => !isEmail(a)).map((a) => formError('emailInvalid', 'domain_email_invalid', { value: a }));
}
