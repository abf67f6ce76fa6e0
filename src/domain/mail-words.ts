// The words of the studio's e-mails (sync-server/mail/templates.ts), in the recipient's interface
// language: the server calls Paraglide's compiled messages with that locale explicitly, as the
// public pages do (page-words.ts). An account whose language is not one of the studio's reads
// English.
import * as m from '../paraglide/areas/mail.js';
import { baseLocale, locales, type Locale } from '../paraglide/runtime.js';

/** The studio locale of an account's InterfaceLanguage, else the base locale. */
export function mailLocale(interfaceLanguage: string | null | undefined): Locale {
  return (locales as readonly string[]).includes(interfaceLanguage ?? '') ? (interfaceLanguage as Locale) : baseLocale;
}

export type MailWords = ReturnType<typeof mailWords>;

export function mailWords(interfaceLanguage: string | null | undefined) {
  const locale = mailLocale(interfaceLanguage);
  const o = { locale };
  return {
    locale,
    greeting: (name: string) => m.mail_greeting({ name }, o),
    signature: m.mail_signature({}, o),
    linkHint: m.mail_link_hint({}, o),
    confirm: {
      subject: m.mail_confirm_subject({}, o),
      intro: m.mail_confirm_intro({}, o),
      action: m.mail_confirm_action({}, o),
      expiry: (hours: number) => m.mail_confirm_expiry({ hours }, o),
      ignore: m.mail_confirm_ignore({}, o),
    },
  };
}
