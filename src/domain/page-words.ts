// The words of the public pages (show pages and the embed player), in the language of the program
// they show: its podcast Language ('de', 'pt-br', …) picks the studio locale of that language, and
// English where the studio has none. The page's lang attribute is the program's own language, so
// a screen reader reads the episode titles and notes in it.
import * as m from '../paraglide/areas/pages.js';
import { baseLocale, locales, type Locale } from '../paraglide/runtime.js';

export type PageWords = ReturnType<typeof pageWords>;

/** The studio locale for a language code: the first of the same language, else the base locale. */
export function pageLocale(language: string | null | undefined): Locale {
  const primary = (language ?? '').split('-')[0]?.toLowerCase();
  if (!primary) return baseLocale;
  return locales.find((l) => l !== 'en-XA' && l.split('-')[0] === primary) ?? baseLocale;
}

export function pageWords(language: string | null | undefined) {
  const locale = pageLocale(language);
  const o = { locale };
  return {
    locale,
    /** The lang attribute: the program's language as given, else English (as its feed says). */
    lang: language && /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(language) ? language : 'en',
    untitled: m.pages_untitled({}, o),
    podcast: m.pages_podcast({}, o),
    episodes: m.pages_episodes({}, o),
    noEpisodes: m.pages_no_episodes({}, o),
    moreInFeed: m.pages_more_in_feed({}, o),
    subscribe: m.pages_subscribe({}, o),
    rssFeed: m.pages_rss_feed({}, o),
    showNotes: m.pages_show_notes({}, o),
    chapters: m.pages_chapters({}, o),
    allEpisodes: (program: string) => m.pages_all_episodes({ program }, o),
    play: m.pages_play({}, o),
    pause: m.pages_pause({}, o),
    of: m.pages_of({}, o),
    seek: m.pages_seek({}, o),
    speed: m.pages_speed({}, o),
    madeWith: m.pages_made_with({}, o),
    listen: (title: string) => m.pages_listen({ title }, o),
    date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
  };
}
