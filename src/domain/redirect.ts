// Where a page may send the browser after an action that takes a `redirectUrl` (POST /logout,
// section 7: "optional redirectUrl query, sent as null from the navigation"). Only a place in this
// same site: anything that resolves to another origin is refused, or a link such as
// /logout?redirectUrl=https://evil.example would turn the studio into an open redirect.

/** The path (with query and fragment) that `raw` names on `origin`, or null when it is absent,
 *  the literal "null" the navigation sends, or anywhere else than `origin`. */
export function sameOriginPath(raw: string | null | undefined, origin: string): string | null {
  if (!raw || raw === 'null') return null;
  // Control characters and whitespace are dropped by URL parsing ("/\t/evil.example" is
  // "//evil.example"); a redirect never needs them.
  if (/[\u0000-\u0020\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    // Resolving against the origin reads "//host", "/\host" and (from an https page) "http:host"
    // as the browser would: as another host.
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  // Dot segments resolve before this check sees the path: "/..//evil.example" is the path
  // "//evil.example", which a Location header sends to evil.example (a scheme-relative URL), and
  // the browser reads "/\\host" the same way. A path of this site never starts with either.
  if (/^\/[/\\]/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
