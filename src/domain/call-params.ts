// Call parameters (section 5): which calls require which query parameters, and how list
// parameters are written (comma-joined, and left out entirely when empty so the server applies
// no filter rather than an empty one).
import { formError, type FormError } from './form-errors.ts';

export const REQUIRED_QUERY_PARAMETERS = {
  reports: ['startDate', 'endDate'],
  auditEvents: ['startDate', 'endDate'],
  analyticsDownloads: ['startDate', 'endDate'],
  memos: ['startDate', 'endDate'],
  scheduledPublishReport: ['startDate', 'endDate'],
  transcriptCreation: ['language'],
  deletionEstimates: ['days'],
  urlPrefixCheck: ['prefixUrl'],
  invitationLookup: ['token'],
  liveStreams: ['stationCallSign'],
  clipsGlance: ['ianaTimeZoneId'],
  addOnUsage: ['dateUtc'],
} as const;
export type CallWithRequiredParameters = keyof typeof REQUIRED_QUERY_PARAMETERS;

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

/** A required-parameter error per missing (absent or blank) parameter, keyed by its name. */
export function missingQueryParameters(
  call: CallWithRequiredParameters,
  query: Readonly<Record<string, string | null | undefined>>,
): Array<{ parameter: string; error: FormError }> {
  return REQUIRED_QUERY_PARAMETERS[call]
    .filter((name) => (query[name] ?? '').trim() === '')
    .map((parameter) => ({ parameter, error: formError('required', 'domain_required') }));
}

export function listParameter(values: readonly (string | number)[] | null | undefined): string | undefined {
  return values && values.length > 0 ? values.join(',') : undefined;
}

/** A query string without the '?', leaving out null, undefined and empty lists. */
export function buildQuery(params: Readonly<Record<string, QueryValue>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    const text = Array.isArray(value) ? listParameter(value) : value === null || value === undefined ? undefined : String(value);
    if (text !== undefined) search.append(name, text);
  }
  return search.toString();
}
