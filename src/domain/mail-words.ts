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
  // In UTC, named so: the server knows no time zone of the reader's.
  const time = (at: Date) => `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
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
    reset: {
      subject: m.mail_reset_subject({}, o),
      intro: m.mail_reset_intro({}, o),
      action: m.mail_reset_action({}, o),
      expiry: (minutes: number) => m.mail_reset_expiry({ minutes }, o),
      ignore: m.mail_reset_ignore({}, o),
    },
    /** The closing of every security notice: what to do when the change was not the reader's. */
    notYou: { text: m.mail_not_you({}, o), action: m.mail_not_you_action({}, o) },
    passwordChanged: {
      subject: m.mail_password_changed_subject({}, o),
      intro: m.mail_password_changed_intro({}, o),
    },
    emailChange: {
      subject: m.mail_email_change_subject({}, o),
      intro: m.mail_email_change_intro({}, o),
      action: m.mail_confirm_action({}, o),
      expiry: (hours: number) => m.mail_email_change_expiry({ hours }, o),
      ignore: m.mail_email_change_ignore({}, o),
    },
    invitation: (inviter: string, organization: string) => ({
      subject: m.mail_invitation_subject({ inviter, organization }, o),
      intro: m.mail_invitation_intro({ inviter, organization }, o),
      action: m.mail_invitation_action({}, o),
      expiry: (days: number) => m.mail_invitation_expiry({ days, inviter }, o),
      ignore: m.mail_invitation_ignore({}, o),
    }),
    emailChanging: {
      subject: m.mail_email_changing_subject({}, o),
      intro: (email: string) => m.mail_email_changing_intro({ email }, o),
    },
    mfaEnabled: (at: Date) => ({ subject: m.mail_mfa_enabled_subject({}, o), intro: m.mail_mfa_enabled_intro({ time: time(at) }, o) }),
    mfaDisabled: (at: Date) => ({ subject: m.mail_mfa_disabled_subject({}, o), intro: m.mail_mfa_disabled_intro({ time: time(at) }, o) }),
    mfaReset: (at: Date, organization: string) => ({ subject: m.mail_mfa_reset_subject({}, o), intro: m.mail_mfa_reset_intro({ time: time(at), organization }, o) }),
    recoveryCodes: (at: Date) => ({ subject: m.mail_recovery_codes_subject({}, o), intro: m.mail_recovery_codes_intro({ time: time(at) }, o) }),
  };
}
