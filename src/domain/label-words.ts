// The labels the first screens show (an untitled clip, season and episode, entity names), each
// called by its catalogue function. Not domainMessage (src/domain/messages.ts): its lookup by key
// keeps every domain message (24 KB gzip) in the bundle of whatever imports it, and the
// organization home and the error pages show only these.
import * as words from '../paraglide/areas/domain.js';
import type { InterfaceLocale as Locale } from './locales.ts';

type Message<I> = (inputs: I, options?: { locale?: Locale }) => string;

function say<I>(message: Message<I>, inputs: I, locale?: Locale): string {
  return locale === undefined ? message(inputs) : message(inputs, { locale });
}

export const untitledClip = (locale?: Locale): string => say(words.domain_untitled_clip, {}, locale);

export function seasonEpisodeWords(season: number | null, episode: number | null, locale?: Locale): string | null {
  if (season !== null && episode !== null) return say(words.domain_clip_label_season_episode, { season, episode }, locale);
  if (season !== null) return say(words.domain_clip_label_season, { season }, locale);
  if (episode !== null) return say(words.domain_clip_label_episode, { episode }, locale);
  return null;
}

type LabelKind = 'clip' | 'network' | 'organization' | 'playlist' | 'program' | 'recording';
type LabelForm = 'singular' | 'plural' | 'capitalised';

const ENTITY_LABELS: Record<LabelKind, Record<LabelForm, Message<object>>> = {
  clip: { singular: words.domain_entity_clip, plural: words.domain_entity_clip_plural, capitalised: words.domain_entity_clip_capitalised },
  network: { singular: words.domain_entity_network, plural: words.domain_entity_network_plural, capitalised: words.domain_entity_network_capitalised },
  organization: {
    singular: words.domain_entity_organization,
    plural: words.domain_entity_organization_plural,
    capitalised: words.domain_entity_organization_capitalised,
  },
  playlist: { singular: words.domain_entity_playlist, plural: words.domain_entity_playlist_plural, capitalised: words.domain_entity_playlist_capitalised },
  program: { singular: words.domain_entity_program, plural: words.domain_entity_program_plural, capitalised: words.domain_entity_program_capitalised },
  recording: { singular: words.domain_entity_recording, plural: words.domain_entity_recording_plural, capitalised: words.domain_entity_recording_capitalised },
};

export const entityLabelWords = (kind: LabelKind, form: LabelForm, locale?: Locale): string => say(ENTITY_LABELS[kind][form], {}, locale);
