// The contact-support form (sections 3 and 5): its checks, its prefill, and the request body with
// AdditionalInfo and BrowserLocale cut to their limits (truncateText: the device cuts before
// sending, the server again on arrival). A cut is reported so that the caller can send an error
// report: support then knows the context it received is incomplete.
import { BUILD_VERSION, CONTACT_ADDITIONAL_INFO_MAX, CONTACT_BROWSER_LOCALE_MAX } from './constants.ts';
import { formError, type FormError } from './form-errors.ts';
import { isEmail } from './validators.ts';

export type ContactForm = { ContactName: string; ContactEmail: string; ContactEnquiry: string };
export type ContactFormErrors = Partial<Record<keyof ContactForm, FormError>>;

export function contactPrefill(user: { name: string | null; email: string | null } | null, defaultMessage = ''): ContactForm {
  return { ContactName: user?.name ?? '', ContactEmail: user?.email ?? '', ContactEnquiry: defaultMessage };
}

export function validateContactForm(form: ContactForm): ContactFormErrors {
  const errors: ContactFormErrors = {};
  if (form.ContactName.trim() === '') errors.ContactName = formError('required', 'domain_contact_name_required');
  const email = form.ContactEmail.trim();
  if (email === '') errors.ContactEmail = formError('required', 'domain_contact_email_required');
  else if (!isEmail(email)) errors.ContactEmail = formError('emailInvalid', 'domain_contact_email_invalid');
  if (form.ContactEnquiry.trim() === '') errors.ContactEnquiry = formError('required', 'domain_contact_enquiry_blank');
  return errors;
}

let graphemes: Intl.Segmenter | null = null;

/**
 * `value` cut to at most `max` UTF-16 code units (the unit of the specification's limits, and of
 * String.length) without splitting a character: the cut falls on a grapheme boundary, so an emoji
 * with its modifiers or joiners, a surrogate pair, or a letter with its combining marks is kept
 * whole or left out whole. The result may be a little shorter than `max`; never longer.
 */
export function truncateText(value: string, max: number): string {
  if (value.length <= max) return value;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let end = 0;
  for (const { index, segment } of graphemes.segment(value)) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return value.slice(0, end);
}

export type ContactRequest = ContactForm & {
  AdditionalInfo: string;
  BrowserLocale: string;
  SourceUrl: string;
  ClientVersion: string;
};

export type Truncation = { field: 'AdditionalInfo' | 'BrowserLocale'; originalLength: number; limit: number };

export function buildContactRequest(
  form: ContactForm,
  context: { additionalInfo: string; browserLocale: string; sourceUrl: string; clientVersion?: string },
): { request: ContactRequest; truncations: Truncation[] } {
  const truncations: Truncation[] = [];
  const cut = (field: Truncation['field'], value: string, limit: number) => {
    if (value.length <= limit) return value;
    truncations.push({ field, originalLength: value.length, limit });
    return truncateText(value, limit);
  };
  const request: ContactRequest = {
    ContactName: form.ContactName.trim(),
    ContactEmail: form.ContactEmail.trim(),
    ContactEnquiry: form.ContactEnquiry,
    AdditionalInfo: cut('AdditionalInfo', context.additionalInfo, CONTACT_ADDITIONAL_INFO_MAX),
    BrowserLocale: cut('BrowserLocale', context.browserLocale, CONTACT_BROWSER_LOCALE_MAX),
    SourceUrl: context.sourceUrl,
    ClientVersion: context.clientVersion ?? BUILD_VERSION,
  };
  return { request, truncations };
}
