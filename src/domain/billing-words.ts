// The words of billing's server-made documents (invoices, allowance notices: sync-server/billing),
// in a reader's interface language: the server calls Paraglide's compiled messages of the billing
// area with that locale explicitly, as mail-words.ts does. The screens use the same messages.
import * as m from '../paraglide/areas/billing.js';
import { baseLocale, locales, type Locale } from '../paraglide/runtime.js';
import { formatCents, type AddOnType, type Feature, type InvoiceLine, type Measure } from './billing.ts';

/** The studio locale of a reader's InterfaceLanguage, else the base locale (as mail-words.ts; not
 * imported from there, which would bring every mail's words into the billing screen). */
function readerLocale(interfaceLanguage: string | null | undefined): Locale {
  return (locales as readonly string[]).includes(interfaceLanguage ?? '') ? (interfaceLanguage as Locale) : baseLocale;
}

type Options = { locale?: Locale };

export const MEASURE_LABEL: Record<Measure, (o?: Options) => string> = {
  storedAudioHours: (o) => m.billing_measure_stored_audio_hours({}, o),
  downloads: (o) => m.billing_measure_downloads({}, o),
  seats: (o) => m.billing_measure_seats({}, o),
  transcriptionMinutes: (o) => m.billing_measure_transcription_minutes({}, o),
};

export const ADD_ON_LABEL: Record<AddOnType, (o?: Options) => string> = {
  TranscriptionMinutes: (o) => m.billing_addon_transcription_minutes({}, o),
  ExtraStorage: (o) => m.billing_addon_extra_storage({}, o),
  ExtraSeats: (o) => m.billing_addon_extra_seats({}, o),
  AdvancedAnalytics: (o) => m.billing_addon_advanced_analytics({}, o),
  ApplePremium: (o) => m.billing_addon_apple_premium({}, o),
};

export const FEATURE_LABEL: Record<Feature, (o?: Options) => string> = {
  'playlist-download-analytics': (o) => m.billing_feature_playlist_download_analytics({}, o),
  'apple-premium': (o) => m.billing_feature_apple_premium({}, o),
  'automatic-transcription': (o) => m.billing_feature_automatic_transcription({}, o),
};

export type BillingWords = ReturnType<typeof billingWords>;

export function billingWords(interfaceLanguage: string | null | undefined) {
  const locale = readerLocale(interfaceLanguage);
  const o = { locale };
  const number = (n: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(n);
  const day = (at: Date) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
  return {
    locale,
    number,
    day,
    money: (cents: number) => formatCents(cents, locale),
    measure: (measure: Measure) => MEASURE_LABEL[measure](o),
    addOn: (type: AddOnType) => ADD_ON_LABEL[type](o),
    invoice: {
      title: (period: string) => m.billing_invoice_title({ period }, o),
      for: (organization: string) => m.billing_invoice_for({ organization }, o),
      period: (start: Date, endExclusive: Date) => m.billing_invoice_period({ start: day(start), end: day(new Date(endExclusive.getTime() - 1)) }, o),
      contact: (name: string, email: string) => m.billing_invoice_contact({ name, email }, o),
      description: m.billing_invoice_description({}, o),
      amount: m.billing_invoice_amount({}, o),
      total: m.billing_invoice_total({}, o),
      open: m.billing_invoice_status_open({}, o),
      closed: m.billing_invoice_status_closed({}, o),
      computed: (at: Date) => m.billing_invoice_computed({ when: `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC` }, o),
    },
    line(line: InvoiceLine): string {
      if (line.kind === 'plan') return m.billing_line_plan({ plan: line.plan }, o);
      if (line.kind === 'addOn') return m.billing_line_add_on({ addOn: ADD_ON_LABEL[line.addOn](o), quantity: line.quantity }, o);
      return m.billing_line_overage(
        { measure: MEASURE_LABEL[line.measure](o), used: number(line.used), allowance: number(line.allowance), units: number(line.billedUnits), price: formatCents(line.unitCents, locale), per: number(line.per) },
        o,
      );
    },
    notice: (input: { organization: string; measure: Measure; used: number; allowance: number; percent: number; period: string; maxOverage: number | null }) => {
      const words = { organization: input.organization, measure: MEASURE_LABEL[input.measure](o), percent: Math.floor(input.percent), used: number(input.used), allowance: number(input.allowance), period: input.period };
      return {
        subject: m.billing_notice_subject(words, o),
        body: m.billing_notice_body(words, o),
        limit: input.maxOverage === null ? m.billing_notice_unlimited({}, o) : m.billing_notice_limit({ max: number(input.maxOverage) }, o),
      };
    },
  };
}
