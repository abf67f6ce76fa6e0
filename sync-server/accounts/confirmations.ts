// Confirming an account's e-mail address (issue 31; section 4: until then the session is
// 'unactivated', and the account reads but does not write).
//
//   account created, or a confirmation asked for again ──> a token (32 random bytes, base64url)
//     mailed as a link to /account/confirm?token=…, kept only as its SHA-256 hash, for 24 hours
//   POST /internal/users/me/email/status { Token } by the signed-in account:
//     no such token, or another account's                                           ──> invalid
//     used before (this one, or any once the address was confirmed)                 ──> used
//     for an address the account no longer has                                      ──> invalid
//     past its expiry                                                               ──> expired
//     otherwise ──> the account is activated, and every confirmation of it is used  ──> done
//
// An e-mail change (PUT /internal/users/me/email, api/account-security.ts) is a confirmation of the
// new address, asked for from the account's address then (previous_email). Confirmed while the
// account still has that address and no other account has taken the new one, the account's
// address becomes the new one and the account is activated (the link was opened from the new
// mailbox); the address changes only then, never at the request, so a mistyped or someone else's
// address never becomes the account's, and the account keeps an address that works meanwhile.
//     the account's address changed since the request, or a newer change was asked for ──> invalid
//     another account has the new address by now                                      ──> taken
//
// A token is checked against the signed-in account, so a link alone (a forwarded mail, a
// mailbox read over someone's shoulder) confirms nothing for whoever holds it.
import { sha256, newToken } from '../auth.ts';
import type { Queryable } from '../store/store.ts';
import { accountConfirmationMail, emailChangeMail } from '../mail/templates.ts';
import { sendMail } from '../mail/outbox.ts';

export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

/** The studio screen a confirmation link opens (src/app: the confirmation screen reads `token`). */
export const CONFIRM_PATH = '/account/confirm';

export type ConfirmationOutcome = 'done' | 'invalid' | 'used' | 'expired' | 'taken';

type Recipient = { id: string; email: string; name: string; interfaceLanguage: string | null };

/** Stores a new confirmation of `email` (a change from `previousEmail`, or an activation); returns its link. */
async function insertConfirmation(q: Queryable, user: Recipient, email: string, previousEmail: string | null, origin: string, at: Date): Promise<string> {
  const token = newToken();
  // Nothing else sweeps the table: confirmations a week past their expiry go as new ones are made.
  await q.query(`DELETE FROM email_confirmations WHERE expires_at_utc < $1`, [new Date(at.getTime() - 7 * CONFIRMATION_TTL_MS)]);
  await q.query(`INSERT INTO email_confirmations (token_hash, user_id, email, previous_email, created_at_utc, expires_at_utc) VALUES ($1, $2, $3, $4, $5, $6)`, [
    sha256(token),
    user.id,
    email,
    previousEmail,
    at,
    new Date(at.getTime() + CONFIRMATION_TTL_MS),
  ]);
  return `${origin}${CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * Makes a confirmation for the user's current address and queues its mail, in the caller's
 * transaction (the account and its mail are written together, or neither). `origin`: where the
 * link points (PUBLIC_URL, else the request's own origin).
 */
export async function issueConfirmation(q: Queryable, user: Recipient, origin: string, at: Date): Promise<void> {
  const link = await insertConfirmation(q, user, user.email, null, origin, at);
  await sendMail(q, accountConfirmationMail({ to: user.email, name: user.name, interfaceLanguage: user.interfaceLanguage, link, expiresInHours: CONFIRMATION_TTL_MS / 3_600_000 }), at);
}

/**
 * Asks to change the user's address (`user.email`, the current one) to `newEmail`: a confirmation
 * mailed to the new address, in the caller's transaction. A change asked for earlier and not yet
 * confirmed is dropped: only the latest link changes the address.
 */
export async function issueEmailChange(q: Queryable, user: Recipient, newEmail: string, origin: string, at: Date): Promise<void> {
  await q.query(`DELETE FROM email_confirmations WHERE user_id = $1 AND previous_email IS NOT NULL AND used_at_utc IS NULL`, [user.id]);
  const link = await insertConfirmation(q, user, newEmail, user.email, origin, at);
  await sendMail(q, emailChangeMail({ to: newEmail, name: user.name, interfaceLanguage: user.interfaceLanguage, link, expiresInHours: CONFIRMATION_TTL_MS / 3_600_000 }), at);
}

/** Checks `token` for the user and, when it holds, activates the account; in the caller's transaction. */
export async function confirmEmail(q: Queryable, userId: string, token: string, at: Date): Promise<ConfirmationOutcome> {
  const [row] = await q.query<{ email: string; previous_email: string | null; expires_at_utc: Date; used_at_utc: Date | null; current_email: string }>(
    `SELECT c.email, c.previous_email, c.expires_at_utc, c.used_at_utc, u.email AS current_email FROM email_confirmations c JOIN users u ON u.id = c.user_id
     WHERE c.token_hash = $1 AND c.user_id = $2 AND NOT u.deleted FOR UPDATE OF c`,
    [sha256(token), userId],
  );
  if (!row) return 'invalid';
  if (row.used_at_utc !== null) return 'used';
  if ((row.previous_email ?? row.email).toLowerCase() !== row.current_email.toLowerCase()) return 'invalid';
  if (new Date(row.expires_at_utc).getTime() <= at.getTime()) return 'expired';
  const change = row.previous_email !== null;
  // Deleted accounts keep their address (the unique index covers them): taken as much as a live one.
  if (change && (await q.query(`SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2`, [row.email, userId])).length > 0) return 'taken';
  await q.query(`UPDATE email_confirmations SET used_at_utc = $2 WHERE user_id = $1 AND used_at_utc IS NULL`, [userId, at]);
  await q.query(`UPDATE users SET activated = true, email = $3, modified_at_utc = $2, version = next_row_version() WHERE id = $1`, [userId, at, change ? row.email : row.current_email]);
  return 'done';
}
