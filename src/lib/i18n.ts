// The one wrapper around Paraglide's runtime. Section 1 maps the short codes 'en' to en-US and
// 'pseudo' to en-XA; everything else must already be one of our seven locales.
import { baseLocale, getLocale, locales, setLocale, type Locale } from '../paraglide/runtime.js';

export { baseLocale, getLocale, locales, setLocale };
export type { Locale };

const ALIASES: Readonly<Record<string, Locale>> = { en: 'en-US', pseudo: 'en-XA' };

export function isLocale(value: string): value is Locale {
  return (locales as readonly string[]).includes(value);
}

/** The locale a stored or requested code stands for, or the base locale when it is unknown. */
export function resolveLocale(code: string | null | undefined): Locale {
  if (!code) return baseLocale;
  const alias = ALIASES[code];
  if (alias) return alias;
  if (isLocale(code)) return code;
  // A browser tag such as 'de' or 'pt' picks the first locale of the same language.
  const language = code.split('-')[0]?.toLowerCase();
  return locales.find((l) => l.split('-')[0] === language && l !== 'en-XA') ?? baseLocale;
}
