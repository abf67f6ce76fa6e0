// What a change of a program's podcast settings must obey, once: the program screens run these
// before they save and the server (sync-server/mutations/content.ts) before it writes, so a form
// refuses what the server would, offline too. Name and Slug keep their own rules (validators.ts
// validateName, slugs.ts slugFieldError); these are the fields a feed's channel is made of.
//
//   change ──normaliseProgramPatch──> what is stored ──programFieldErrors(change, reference)──> { Field: FormError }
//   row ──programPodcast──> every podcast field, with the defaults of a row made before them
import { NAME_MAX_LENGTH, TITLE_MAX_LENGTH } from './constants.ts';
import { formError, type FormError } from './form-errors.ts';
import { validateEmail, validateUrl } from './validators.ts';
import type { ProgramPerson, ProgramPodcast } from '../protocol/entities.ts';

/** Podcasting 2.0 says a <podcast:funding> text should not exceed 128 characters. */
export const FUNDING_TEXT_MAX_LENGTH = 128;
export const PROGRAM_PERSONS_MAX = 100;
/** Roles of the Podcasting 2.0 person taxonomy a show most often names (the form offers them;
 * any other role of the taxonomy may be typed). */
export const COMMON_PERSON_ROLES = ['host', 'co-host', 'guest', 'producer', 'editor', 'composer', 'cover art designer'] as const;
export const ITUNES_TYPES = ['episodic', 'serial'] as const;

/** The podcast fields of a program with nothing set: what a row made before them means. */
export function emptyProgramPodcast(): ProgramPodcast {
  return {
    Author: null,
    OwnerName: null,
    OwnerEmail: null,
    Language: null,
    Category: null,
    Subcategory: null,
    Explicit: false,
    Copyright: null,
    ItunesType: null,
    Locked: false,
    FundingUrl: null,
    FundingText: null,
    Persons: [],
    Link: null,
  };
}

export const PROGRAM_PODCAST_FIELDS = Object.keys(emptyProgramPodcast()) as ReadonlyArray<keyof ProgramPodcast>;

/** Every podcast field of a program row, absent ones as their defaults (null, false, []). */
export function programPodcast(row: Readonly<Record<string, unknown>>): ProgramPodcast {
  const out = emptyProgramPodcast() as Record<string, unknown>;
  for (const field of PROGRAM_PODCAST_FIELDS) if (row[field] !== undefined && row[field] !== null) out[field] = row[field];
  return out as ProgramPodcast;
}

/** The reference lists the Language, Category and Subcategory come from; null when the caller
 * has no copy (a device that never fetched them): then only the server checks membership. */
export type ProgramReference = {
  languages: ReadonlyArray<{ readonly Code: string }> | null;
  categories: ReadonlyArray<{ readonly Id: string; readonly Subcategories: ReadonlyArray<{ readonly Id: string }> }> | null;
};

/** The podcast fields a change may carry (the wire's, all optional). */
export type ProgramPodcastChange = { [K in keyof ProgramPodcast]?: ProgramPodcast[K] | undefined };

const TEXT_FIELDS = ['Author', 'OwnerName', 'OwnerEmail', 'Language', 'Category', 'Subcategory', 'Copyright', 'FundingUrl', 'FundingText', 'Link'] as const;

const blankToNull = (v: string | null | undefined): string | null | undefined => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v);

/** The change as it is stored: texts trimmed, an empty text is none, a language code in lower
 * case, a person's empty Href is none. Fields left out stay left out. */
export function normaliseProgramPatch<P extends ProgramPodcastChange>(patch: P): P {
  const out: Record<string, unknown> = { ...patch };
  for (const field of TEXT_FIELDS) if (field in patch) out[field] = blankToNull(patch[field]);
  if (typeof out['Language'] === 'string') out['Language'] = out['Language'].toLowerCase();
  if (Array.isArray(patch.Persons)) {
    out['Persons'] = patch.Persons.map((p: ProgramPerson) => ({ Name: p.Name.trim(), Role: p.Role.trim(), Href: blankToNull(p.Href) ?? null }));
  }
  return out as P;
}

function maxLength(value: string | null | undefined, max: number, message?: 'domain_name_too_long'): FormError | null {
  return typeof value === 'string' && value.length > max ? formError('tooLong', message, message ? { max } : undefined) : null;
}

/** The field name a 400 and a form use for a person's field: 'Persons[0].Name'. */
export const personField = (index: number, field: keyof ProgramPerson) => `Persons[${index}].${field}`;

/**
 * Every podcast field the change (already normalised) would be refused for, keyed by field; {}
 * when it may be saved. `current` is the program before the change (its stored podcast fields):
 * a Subcategory is judged against the Category it will have after the change.
 *
 * - Author, OwnerName: names, at most 255 characters. Copyright at most 255.
 * - OwnerEmail: an e-mail address when given (section 5).
 * - FundingUrl, Link: http(s) URLs when given (section 5); FundingText needs a FundingUrl and
 *   has at most 128 characters.
 * - Language: a reference language Code; Category a reference category Id; Subcategory one of
 *   that Category's subcategory Ids (and never without a Category).
 * - Persons: each with a Name and a Role, an http(s) Href when given; at most 100.
 */
export function programFieldErrors(
  current: Readonly<Record<string, unknown>>,
  patch: ProgramPodcastChange,
  reference: ProgramReference,
): Record<string, FormError> {
  const errors: Record<string, FormError> = {};
  const put = (field: string, error: FormError | null) => {
    if (error) errors[field] = error;
  };
  const now = programPodcast(current);
  const after = <K extends keyof ProgramPodcast>(field: K): ProgramPodcast[K] => (patch[field] !== undefined ? (patch[field] as ProgramPodcast[K]) : now[field]);

  if ('Author' in patch) put('Author', maxLength(patch.Author, TITLE_MAX_LENGTH, 'domain_name_too_long'));
  if ('OwnerName' in patch) put('OwnerName', maxLength(patch.OwnerName, TITLE_MAX_LENGTH, 'domain_name_too_long'));
  if ('OwnerEmail' in patch) put('OwnerEmail', validateEmail(patch.OwnerEmail, { required: false }));
  if ('Copyright' in patch) put('Copyright', maxLength(patch.Copyright, TITLE_MAX_LENGTH));
  if ('Link' in patch) put('Link', validateUrl(patch.Link));
  if ('FundingUrl' in patch || 'FundingText' in patch) {
    const url = after('FundingUrl');
    put('FundingUrl', validateUrl(url, { required: after('FundingText') !== null }));
    if ('FundingText' in patch) put('FundingText', maxLength(patch.FundingText, FUNDING_TEXT_MAX_LENGTH));
  }
  if (typeof patch.Language === 'string' && reference.languages && !reference.languages.some((l) => l.Code === patch.Language)) {
    put('Language', formError('invalid', 'domain_invalid'));
  }
  if ('Category' in patch || 'Subcategory' in patch) {
    const categoryId = after('Category');
    const subcategoryId = after('Subcategory');
    const category = categoryId === null ? null : (reference.categories?.find((c) => c.Id === categoryId) ?? null);
    if (categoryId !== null && reference.categories && !category) put('Category', formError('invalid', 'domain_invalid'));
    if (subcategoryId !== null) {
      if (categoryId === null) put('Category', formError('required', 'domain_required'));
      else if (category && !category.Subcategories.some((s) => s.Id === subcategoryId)) put('Subcategory', formError('invalid', 'domain_invalid'));
    }
  }
  if (Array.isArray(patch.Persons)) {
    if (patch.Persons.length > PROGRAM_PERSONS_MAX) put('Persons', formError('tooLong', 'domain_invalid'));
    patch.Persons.forEach((person, i) => {
      put(personField(i, 'Name'), person.Name.trim() === '' ? formError('required', 'domain_name_required') : maxLength(person.Name, NAME_MAX_LENGTH, 'domain_name_too_long'));
      put(personField(i, 'Role'), person.Role.trim() === '' ? formError('required', 'domain_required') : maxLength(person.Role, NAME_MAX_LENGTH));
      put(personField(i, 'Href'), validateUrl(person.Href ?? null));
    });
  }
  return errors;
}
