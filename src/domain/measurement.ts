// Measurement URL prefixes (issue 33; specification section 7 "/v1/settings" and
// "/v1/settings/validate-url-prefix"): third-party download measurement (OP3, Podtrac, Chartable
// and the like) works by a redirect put in front of every enclosure URL of the public feeds. A
// listener's app asks the measurement service, which counts the download and redirects to the
// audio. The organization keeps its prefixes on its row (MeasurementPrefixes, a list in the order
// a listener's request passes through them); the feed builder (sync-server/feeds/feed-data.ts),
// the settings screen's preview and the server's check all make the URL with measuredUrl.
//
//   enclosure      https://studio.example/audio/1f0c….mp3
//   one prefix     https://op3.dev/e/ + studio.example/audio/1f0c….mp3       (scheme dropped)
//   two, in order  https://op3.dev/e/ + dts.podtrac.com/redirect.mp3/ + studio.example/audio/…
//                  (the first one the listener reaches is the first in the list)
//
// The services take the address without its scheme and put https:// back when they redirect, so
// a prefix is https itself, names a host, has a path that ends in "/" for the rest to follow, and
// has no query or fragment (the rest would land in them). Nothing here fetches a prefix: whether
// the service answers is for the service's own dashboard to show; the check is syntactic.
import { formError, type FormError } from './form-errors.ts';
import { absoluteUrl, publicPaths } from './public-urls.ts';

/** A chain longer than this is a mistake (each hop costs the listener a redirect). */
export const MEASUREMENT_PREFIXES_MAX = 3;
/** Long enough for a chain pasted as one prefix ("https://op3.dev/e/dts.podtrac.com/redirect.mp3/"). */
export const MEASUREMENT_PREFIX_MAX_LENGTH = 500;

/** The characters a URL holds unencoded (RFC 3986); anything else is a paste gone wrong. */
const URL_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** One prefix: https, a host with a dot, a path ending in "/", no query, fragment or credentials. */
export function validateMeasurementPrefix(value: string | null | undefined): FormError | null {
  if (value === null || value === undefined || value === '') return formError('required', 'domain_url_required');
  if (value.length > MEASUREMENT_PREFIX_MAX_LENGTH) return formError('tooLong', 'domain_url_too_long', { max: MEASUREMENT_PREFIX_MAX_LENGTH });
  if (!URL_CHARS.test(value)) return formError('urlInvalid', 'domain_url_invalid');
  if (!/^https:\/\//i.test(value)) return formError('urlInvalid', 'domain_measurement_prefix_https');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return formError('urlInvalid', 'domain_url_invalid');
  }
  const host = url.hostname;
  if (host === '' || !host.includes('.') || host.startsWith('.') || host.endsWith('.')) return formError('urlInvalid', 'domain_measurement_prefix_host');
  if (url.username !== '' || url.password !== '') return formError('urlInvalid', 'domain_measurement_prefix_credentials');
  if (value.includes('?') || value.includes('#')) return formError('urlInvalid', 'domain_measurement_prefix_query');
  if (url.pathname === '/' || url.pathname === '') return formError('urlInvalid', 'domain_measurement_prefix_path');
  if (!value.endsWith('/')) return formError('urlInvalid', 'domain_measurement_prefix_slash');
  return null;
}

/** The list: at most MEASUREMENT_PREFIXES_MAX, none twice (each checked by validateMeasurementPrefix). */
export function validateMeasurementPrefixList(prefixes: readonly string[]): FormError | null {
  if (prefixes.length > MEASUREMENT_PREFIXES_MAX) return formError('invalid', 'domain_measurement_prefix_too_many', { max: MEASUREMENT_PREFIXES_MAX });
  const seen = new Set(prefixes.map((p) => p.toLowerCase()));
  return seen.size === prefixes.length ? null : formError('invalid', 'domain_measurement_prefix_twice', undefined, 'duplicate');
}

/** Every error of a list, by its field: "MeasurementPrefixes" for the list, "MeasurementPrefixes.{i}" for one. */
export function measurementPrefixErrors(prefixes: readonly string[]): Array<[string, FormError | null]> {
  return [['MeasurementPrefixes', validateMeasurementPrefixList(prefixes)], ...prefixes.map((p, i): [string, FormError | null] => [`MeasurementPrefixes.${i}`, validateMeasurementPrefix(p)])];
}

/** The prefixes a row holds (absent on rows that never set any: none). */
export function measurementPrefixesOf(row: Readonly<Record<string, unknown>>): string[] {
  const value = row['MeasurementPrefixes'];
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string' && p !== '') : [];
}

const SCHEME = /^https?:\/\//i;

/** The enclosure URL a listener's app is given: the prefixes in front, each taking the rest without its scheme. */
export function measuredUrl(enclosureUrl: string, prefixes: readonly string[]): string {
  let url = enclosureUrl;
  for (let i = prefixes.length - 1; i >= 0; i--) url = `${prefixes[i]}${url.replace(SCHEME, '')}`;
  return url;
}

/** A clip id no clip has: the example enclosure of a preview. */
const EXAMPLE_CLIP_ID = '00000000-0000-4000-8000-000000000000';

/** An enclosure as this studio's feeds write one, on its public origin: what a preview shows measured. */
export const exampleEnclosureUrl = (origin: string): string => absoluteUrl(publicPaths.audio(EXAMPLE_CLIP_ID, 'mp3'), origin);
