// The interface language (section 4): saving sends InterfaceLanguage and reloads the page.
import { setLocale, type Locale } from './i18n.ts';
import { call } from './api.ts';
import { updateMe } from './shell-routes.ts';

/** Each language named in itself; en-XA is the pseudo-locale. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  'en-US': 'English (United States)',
  'de-DE': 'Deutsch',
  'es-419': 'Español (Latinoamérica)',
  'fr-FR': 'Français',
  'it-IT': 'Italiano',
  'pt-BR': 'Português (Brasil)',
  'en-XA': '[Ƥşéûðö]',
};

/** Set for the reload after a language change (the translation warning words itself for it). */
export const LANGUAGE_CHANGED_KEY = 'castaway.languageChanged';

export async function changeLanguage(locale: Locale): Promise<void> {
  // Best effort online; the cookie keeps the choice on this device either way.
  await call(updateMe, { json: { InterfaceLanguage: locale } });
  sessionStorage.setItem(LANGUAGE_CHANGED_KEY, locale);
  void setLocale(locale); // reloads the page
}
