// Two-factor sign-in (issue 31): the rules of its codes, for the screens and the server alike.
//
//   off ──PUT /mfa/config──> setting up (a pending secret, shown as a QR code and a key)
//       ──PUT /mfa { Code }──> on (RECOVERY_CODE_COUNT recovery codes, shown once)
//   on ──DELETE /mfa/config (a code, a recovery code or the password)──> off
//   on ──an admin's DELETE /v1/users/{userId}/mfa──> off
//
// Sign-in of an account that has it on: the password, then a code of the app (TOTP, RFC 6238:
// MFA_DIGITS digits, a new one every MFA_PERIOD_SECONDS) or one recovery code.
import { formError, type FormError } from './form-errors.ts';

export const MFA_PERIOD_SECONDS = 30;
export const MFA_DIGITS = 6;
/** Steps either side of now whose codes are taken (a phone's clock a little off, a code typed slowly). */
export const MFA_WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
/** The issuer an authenticator app shows next to the account. */
export const MFA_ISSUER = 'Castaway Studio';

/** What a person types: spaces (apps show "123 456") are not part of the code. */
export function normalizeMfaCode(value: string): string {
  return value.replace(/\s+/g, '');
}

export function validateMfaCode(value: string | null | undefined): FormError | null {
  const code = normalizeMfaCode(value ?? '');
  if (code === '') return formError('required', 'domain_mfa_code_required');
  return new RegExp(`^\\d{${MFA_DIGITS}}$`).test(code) ? null : formError('invalid', 'domain_mfa_code_invalid');
}

/** Recovery codes are shown as XXXXX-XXXXX; typed in any case, with or without the dash or spaces. */
export function normalizeRecoveryCode(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

export function validateRecoveryCode(value: string | null | undefined): FormError | null {
  const code = normalizeRecoveryCode(value ?? '');
  if (code === '') return formError('required', 'domain_recovery_code_required');
  return /^[A-Z2-7]{10}$/.test(code) ? null : formError('invalid', 'domain_recovery_code_invalid');
}

/** A recovery code as it is shown: ten base32 characters in two groups. */
export function formatRecoveryCode(code: string): string {
  const plain = normalizeRecoveryCode(code);
  return `${plain.slice(0, 5)}-${plain.slice(5)}`;
}
