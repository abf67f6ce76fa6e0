// Billing's documents: an invoice as a printable HTML page (the studio's browsers print it or save it
// as PDF), and the allowance notice mail. Every value goes into the HTML through `html`, escaped.
import { invoiceTotal, type InvoiceLine, type Measure, type Period } from '../../src/domain/billing.ts';
import { billingWords } from '../../src/domain/billing-words.ts';
import type { Mail } from '../mail/outbox.ts';
import { html, raw } from '../pages/html.ts';

const PAGE = 'margin:0 auto;max-width:720px;padding:32px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1b1d21;line-height:1.5';
const CELL = 'padding:8px;border-bottom:1px solid #d5d8de;text-align:left;vertical-align:top';
const AMOUNT = 'padding:8px;border-bottom:1px solid #d5d8de;text-align:right;white-space:nowrap';

export type InvoiceInput = {
  organizationName: string;
  period: Period;
  open: boolean;
  lines: readonly InvoiceLine[];
  billingContactName: string | null;
  billingContactEmail: string | null;
  computedAt: Date;
  interfaceLanguage: string | null;
};

export function invoiceHtml(input: InvoiceInput): string {
  const w = billingWords(input.interfaceLanguage);
  const title = w.invoice.title(input.period.id);
  const contact = input.billingContactName || input.billingContactEmail ? w.invoice.contact(input.billingContactName ?? '', input.billingContactEmail ? `<${input.billingContactEmail}>` : '') : null;
  return html`<!doctype html>
<html lang="${w.locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main style="${raw(PAGE)}">
<h1>${title}</h1>
<p>${w.invoice.for(input.organizationName)}<br>${w.invoice.period(input.period.start, input.period.end)}<br>${input.open ? w.invoice.open : w.invoice.closed}</p>
${contact ? html`<p>${contact}</p>` : ''}
<table style="width:100%;border-collapse:collapse">
<thead><tr><th style="${raw(CELL)}">${w.invoice.description}</th><th style="${raw(AMOUNT)}">${w.invoice.amount}</th></tr></thead>
<tbody>${input.lines.map((l) => html`<tr><td style="${raw(CELL)}">${w.line(l)}</td><td style="${raw(AMOUNT)}">${w.money(l.amountCents)}</td></tr>`)}</tbody>
<tfoot><tr><th style="${raw(CELL)}">${w.invoice.total}</th><th style="${raw(AMOUNT)}">${w.money(invoiceTotal(input.lines))}</th></tr></tfoot>
</table>
<p style="color:#5b6170;font-size:14px">${w.invoice.computed(input.computedAt)}</p>
</main></body>
</html>
`.text;
}

export type NoticeInput = {
  to: string;
  interfaceLanguage: string | null;
  organizationName: string;
  measure: Measure;
  used: number;
  allowance: number;
  percent: number;
  period: Period;
  maxOverage: number | null;
};

export function allowanceNoticeMail(input: NoticeInput): Mail {
  const w = billingWords(input.interfaceLanguage);
  const c = w.notice({ organization: input.organizationName, measure: input.measure, used: input.used, allowance: input.allowance, percent: input.percent, period: input.period.id, maxOverage: input.maxOverage });
  const text = `${c.body}\n\n${c.limit}\n`;
  const body = html`<!doctype html>
<html lang="${w.locale}"><head><meta charset="utf-8"><title>${c.subject}</title></head>
<body style="${raw(PAGE)}"><p>${c.body}</p><p>${c.limit}</p></body></html>
`.text;
  return { kind: 'billingAllowanceNotice', to: input.to, locale: w.locale, subject: c.subject, text, html: body };
}
