// Domain rules of section 5 (used for e-mail domains such as SSO or invitation allow-lists).
// Entries are split on semicolons; one leading '@' is allowed ("@example.com"), no other '@'.
import { DOMAIN_LABEL_MAX_LENGTH, DOMAIN_MAX_LENGTH } from './constants.ts';
import { formError, type FormError } from './form-errors.ts';

export const DomainRule = {
  SingleAt: 'singleAt',
  MaxLength: 'maxLength',
  Periods: 'periods',
  TwoLabels: 'twoLabels',
  LabelLength: 'labelLength',
  LabelHyphen: 'labelHyphen',
  LabelCharacters: 'labelCharacters',
} as const;
export type DomainRule = (typeof DomainRule)[keyof typeof DomainRule];

const invalid = (value: string, rule: DomainRule) => formError('invalid', 'domain_domain_invalid', { value }, rule);

export function validateDomain(entry: string): FormError | null {
  const value = entry.trim();
  const atCount = value.split('@').length - 1;
  if (atCount > 1 || (atCount === 1 && !value.startsWith('@'))) return invalid(value, 'singleAt');
  const domain = value.replace(/^@/, '');
  if (domain.length > DOMAIN_MAX_LENGTH) return formError('tooLong', 'domain_domain_too_long', { value, max: DOMAIN_MAX_LENGTH }, 'maxLength');
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) return invalid(value, 'periods');
  const labels = domain.split('.');
  if (labels.length < 2) return invalid(value, 'twoLabels');
  for (const label of labels) {
    if (label.length > DOMAIN_LABEL_MAX_LENGTH) {
      return formError('tooLong', 'domain_domain_label_too_long', { value, max: DOMAIN_LABEL_MAX_LENGTH }, 'labelLength');
    }
    if (label.startsWith('-') || label.endsWith('-')) return invalid(value, 'labelHyphen');
    if (!/^[A-Za-z0-9-]+$/.test(label)) return invalid(value, 'labelCharacters');
  }
  return null;
}

/** Every invalid entry of a semicolon-separated list; empty entries are dropped. */
export function validateDomains(value: string | null | undefined, options: { required?: boolean } = {}): FormError[] {
  const entries = (value ?? '').split(';').map((e) => e.trim()).filter((e) => e !== '');
  if (entries.length === 0) return options.required === true ? [formError('required', 'domain_required')] : [];
  return entries.map(validateDomain).filter((e): e is FormError => e !== null);
}
