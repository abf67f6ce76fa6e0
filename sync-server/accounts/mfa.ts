// Two-factor sign-in's secrets and codes (issue 31; the states: src/domain/mfa.ts; the routes:
// api/mfa.ts and sign-in, api/session.ts; the tables: migrations/0517_mfa.sql).
//
//   a code of the app ──throttle (MFA_CODE_MAX_PER_USER an hour, 429)──> the step it was made at,
//     within MFA_WINDOW_STEPS of now ──after the last step taken (else "already used")──> taken:
//     last_used_step moves to it, in one statement (two requests with one code: one wins)
//   a recovery code ──throttle──> its hash, unused ──> marked used in one statement
//
// Each change of it (on, off by the owner or by an admin, new recovery codes) mails a notice to the
// account's own address in the change's transaction (sendMfaNotice): whoever made it with a stolen
// session, the owner reads of it and has the way back in the mail.
//
// The TOTP key is kept as the app has it (base32): the server needs it to check codes and the
// studio has no key of its own to encrypt secrets with. No call answers it once set-up is
// confirmed (README, "Two-factor sign-in").
import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { formError, type FormError } from '../../src/domain/form-errors.ts';
import { MFA_DIGITS, MFA_ISSUER, MFA_PERIOD_SECONDS, MFA_WINDOW_STEPS, RECOVERY_CODE_COUNT, formatRecoveryCode, normalizeMfaCode, normalizeRecoveryCode } from '../../src/domain/mfa.ts';
import { FORGOT_PASSWORD_PATH } from '../../src/protocol/api/account-security.ts';
import { sha256 } from '../auth.ts';
import { AppError, badRequest, fieldError } from '../errors.ts';
import { sendMail, type Mail } from '../mail/outbox.ts';
import type { Queryable } from '../store/store.ts';
import { reserveAttempt } from './throttle.ts';

/** Codes (of the app or recovery codes) one account may have checked in an hour, at sign-in and at
 * turning it off together: a million possible codes, three good at a time, are not guessed in 10. */
export const MFA_CODE_MAX_PER_USER = 10;
const throttleKey = (userId: string) => `mfa-code:${userId}`;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totp(secret: string, label = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer: MFA_ISSUER, label, algorithm: 'SHA1', digits: MFA_DIGITS, period: MFA_PERIOD_SECONDS, secret: OTPAuth.Secret.fromBase32(secret) });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/** The time step `code` was made at, within MFA_WINDOW_STEPS of `at`; null when it is no code of the key then. */
export function codeStep(secret: string, code: string, at: Date): number | null {
  const delta = totp(secret).validate({ token: normalizeMfaCode(code), timestamp: at.getTime(), window: MFA_WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / MFA_PERIOD_SECONDS) + delta;
}

/** RECOVERY_CODE_COUNT new codes as shown (XXXXX-XXXXX: 50 random bits each), and their hashes. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => formatRecoveryCode([...randomBytes(10)].map((b) => alphabet[b & 31]).join('')));
  return { codes, hashes: codes.map(recoveryCodeHash) };
}

export function recoveryCodeHash(code: string): string {
  return sha256(normalizeRecoveryCode(code));
}

/** Replaces every recovery code of the account with `hashes` (newRecoveryCodes). */
export async function replaceRecoveryCodes(q: Queryable, userId: string, hashes: string[]): Promise<void> {
  await q.query(`DELETE FROM mfa_recovery_codes WHERE user_id = $1`, [userId]);
  await q.query(`INSERT INTO mfa_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`, [userId, hashes]);
}

/** Whether the account has two-factor sign-in on. */
export async function mfaEnabled(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM user_mfa WHERE user_id = $1 AND enabled_at_utc IS NOT NULL`, [userId]);
  return rows.length > 0;
}

/** Counts a check of a code of the account (429 with Retry-After past MFA_CODE_MAX_PER_USER). */
export async function countCodeAttempt(q: Queryable, userId: string, at: Date): Promise<void> {
  const wait = await reserveAttempt(q, throttleKey(userId), at, MFA_CODE_MAX_PER_USER);
  if (wait !== null) throw new AppError(429, undefined, { 'Retry-After': String(wait) });
}

export type SecondFactor = { field: string; kind: 'code' | 'recovery'; value: string };

/**
 * Takes a second factor of an account that has two-factor sign-in on: counted first (429 with
 * Retry-After past the limit), then checked and used up. Refused: 400 at `field`.
 */
export async function takeSecondFactor(q: Queryable, userId: string, factor: SecondFactor, at: Date): Promise<void> {
  await countCodeAttempt(q, userId, at);
  const refuse = (error: FormError) => badRequest([fieldError(factor.field, error)]);
  if (factor.kind === 'recovery') {
    const used = await q.query(
      `UPDATE mfa_recovery_codes SET used_at_utc = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at_utc IS NULL
         AND EXISTS (SELECT 1 FROM user_mfa WHERE user_id = $1 AND enabled_at_utc IS NOT NULL) RETURNING 1`,
      [userId, recoveryCodeHash(factor.value), at],
    );
    if (used.length === 0) throw refuse(formError('invalid', 'domain_recovery_code_invalid'));
  } else {
    const [row] = await q.query<{ secret: string | null }>(`SELECT secret FROM user_mfa WHERE user_id = $1 AND enabled_at_utc IS NOT NULL`, [userId]);
    const step = row?.secret ? codeStep(row.secret, factor.value, at) : null;
    if (step === null) throw refuse(formError('invalid', 'domain_mfa_code_invalid'));
    const taken = await q.query(`UPDATE user_mfa SET last_used_step = $2 WHERE user_id = $1 AND last_used_step < $2 RETURNING 1`, [userId, step]);
    if (taken.length === 0) throw refuse(formError('invalid', 'domain_mfa_code_used'));
  }
  await clearCodeAttempts(q, userId);
}

/** A code that worked: the count starts again (the owner signing in all day is not locked out). */
export async function clearCodeAttempts(q: Queryable, userId: string): Promise<void> {
  await q.query(`DELETE FROM account_throttles WHERE key = $1`, [throttleKey(userId)]);
}

/** Whom a notice goes to, and the way back in when the change was not theirs. */
export type NoticeRecipient = { to: string; name: string; interfaceLanguage: string; resetLink: string };

/** Queues the notice `template` makes to the account's own address, in the caller's transaction. */
export async function sendMfaNotice(q: Queryable, userId: string, template: (recipient: NoticeRecipient) => Mail, input: { origin: string; at: Date }): Promise<void> {
  const [u] = await q.query<{ email: string; name: string; first_name: string; interface_language: string }>(`SELECT email, name, first_name, interface_language FROM users WHERE id = $1`, [userId]);
  if (!u) throw new Error(`sendMfaNotice: no user ${userId}`);
  await sendMail(q, template({ to: u.email, name: u.first_name || u.name, interfaceLanguage: u.interface_language, resetLink: `${input.origin}${FORGOT_PASSWORD_PATH}` }), input.at);
}
