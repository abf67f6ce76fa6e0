// Object search for staff (issue 33, the Admin section's "Object search"; section 6: admin or
// support users): one box that finds an organization from whatever a customer sends support —
// an id, an address of the studio copied from their browser, a slug, a title or a person's e-mail.
//
//   "https://studio…/{org}/programs/{p}/clips/{c}"  ──> the ids in it (most specific first)
//   "3f2504e0-4f89-41d3-9a0c-0305e82c3301"          ──> that id, whatever it is the id of
//   "dana@example.com"                                ──> that person, and their organizations
//   "morning-briefing" / "Morning brief"              ──> slugs equal to it, titles containing it
//
// The screen and the server read the query with the same rule; the server answers rows of every
// organization, each saying whether the caller is a member (else the screen offers Grant access).
import { formError, type FormError } from './form-errors.ts';

export const STAFF_LOOKUP_QUERY_MAX_LENGTH = 500;
/** A title search needs this many characters: fewer match most of the studio. */
export const STAFF_LOOKUP_TEXT_MIN_LENGTH = 3;
/** At most this many rows of one kind are answered (the most recently changed first). */
export const STAFF_LOOKUP_PER_KIND = 20;

export const STAFF_LOOKUP_KINDS = ['Organization', 'Network', 'Program', 'Playlist', 'Clip', 'Recording', 'User'] as const;
export type StaffLookupKind = (typeof STAFF_LOOKUP_KINDS)[number];

export type StaffLookupQuery =
  | { kind: 'ids'; ids: string[] }
  | { kind: 'email'; email: string }
  | { kind: 'text'; text: string };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What the box holds, read as ids, an e-mail or text; or why it cannot be searched. */
export function readStaffLookup(raw: string): { query: StaffLookupQuery } | { error: FormError } {
  const text = raw.trim();
  if (text === '') return { error: formError('required') };
  if (text.length > STAFF_LOOKUP_QUERY_MAX_LENGTH) return { error: formError('tooLong', undefined, { max: STAFF_LOOKUP_QUERY_MAX_LENGTH }) };
  const ids = [...new Set((text.match(UUID) ?? []).map((id) => id.toLowerCase()))];
  // An address of the studio names the organization first and the object last: the last is what
  // was being looked at, so it is listed first.
  if (ids.length > 0) return { query: { kind: 'ids', ids: ids.reverse() } };
  if (EMAIL.test(text)) return { query: { kind: 'email', email: text.toLowerCase() } };
  if (text.length < STAFF_LOOKUP_TEXT_MIN_LENGTH) return { error: formError('tooShort', 'domain_staff_lookup_too_short', { min: STAFF_LOOKUP_TEXT_MIN_LENGTH }) };
  return { query: { kind: 'text', text } };
}

/** A LIKE pattern matching `text` anywhere, its own % _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Where a found row opens in the studio (section 2's routes); a user has no page of their own. */
export function staffLookupHref(row: { Kind: StaffLookupKind; Id: string; OrganizationId: string | null; ProgramId: string | null }): string | null {
  const org = row.OrganizationId;
  if (org === null) return null;
  switch (row.Kind) {
    case 'Organization':
      return `/${org}`;
    case 'Network':
      return `/${org}/networks`;
    case 'Program':
      return `/${org}/programs/${row.Id}`;
    case 'Playlist':
      return row.ProgramId ? `/${org}/programs/${row.ProgramId}/playlists/${row.Id}` : null;
    case 'Clip':
      return row.ProgramId ? `/${org}/programs/${row.ProgramId}/clips/${row.Id}` : null;
    case 'Recording':
      return row.ProgramId ? `/${org}/programs/${row.ProgramId}/recordings/${row.Id}` : null;
    case 'User':
      return `/${org}/users`;
  }
}
