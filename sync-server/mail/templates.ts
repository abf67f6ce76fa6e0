// The studio's e-mails, each as plain text and as HTML, in the recipient's interface language
// (src/domain/mail-words.ts, locales/mail). Every value that is not the template's own goes into
// the HTML through `html` (sync-server/pages/html.ts), escaped: a name holding "<script>" is text.
// The HTML is a single narrow column with inline styles, the most mail clients render alike.
import { mailWords, type MailWords } from '../../src/domain/mail-words.ts';
import { html, raw, type Html } from '../pages/html.ts';
import type { Mail } from './outbox.ts';

const BUTTON = 'display:inline-block;padding:12px 20px;border-radius:6px;background:#1f5fbf;color:#ffffff;text-decoration:none;font-weight:600';
const BODY = 'margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1b1d21';
const CARD = 'max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px';

function page(w: MailWords, title: string, content: Html): string {
  return html`<!doctype html>
<html lang="${w.locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="${raw(BODY)}"><div style="${raw(CARD)}">${content}<p style="margin-top:32px;color:#5b6170">${w.signature}</p></div></body>
</html>
`.text;
}

/** The paragraphs of the text part, a blank line between each. */
const paragraphs = (...parts: string[]) => `${parts.join('\n\n')}\n`;

type MailInput = { to: string; name: string; interfaceLanguage: string | null };

/** A mail whose point is one link (a button, and the address for clients that show no button):
 * greeting, what it is, the link, how long it works, what to do if it was not asked for. */
function linkMail(kind: string, input: MailInput & { link: string }, words: (w: MailWords) => { subject: string; intro: string; action: string; expiry: string; ignore: string }): Mail {
  const w = mailWords(input.interfaceLanguage);
  const c = words(w);
  const text = paragraphs(w.greeting(input.name), c.intro, input.link, c.expiry, c.ignore, `— ${w.signature}`);
  const content = html`<p>${w.greeting(input.name)}</p>
<p>${c.intro}</p>
<p style="margin:24px 0"><a href="${input.link}" style="${raw(BUTTON)}">${c.action}</a></p>
<p style="font-size:14px;color:#5b6170">${w.linkHint}<br><a href="${input.link}" style="word-break:break-all">${input.link}</a></p>
<p>${c.expiry}</p>
<p style="font-size:14px;color:#5b6170">${c.ignore}</p>`;
  return { kind, to: input.to, locale: w.locale, subject: c.subject, text, html: page(w, c.subject, content) };
}

/** A security notice: what changed, and the way to take the account back when it was not the
 * reader (`resetLink`: the studio's password reset request screen). */
function noticeMail(kind: string, input: MailInput & { resetLink: string }, words: (w: MailWords) => { subject: string; intro: string }): Mail {
  const w = mailWords(input.interfaceLanguage);
  const c = words(w);
  const text = paragraphs(w.greeting(input.name), c.intro, w.notYou.text, input.resetLink, `— ${w.signature}`);
  const content = html`<p>${w.greeting(input.name)}</p>
<p>${c.intro}</p>
<p>${w.notYou.text}</p>
<p style="margin:24px 0"><a href="${input.resetLink}" style="${raw(BUTTON)}">${w.notYou.action}</a></p>
<p style="font-size:14px;color:#5b6170">${w.linkHint}<br><a href="${input.resetLink}" style="word-break:break-all">${input.resetLink}</a></p>`;
  return { kind, to: input.to, locale: w.locale, subject: c.subject, text, html: page(w, c.subject, content) };
}

/** The mail that confirms a new account's address: its link opens the studio's confirmation screen. */
export function accountConfirmationMail(input: MailInput & { link: string; expiresInHours: number }): Mail {
  return linkMail('accountConfirmation', input, (w) => ({ ...w.confirm, expiry: w.confirm.expiry(input.expiresInHours) }));
}

/** The mail that confirms the address an account asked to change to (the same confirmation screen). */
export function emailChangeMail(input: MailInput & { link: string; expiresInHours: number }): Mail {
  return linkMail('emailChange', input, (w) => ({ ...w.emailChange, expiry: w.emailChange.expiry(input.expiresInHours) }));
}

/** The mail with a password reset link: it opens the studio's reset screen. */
export function passwordResetMail(input: MailInput & { link: string; expiresInMinutes: number }): Mail {
  return linkMail('passwordReset', input, (w) => ({ ...w.reset, expiry: w.reset.expiry(input.expiresInMinutes) }));
}

/** The invitation into an organization: its link opens the studio's accept screen. `name` is the
 * account's first name when the address has one, else the address itself. */
export function invitationMail(input: MailInput & { link: string; inviterName: string; organizationName: string; expiresInDays: number }): Mail {
  return linkMail('invitation', input, (w) => {
    const words = w.invitation(input.inviterName, input.organizationName);
    return { ...words, expiry: words.expiry(input.expiresInDays) };
  });
}

/** The notice that the account's password changed (by its owner, or through a reset link). */
export function passwordChangedMail(input: MailInput & { resetLink: string }): Mail {
  return noticeMail('passwordChanged', input, (w) => w.passwordChanged);
}

/** The notice to an account's confirmed address that a change to `newEmail` was asked for. */
export function emailChangingMail(input: MailInput & { resetLink: string; newEmail: string }): Mail {
  return noticeMail('emailChanging', input, (w) => ({ subject: w.emailChanging.subject, intro: w.emailChanging.intro(input.newEmail) }));
}

/** The notice that the account's owner turned two-factor sign-in on, at `at`. */
export function mfaEnabledMail(input: MailInput & { resetLink: string; at: Date }): Mail {
  return noticeMail('mfaEnabled', input, (w) => w.mfaEnabled(input.at));
}

/** The notice that the account's owner turned two-factor sign-in off, at `at`. */
export function mfaDisabledMail(input: MailInput & { resetLink: string; at: Date }): Mail {
  return noticeMail('mfaDisabled', input, (w) => w.mfaDisabled(input.at));
}

/** The notice that an admin of `organizationName` turned the account's two-factor sign-in off. */
export function mfaResetMail(input: MailInput & { resetLink: string; at: Date; organizationName: string }): Mail {
  return noticeMail('mfaReset', input, (w) => w.mfaReset(input.at, input.organizationName));
}

/** The notice that new recovery codes replaced the account's old ones; never the codes themselves. */
export function recoveryCodesRegeneratedMail(input: MailInput & { resetLink: string; at: Date }): Mail {
  return noticeMail('recoveryCodesRegenerated', input, (w) => w.recoveryCodes(input.at));
}

/** A contact enquiry for the support team's address (CASTAWAY_SUPPORT_EMAIL). In English, the
 * studio's staff language (the sender's own words are as they wrote them); Reply-To is not set
 * (the outbox has no such field), so the sender's address leads the text. */
export function supportEnquiryMail(input: { to: string; enquiry: { ContactName: string; ContactEmail: string; ContactEnquiry: string; AdditionalInfo?: string | null | undefined; SourceUrl?: string | null | undefined; BrowserLocale?: string | null | undefined; ClientVersion?: string | null | undefined }; organizationName: string | null; inboxLink: string }): Mail {
  const w = mailWords('en-US');
  const e = input.enquiry;
  const subject = `Support enquiry from ${e.ContactName}`;
  const facts: Array<[string, string | null | undefined]> = [
    ['From', `${e.ContactName} <${e.ContactEmail}>`],
    ['Organization', input.organizationName],
    ['Page', e.SourceUrl],
    ['Browser language', e.BrowserLocale],
    ['Studio version', e.ClientVersion],
  ];
  const shown = facts.filter((f): f is [string, string] => typeof f[1] === 'string' && f[1] !== '');
  const text = paragraphs(shown.map(([k, v]) => `${k}: ${v}`).join('\n'), e.ContactEnquiry, ...(e.AdditionalInfo ? [`Additional information:\n${e.AdditionalInfo}`] : []), `Support inbox: ${input.inboxLink}`);
  const content = html`<table style="font-size:14px;border-collapse:collapse">${shown.map(([k, v]) => html`<tr><td style="padding:2px 12px 2px 0;color:#5b6170">${k}</td><td>${v}</td></tr>`)}</table>
<p style="white-space:pre-wrap">${e.ContactEnquiry}</p>
${e.AdditionalInfo ? html`<p style="font-size:14px;color:#5b6170;white-space:pre-wrap">${e.AdditionalInfo}</p>` : null}
<p style="margin:24px 0"><a href="${input.inboxLink}" style="${raw(BUTTON)}">Open the support inbox</a></p>`;
  return { kind: 'supportEnquiry', to: input.to, locale: w.locale, subject, text, html: page(w, subject, content) };
}
