// Where the studio does not offer new accounts (specification sections 2, 7 and 8: 451
// 'Not available in your location', for US sanctions compliance). The one place the rule lives.
//
//   CASTAWAY_LOCATION_HEADER unset ──> every location is served (the studio cannot tell where a
//                                      client is, and does not guess from its address)
//   set (e.g. CF-IPCountry) ──> the request's header: a country code (ISO 3166-1 alpha-2) in
//                               CASTAWAY_UNSERVED_COUNTRIES ──> 451; any other value, or none ──> served
//
// The header is believed only because the operator named it: the proxy in front of the studio
// must set it on every request and overwrite what a client sent (Cloudflare does for
// CF-IPCountry), or anyone can write the country they like into it. Comprehensive US sanctions
// also cover regions of countries (Crimea, and the so-called DNR and LNR of Ukraine) that a
// country code cannot tell apart; a proxy that knows them can send a code of its own for them and
// the operator lists it here.
import type { Context } from 'hono';

/** The countries under comprehensive US sanctions (OFAC): Cuba, Iran, North Korea, Syria. */
export const DEFAULT_UNSERVED_COUNTRIES = ['CU', 'IR', 'KP', 'SY'] as const;

export type LocationPolicy = {
  /** The request header that names the client's country, as the operator configured it; null: not configured. */
  header: string | null;
  /** Upper-case country codes where new accounts are not offered. */
  unserved: ReadonlySet<string>;
};

const COUNTRY = /^[A-Z]{2}$/;

/** CASTAWAY_LOCATION_HEADER and CASTAWAY_UNSERVED_COUNTRIES ("CU, IR, KP, SY"; empty: none);
 * throws naming a value that is not a country code, so a typo does not go unnoticed. */
export function locationPolicy(env: { CASTAWAY_LOCATION_HEADER?: string | undefined; CASTAWAY_UNSERVED_COUNTRIES?: string | undefined } = process.env): LocationPolicy {
  const header = env.CASTAWAY_LOCATION_HEADER?.trim() || null;
  if (header !== null && !/^[A-Za-z0-9-]+$/.test(header)) throw new Error(`CASTAWAY_LOCATION_HEADER: "${header}" is not a header name`);
  const list = env.CASTAWAY_UNSERVED_COUNTRIES;
  const codes = list === undefined ? [...DEFAULT_UNSERVED_COUNTRIES] : list.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
  for (const code of codes) if (!COUNTRY.test(code)) throw new Error(`CASTAWAY_UNSERVED_COUNTRIES: "${code}" is not an ISO 3166-1 alpha-2 country code (e.g. CU, IR, KP, SY)`);
  return { header: header?.toLowerCase() ?? null, unserved: new Set(codes) };
}

/** The client's country when the policy does not serve it, else null. */
export function unservedCountry(c: Context, policy: LocationPolicy): string | null {
  if (policy.header === null) return null;
  const country = c.req.header(policy.header)?.trim().toUpperCase();
  return country && policy.unserved.has(country) ? country : null;
}
