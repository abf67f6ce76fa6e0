// Limits on account creation, re-sent confirmation mails, password reset mails and checks of the
// current password (api/account.ts, api/account-security.ts), kept in the database (every
// instance behind a load balancer counts the same attempts), counted as sign-in failures are
// (api/session.ts): one statement per attempt, so parallel attempts cannot all read a count below
// the limit, in a window that starts at the key's first attempt.
import type { Queryable } from '../store/store.ts';

export const THROTTLE_WINDOW_MS = 60 * 60 * 1000;
/** Accounts one address may be asked for in a window: a typo and a retry, not a probe of which
 * addresses have accounts (that answer is a 400 at Email: api/account.ts says why). */
export const ACCOUNT_MAX_PER_ADDRESS = 5;
/** Accounts one client address may ask for in a window, whatever addresses it names (each costs a
 * scrypt hash; an office behind one address rarely makes more than a few organizations an hour). */
export const ACCOUNT_MAX_PER_CLIENT = 10;
/** Confirmation mails one account may ask for again in a window (each is a mail to a mailbox). */
export const ACTIVATION_MAX_PER_USER = 5;
/** Password reset links one address may be sent in a window, whether it has an account or not
 * (the answer is the same: api/account-security.ts). */
export const RESET_MAX_PER_ADDRESS = 5;
/** Password reset requests one client address may make in a window, whatever addresses it names. */
export const RESET_MAX_PER_CLIENT = 20;
/** Checks of one account's current password in a window (a password or e-mail change): each costs
 * a scrypt hash, and a stolen session must not become a way to guess the password. */
export const CURRENT_PASSWORD_MAX_PER_USER = 10;

/** Invitations (and re-sent ones) one member may send in a window: a team invited at once, not a
 * studio used to send mail to strangers. */
export const INVITATIONS_MAX_PER_INVITER = 50;
/** Invitations (and re-sent ones) one address may be sent in a window, from any organization: a
 * mailbox is not flooded through the studio. */
export const INVITATIONS_MAX_PER_ADDRESS = 5;

export const throttleKey = {
  address: (email: string) => `account:${email.trim().toLowerCase()}`,
  client: (address: string) => `account-client:${address}`,
  activation: (userId: string) => `activation:${userId}`,
  resetAddress: (email: string) => `password-reset:${email.trim().toLowerCase()}`,
  resetClient: (address: string) => `password-reset-client:${address}`,
  currentPassword: (userId: string) => `current-password:${userId}`,
  inviter: (userId: string) => `invitation-inviter:${userId}`,
  invitedAddress: (email: string) => `invitation-address:${email.trim().toLowerCase()}`,
};

/**
 * Counts an attempt against `key`; returns the seconds to wait when it is over `max`, else null.
 * Windows that ended are deleted on the way (nothing else sweeps the table).
 */
export async function reserveAttempt(q: Queryable, key: string, at: Date, max: number, windowMs = THROTTLE_WINDOW_MS): Promise<number | null> {
  await q.query(`DELETE FROM account_throttles WHERE window_start_utc <= $1::timestamptz - make_interval(secs => $2) AND key <> $3`, [at, windowMs / 1000, key]);
  const [row] = await q.query<{ attempts: number; window_start_utc: Date }>(
    `INSERT INTO account_throttles (key, attempts, window_start_utc) VALUES ($1, 1, $2)
     ON CONFLICT (key) DO UPDATE SET
       attempts = CASE WHEN account_throttles.window_start_utc > $2::timestamptz - make_interval(secs => $3) THEN account_throttles.attempts + 1 ELSE 1 END,
       window_start_utc = CASE WHEN account_throttles.window_start_utc > $2::timestamptz - make_interval(secs => $3) THEN account_throttles.window_start_utc ELSE $2 END
     RETURNING attempts, window_start_utc`,
    [key, at, windowMs / 1000],
  );
  if (row!.attempts <= max) return null;
  return Math.max(1, Math.ceil((new Date(row!.window_start_utc).getTime() + windowMs - at.getTime()) / 1000));
}
