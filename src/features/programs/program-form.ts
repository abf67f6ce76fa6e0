// The program settings form as values a form holds (text, '' for none), and back: the change to
// queue (program.update), the rules it must pass before it is queued (the server runs the same:
// validateName, slugFieldError, src/domain/program-rules.ts), and the fields a refused change names.
import type { FormError } from '../../domain/form-errors.ts';
import { normaliseProgramPatch, programFieldErrors, programPodcast, type ProgramReference } from '../../domain/program-rules.ts';
import { slugServerError } from '../../domain/server-errors.ts';
import { slugFieldError } from '../../domain/slugs.ts';
import { validateName } from '../../domain/validators.ts';
import type { Program, ProgramPerson } from '../../protocol/entities.ts';

export type PersonValues = { Name: string; Role: string; Href: string };

export type ProgramFormValues = {
  Name: string;
  Slug: string;
  NetworkId: string;
  Description: string;
  Author: string;
  OwnerName: string;
  OwnerEmail: string;
  Language: string;
  Category: string;
  Subcategory: string;
  Explicit: boolean;
  Copyright: string;
  ItunesType: string;
  Locked: boolean;
  FundingUrl: string;
  FundingText: string;
  Link: string;
  Persons: PersonValues[];
};

/** A form field's error: a rule's (FormError) or a refused change's words. */
export type ProgramFormErrors = Record<string, FormError | string>;

export function toFormValues(p: Program): ProgramFormValues {
  const podcast = programPodcast(p);
  return {
    Name: p.Name ?? '',
    Slug: p.Slug ?? '',
    NetworkId: p.NetworkId ?? '',
    Description: p.Description ?? '',
    Author: podcast.Author ?? '',
    OwnerName: podcast.OwnerName ?? '',
    OwnerEmail: podcast.OwnerEmail ?? '',
    Language: podcast.Language ?? '',
    Category: podcast.Category ?? '',
    Subcategory: podcast.Subcategory ?? '',
    Explicit: podcast.Explicit,
    Copyright: podcast.Copyright ?? '',
    ItunesType: podcast.ItunesType ?? '',
    Locked: podcast.Locked,
    FundingUrl: podcast.FundingUrl ?? '',
    FundingText: podcast.FundingText ?? '',
    Link: podcast.Link ?? '',
    Persons: podcast.Persons.map((x: ProgramPerson) => ({ Name: x.Name, Role: x.Role, Href: x.Href ?? '' })),
  };
}

const orNull = (s: string): string | null => (s.trim() === '' ? null : s);

/** The changed fields as the change to queue (wire values, normalised as the server stores them). */
export function toPatch(changed: Partial<ProgramFormValues>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(changed)) {
    if (key === 'Explicit' || key === 'Locked') patch[key] = raw;
    else if (key === 'Persons') patch[key] = (raw as PersonValues[]).map((x) => ({ Name: x.Name, Role: x.Role, Href: orNull(x.Href) }));
    else if (key === 'Name') patch[key] = raw;
    else if (key === 'Slug') patch[key] = orNull(raw as string);
    else patch[key] = orNull(raw as string);
  }
  // A subcategory belongs to its category: a new category clears it unless it was chosen too.
  if ('Category' in changed && !('Subcategory' in changed)) patch['Subcategory'] = null;
  return normaliseProgramPatch(patch);
}

/**
 * Every field the change would be refused for that this device can tell: the name, the slug's
 * rules and (against the programs synced here) its uniqueness, and the podcast fields' rules.
 */
export function programFormErrors(
  program: Program | null,
  patch: Record<string, unknown>,
  reference: ProgramReference,
  slugTaken: (slug: string) => boolean,
): Record<string, FormError> {
  const errors: Record<string, FormError> = {};
  if (program === null || 'Name' in patch) {
    const name = validateName(patch['Name'] as string | null | undefined);
    if (name) errors['Name'] = name;
  }
  if ('Slug' in patch) {
    const slug = (patch['Slug'] as string | null) ?? null;
    const saved = program?.Slug ?? null;
    const rule = slugFieldError(slug, { owner: 'program', alwaysRequired: false, savedSlug: saved });
    if (rule) errors['Slug'] = rule;
    else if (slug !== null && slug !== saved && slugTaken(slug)) errors['Slug'] = slugServerError('SlugExists', 'program')!;
  }
  return { ...errors, ...programFieldErrors(program ?? {}, patch, reference) };
}
