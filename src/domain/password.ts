// Password rules of section 5. The minimum length is the caller's (the spec leaves it open);
// PASSWORD_MIN_LENGTH is ours.
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { formError, type DomainMessageKey, type FormError } from './form-errors.ts';

export function validatePassword(
  value: string | null | undefined,
  options: { minLength?: number; requiredMessage?: DomainMessageKey } = {},
): FormError | null {
  const min = options.minLength ?? PASSWORD_MIN_LENGTH;
  if (value === null || value === undefined || value === '') return formError('required', options.requiredMessage ?? 'domain_password_required');
  if (value.length < min) return formError('tooShort', 'domain_password_too_short', { minPasswordLength: min });
  return validatePasswordMaxLength(value);
}

/** Refused before it is hashed, at sign-in too: scrypt's work grows with its input, so a very long
 * "password" would be a cheap way to spend the server's CPU, and no password we store is longer. */
export function validatePasswordMaxLength(value: string): FormError | null {
  return value.length > PASSWORD_MAX_LENGTH ? formError('tooLong', 'domain_password_too_long', { maxPasswordLength: PASSWORD_MAX_LENGTH }) : null;
}

export type PasswordChange = {
  /** Left out where something else stands for it (a password reset link): not checked. */
  currentPassword?: string;
  newPassword: string;
  confirmPassword: string;
  /** The new password the server rejected last time (too common, breached…). */
  previouslyRejected?: string | null;
};

export type PasswordChangeErrors = Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', FormError>>;

export function validatePasswordChange(change: PasswordChange, options: { minLength?: number } = {}): PasswordChangeErrors {
  const errors: PasswordChangeErrors = {};
  const current = change.currentPassword === undefined ? null : validatePassword(change.currentPassword, { minLength: 0, requiredMessage: 'domain_password_current_required' });
  if (current) errors.currentPassword = current;
  const next = validatePassword(change.newPassword, { ...options, requiredMessage: 'domain_password_new_required' });
  if (next) errors.newPassword = next;
  else if (change.previouslyRejected != null && change.newPassword === change.previouslyRejected) {
    errors.newPassword = formError('previouslyRejected', 'domain_password_previously_rejected');
  }
  if (change.confirmPassword !== change.newPassword) errors.confirmPassword = formError('doesNotMatch', 'domain_password_does_not_match');
  return errors;
}
