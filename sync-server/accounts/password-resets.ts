// Setting a password after sign-up (issue 31): the signed-in user's change, and the reset of a user
// who forgot theirs, by a mailed link.
//
//   POST /internal/account/password-reset { Email } ──> the job 'accounts.passwordReset' (the same
//     request for every address: the answer and its time say nothing of who has an account)
//     job: no live account with that address ──> nothing
//          otherwise ──> a token (32 random bytes, base64url) mailed as a link to
//          /account/reset-password?token=…, kept only as its SHA-256 hash, for an hour
//   PUT /internal/account/password-reset { Token, Password }:
//     no such token, or sent to an address the account no longer has ──> invalid
//     used before (this one, or any once one was used or the password changed) ──> used
//     past its expiry ──> expired
//     otherwise ──> setPassword: the password, every session of the account ended ──> done
//
// setPassword is the one way a password changes after the account was made: the hash, every reset
// link of the account used up, the account's sessions ended (all of them, or all but the caller's),
// every API key of the account revoked, the account's failed sign-ins forgotten, and the notice
// mailed to its address, in one transaction.
import * as z from 'zod';
import { newToken, revokeApiKeysOf, sha256 } from '../auth.ts';
import { now, type AppDeps } from '../app.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { sendMail } from '../mail/outbox.ts';
import { passwordChangedMail, passwordResetMail } from '../mail/templates.ts';
import type { Queryable } from '../store/store.ts';
import { FORGOT_PASSWORD_PATH, RESET_PASSWORD_PATH } from '../../src/protocol/api/account-security.ts';

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

export const PASSWORD_RESET_JOB = 'accounts.passwordReset';

export type ResetOutcome = 'done' | 'invalid' | 'used' | 'expired';

type AccountRow = { id: string; email: string; name: string; first_name: string; interface_language: string | null };

const recipient = (u: AccountRow, origin: string) => ({ to: u.email, name: u.first_name || u.name, interfaceLanguage: u.interface_language, resetLink: `${origin}${FORGOT_PASSWORD_PATH}` });

/** Queues the reset of `email`'s account, whether or not there is one, in the caller's transaction. */
export async function queuePasswordReset(q: Queryable, email: string, origin: string): Promise<void> {
  await enqueueJob(q, PASSWORD_RESET_JOB, { email: email.trim(), origin }, { maxAttempts: 3 });
}

/** Mails a reset link to the live account of `email`, if there is one. */
async function issuePasswordReset(q: Queryable, email: string, origin: string, at: Date): Promise<void> {
  const [user] = await q.query<AccountRow>(`SELECT id, email, name, first_name, interface_language FROM users WHERE lower(email) = lower($1) AND NOT deleted`, [email]);
  if (!user) return;
  const token = newToken();
  // Nothing else sweeps the table: resets a day past their expiry go as new ones are made.
  await q.query(`DELETE FROM password_resets WHERE expires_at_utc < $1`, [new Date(at.getTime() - 24 * PASSWORD_RESET_TTL_MS)]);
  await q.query(`INSERT INTO password_resets (token_hash, user_id, email, created_at_utc, expires_at_utc) VALUES ($1, $2, $3, $4, $5)`, [
    sha256(token),
    user.id,
    user.email,
    at,
    new Date(at.getTime() + PASSWORD_RESET_TTL_MS),
  ]);
  const link = `${origin}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
  await sendMail(q, passwordResetMail({ ...recipient(user, origin), link, expiresInMinutes: PASSWORD_RESET_TTL_MS / 60_000 }), at);
}

export function passwordResetJobs(deps: AppDeps): JobHandlers {
  return {
    [PASSWORD_RESET_JOB]: defineJob({
      payload: z.object({ email: z.string(), origin: z.string() }),
      run: ({ email, origin }) => deps.store.tx((q) => issuePasswordReset(q, email, origin, now(deps))),
    }),
  };
}

/**
 * Sets the user's password to `hash` (see the header); `keepSession`: the token hash of the one
 * session that stays (the caller's own change), or null for none (a reset). Returns the token
 * hashes of the sessions ended, for announceSessionEnded once this commits.
 */
export async function setPassword(q: Queryable, userId: string, hash: string, input: { keepSession: string | null; origin: string; at: Date }): Promise<string[]> {
  const [user] = await q.query<AccountRow>(
    `UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id, email, name, first_name, interface_language`,
    [userId, hash],
  );
  if (!user) throw new Error(`setPassword: no user ${userId}`);
  await q.query(`UPDATE password_resets SET used_at_utc = $2 WHERE user_id = $1 AND used_at_utc IS NULL`, [userId, input.at]);
  const ended = await q.query<{ token_hash: string }>(`DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2 RETURNING token_hash`, [userId, input.keepSession]);
  // Every API key too: whoever knew the old password could have made keys with it, and a key
  // outlives the sessions just ended (the notice says so).
  await revokeApiKeysOf(q, userId, input.at);
  // Whoever guessed at the old password locked the account's sign-in for a while: the new one works at once.
  await q.query(`DELETE FROM login_failures WHERE key = lower($1)`, [user.email]);
  await sendMail(q, passwordChangedMail(recipient(user, input.origin)), input.at);
  return ended.map((r) => r.token_hash);
}

/** Checks a reset token: the user it resets, or why not (nothing changes either way). */
export async function checkPasswordReset(q: Queryable, token: string, at: Date, lock = false): Promise<{ outcome: Exclude<ResetOutcome, 'done'> } | { outcome: 'done'; userId: string }> {
  const [row] = await q.query<{ user_id: string; email: string; expires_at_utc: Date; used_at_utc: Date | null; current_email: string }>(
    `SELECT r.user_id, r.email, r.expires_at_utc, r.used_at_utc, u.email AS current_email FROM password_resets r JOIN users u ON u.id = r.user_id
     WHERE r.token_hash = $1 AND NOT u.deleted${lock ? ' FOR UPDATE OF r' : ''}`,
    [sha256(token)],
  );
  if (!row || row.email.toLowerCase() !== row.current_email.toLowerCase()) return { outcome: 'invalid' };
  if (row.used_at_utc !== null) return { outcome: 'used' };
  if (new Date(row.expires_at_utc).getTime() <= at.getTime()) return { outcome: 'expired' };
  return { outcome: 'done', userId: row.user_id };
}
