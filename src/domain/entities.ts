// Entity kinds (section 3), their labels, references, titles, and route id parameters (section 2).
import type { InterfaceLocale as Locale } from './locales.ts';
import { entityLabelWords, untitledClip } from './label-words.ts';
import { isGuid } from './validators.ts';

export const EntityKind = {
  clip: 'clip',
  network: 'network',
  organization: 'organization',
  playlist: 'playlist',
  program: 'program',
  recording: 'recording',
} as const;
export type EntityKind = (typeof EntityKind)[keyof typeof EntityKind];
export const ENTITY_KINDS = Object.values(EntityKind);

export type LabelForm = 'singular' | 'plural' | 'capitalised';

export function entityLabel(kind: EntityKind, form: LabelForm = 'singular', locale?: Locale): string {
  return entityLabelWords(kind, form, locale);
}

/** A recording has no permission or setting operations. */
export function hasPermissionAndSettingOperations(kind: EntityKind): boolean {
  return kind !== 'recording';
}

export type EntityReference =
  | { type: 'organization'; id: string }
  | { type: Exclude<EntityKind, 'organization'>; id: string; organizationId: string };

export function entityReference(type: EntityKind, id: string, organizationId: string | null): EntityReference | null {
  if (type === 'organization') return { type, id };
  // Every other reference needs its organization: without it the reference is unusable.
  return organizationId === null ? null : { type, id, organizationId };
}

/** Content shows its title; only a clip has a fallback ('Untitled clip'), others are an error. */
export function contentTitle(
  kind: EntityKind,
  title: string | null | undefined,
  locale?: Locale,
): { ok: true; title: string } | { ok: false; error: 'UntitledContent' } {
  const trimmed = title?.trim();
  if (trimmed) return { ok: true, title: trimmed };
  if (kind === 'clip') return { ok: true, title: untitledClip(locale) };
  return { ok: false, error: 'UntitledContent' };
}

export const RouteIdParameter = {
  clipId: 'clip',
  networkId: 'network',
  organizationId: 'organization',
  playlistId: 'playlist',
  programId: 'program',
  recordingId: 'recording',
  enterpriseId: 'enterprise',
} as const;
export type RouteIdParameter = keyof typeof RouteIdParameter;

export type RouteIdResult =
  | { ok: true; id: string }
  | { ok: false; error: 'MissingParameter'; parameter: RouteIdParameter }
  | { ok: false; error: 'InvalidId'; parameter: RouteIdParameter; entityType: (typeof RouteIdParameter)[RouteIdParameter] };

/** A missing parameter raises a missing-parameter error; an invalid id names the entity type. */
export function routeId(params: Readonly<Record<string, string | undefined>>, parameter: RouteIdParameter): RouteIdResult {
  const value = params[parameter];
  if (value === undefined || value === '') return { ok: false, error: 'MissingParameter', parameter };
  if (!isGuid(value)) return { ok: false, error: 'InvalidId', parameter, entityType: RouteIdParameter[parameter] };
  return { ok: true, id: value.toLowerCase() };
}
