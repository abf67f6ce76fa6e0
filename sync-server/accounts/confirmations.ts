// Confirming an account's e-mail address (issue 31; section 4: until then the session is
// 'unactivated', and the account reads but does not write).
//
//   account created, or a confirmation asked for again ──> a token (32 random bytes, base64url)
//     mailed as a link to /account/confirm?token=…, kept only as its SHA-256 hash, for 24 hours
//   POST /internal/users/me/email/status { Token } by the signed-in account:
//     no such token, another account's, or for an address the account no longer has ──> invalid
//     used before (this one, or any once the address was confirmed)                 ──> used
//     past its expiry                                                               ──> expired
//     otherwise ──> the account is activated, and every confirmation of it is used  ──> done
//
// A token is checked against the signed-in account, so a link alone (a forwarded mail, a
// mailbox read over someone's shoulder) confirms nothing for whoever holds it.
import { sha256, newToken } from '../auth.ts';
import type { Queryable } from '../store/store.ts';
import { accountConfirmationMail } from '../mail/templates.ts';
import { sendMail } from '../mail/outbox.ts';

export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

/** The studio screen a confirmation link opens (src/app: the confirmation screen reads `token`). */
export const CONFIRM_PATH = '/account/confirm';

export type ConfirmationOutcome = 'done' | 'invalid' | 'used' | 'expired';

/**
 * Makes a confirmation for the user's current address and queues its mail, in the caller's
 * transaction (the account and its mail are written together, or neither). `origin`: where the
 * link points (PUBLIC_URL, else the request's own origin).
 */
export async function issueConfirmation(
  q: Queryable,
  user: { id: string; email: string; name: string; interfaceLanguage: string | null },
  origin: string,
  at: Date,
): Promise<void> {
  const token = newToken();
  // Nothing else sweeps the table: confirmations a week past their expiry go as new ones are made.
  await q.query(`DELETE FROM email_confirmations WHERE expires_at_utc < $1`, [new Date(at.getTime() - 7 * CONFIRMATION_TTL_MS)]);
  await q.query(`INSERT INTO email_confirmations (token_hash, user_id, email, created_at_utc, expires_at_utc) VALUES ($1, $2, $3, $4, $5)`, [
    sha256(token),
    user.id,
    user.email,
    at,
    new Date(at.getTime() + CONFIRMATION_TTL_MS),
  ]);
  const link = `${origin}${CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
  await sendMail(q, accountConfirmationMail({ to: user.email, name: user.name, interfaceLanguage: user.interfaceLanguage, link, expiresInHours: CONFIRMATION_TTL_MS / 3_600_000 }), at);
}

/** Checks `token` for the user and, when it holds, activates the account; in the caller's transaction. */
export async function confirmEmail(q: Queryable, userId: string, token: string, at: Date): Promise<ConfirmationOutcome> {
  const [row] = await q.query<{ email: string; expires_at_utc: Date; used_at_utc: Date | null; current_email: string }>(
    `SELECT c.email, c.expires_at_utc, c.used_at_utc, u.email AS current_email FROM email_confirmations c JOIN users u ON u.id = c.user_id
     WHERE c.token_hash = $1 AND c.user_id = $2 AND NOT u.deleted FOR UPDATE OF c`,
    [sha256(token), userId],
  );
  if (!row || row.email.toLowerCase() !== row.current_email.toLowerCase()) return 'invalid';
  if (row.used_at_utc !== null) return 'used';
  if (new Date(row.expires_at_utc).getTime() <= at.getTime()) return 'expired';
  await q.query(`UPDATE email_confirmations SET used_at_utc = $2 WHERE user_id = $1 AND used_at_utc IS NULL`, [userId, at]);
  await q.query(`UPDATE users SET activated = true, modified_at_utc = $2, version = next_row_version() WHERE id = $1`, [userId, at]);
  return 'done';
}
