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

/** The mail that confirms a new account's address: its link opens the studio's confirmation screen. */
export function accountConfirmationMail(input: { to: string; name: string; interfaceLanguage: string | null; link: string; expiresInHours: number }): Mail {
  const w = mailWords(input.interfaceLanguage);
  const c = w.confirm;
  const text = paragraphs(w.greeting(input.name), c.intro, input.link, c.expiry(input.expiresInHours), c.ignore, `— ${w.signature}`);
  const content = html`<p>${w.greeting(input.name)}</p>
<p>${c.intro}</p>
<p style="margin:24px 0"><a href="${input.link}" style="${raw(BUTTON)}">${c.action}</a></p>
<p style="font-size:14px;color:#5b6170">${w.linkHint}<br><a href="${input.link}" style="word-break:break-all">${input.link}</a></p>
<p>${c.expiry(input.expiresInHours)}</p>
<p style="font-size:14px;color:#5b6170">${c.ignore}</p>`;
  return { kind: 'accountConfirmation', to: input.to, locale: w.locale, subject: c.subject, text, html: page(w, c.subject, content) };
}
