// Two-factor sign-in (issue 31; specification section 7 "Account" and DELETE /v1/users/{userId}/mfa;
// the routes: src/protocol/api/mfa.ts; codes and secrets: accounts/mfa.ts).
//
//   GET    /internal/users/me/mfa/config ──> the state; Setup only while setting up
//   PUT    /internal/users/me/mfa/config ──403 (an API key; not activated) ──400 (already on)
//     ──> a new pending key
//   PUT    /internal/users/me/mfa { Code } ──403 ──400 at Code (no set-up, not a code of the key)
//     ──429 ──> on, RECOVERY_CODE_COUNT recovery codes answered once; the account's other
//     sessions end (they were signed in without the second factor), this one gets a new id
//   DELETE /internal/users/me/mfa/config ──403 (an API key) ──400 at Code (no proof) ──400 at
//     the proof's field ──429 ──> off (a set-up not confirmed is dropped without proof)
//   POST   /internal/users/me/mfa/recovery-codes { Code } ──403 (an API key) ──400 at Code (not a
//     code) ──400 at body (off) ──429 ──400 at Code (wrong) ──> RECOVERY_CODE_COUNT new codes
//     answered once, every old one gone
//   DELETE /v1/users/{userId}/mfa ──403 (no HasManageUserAccess at organization scope) ──404 (not a
//     member of this organization) ──> off
//
// Turning it on, off (by the owner or an admin) and new recovery codes each queue a notice to the
// account's address in the change's transaction (accounts/mfa.ts sendMfaNotice); dropping a set-up
// never confirmed protected nothing and mails nothing.
//
// Only the person changes it: a signed-in session, never an API key (a leaked key must not be able
// to lock its owner out, or to turn a protection off). Setting up needs an activated account:
// section 4 shows Account settings to activated sessions only.
import type { Context } from 'hono';
import { formError } from '../../src/domain/form-errors.ts';
import * as routes from '../../src/protocol/api/mfa.ts';
import { mfaDisableProof, type MfaConfig } from '../../src/protocol/api/mfa.ts';
import { validateMfaCode } from '../../src/domain/mfa.ts';
import { ServerErrorCode } from '../../src/protocol/errors.ts';
import { announceSessionEnded, getAuth, loadCaller, rotateSession } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError, notFound, unauthorized } from '../errors.ts';
import { verifyPassword } from '../passwords.ts';
import { now } from '../app.ts';
import { clearCodeAttempts, codeStep, countCodeAttempt, mfaEnabled, newRecoveryCodes, newTotpSecret, otpauthUri, replaceRecoveryCodes, sendMfaNotice, takeSecondFactor } from '../accounts/mfa.ts';
import { CURRENT_PASSWORD_MAX_PER_USER, reserveAttempt, throttleKey } from '../accounts/throttle.ts';
import { mfaDisabledMail, mfaEnabledMail, mfaResetMail, recoveryCodesRegeneratedMail } from '../mail/templates.ts';
import { mailOrigin } from '../public-origin.ts';
import { guard, notActivated } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

type MfaRow = { secret: string | null; enabled_at_utc: Date | null; pending_secret: string | null };

/** The caller, in a signed-in session of their own (not an API key: 403 with a body). */
export async function person(c: Context, options: { activated: boolean }) {
  const caller = await loadCaller(c);
  if (!caller) throw unauthorized();
  if (!('tokenHash' in caller)) {
    throw new AppError(403, { Errors: [fieldError('Authorization', formError('invalid', 'domain_mfa_by_key', undefined, ServerErrorCode.ApiKeyByKey))] });
  }
  if (options.activated && !caller.user.Activated) throw notActivated();
  return caller;
}

export function mfaRoutes() {
  return resourceApp()
    .openapi(guarded(routes.getMfaConfig, guard.user()), async (c) => {
      const caller = await loadCaller(c);
      if (!caller) throw unauthorized();
      const { store } = c.get('deps');
      const [row] = await store.query<MfaRow & { left: number }>(
        `SELECT secret, enabled_at_utc, pending_secret,
           (SELECT count(*)::int FROM mfa_recovery_codes r WHERE r.user_id = m.user_id AND r.used_at_utc IS NULL) AS left
         FROM user_mfa m WHERE user_id = $1`,
        [caller.user.Id],
      );
      const enabled = row?.enabled_at_utc != null;
      const config: MfaConfig = {
        Enabled: enabled,
        EnabledAtUtc: enabled ? new Date(row!.enabled_at_utc!).toISOString() : null,
        RecoveryCodesLeft: enabled ? Number(row!.left) : 0,
        // The pending key is shown to the session that set it up, and to no API key.
        Setup: row?.pending_secret && 'tokenHash' in caller ? { Secret: row.pending_secret, Uri: otpauthUri(row.pending_secret, caller.user.Email) } : null,
      };
      return c.json(config, 200);
    })
    .openapi(guarded(routes.startMfaSetup, guard.user()), async (c) => {
      const { user } = await person(c, { activated: true });
      const deps = c.get('deps');
      const at = now(deps);
      const [row] = await deps.store.query<{ enabled_at_utc: Date | null }>(
        `INSERT INTO user_mfa (user_id, pending_secret, pending_created_at_utc) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET pending_secret = $2, pending_created_at_utc = $3 WHERE user_mfa.enabled_at_utc IS NULL
         RETURNING enabled_at_utc`,
        [user.Id, newTotpSecret(), at],
      );
      if (!row) throw badRequest([fieldError('body', formError('invalid', 'domain_mfa_already_enabled'))]);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.confirmMfa, guard.user()), async (c) => {
      const caller = await person(c, { activated: true });
      const deps = c.get('deps');
      const { Code } = c.req.valid('json');
      assertValid([['Code', validateMfaCode(Code)]]);
      const at = now(deps);
      const origin = mailOrigin(c);
      await countCodeAttempt(deps.store, caller.user.Id, at);
      const { codes, hashes } = newRecoveryCodes();
      const ended = await deps.store.tx(async (q) => {
        const [row] = await q.query<MfaRow>(`SELECT secret, enabled_at_utc, pending_secret FROM user_mfa WHERE user_id = $1 FOR UPDATE`, [caller.user.Id]);
        if (!row?.pending_secret || row.enabled_at_utc) throw badRequest([fieldError('Code', formError('invalid', 'domain_mfa_not_pending'))]);
        const step = codeStep(row.pending_secret, Code, at);
        if (step === null) throw badRequest([fieldError('Code', formError('invalid', 'domain_mfa_code_invalid'))]);
        await q.query(
          `UPDATE user_mfa SET secret = pending_secret, enabled_at_utc = $2, last_used_step = $3, pending_secret = NULL, pending_created_at_utc = NULL WHERE user_id = $1`,
          [caller.user.Id, at, step],
        );
        await clearCodeAttempts(q, caller.user.Id);
        await replaceRecoveryCodes(q, caller.user.Id, hashes);
        const rows = await q.query<{ token_hash: string }>(`DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash`, [caller.user.Id, caller.tokenHash]);
        await sendMfaNotice(q, caller.user.Id, (r) => mfaEnabledMail({ ...r, at }), { origin, at });
        return rows.map((r) => r.token_hash);
      });
      for (const tokenHash of ended) announceSessionEnded(tokenHash);
      await rotateSession(c);
      return c.json({ RecoveryCodes: codes } satisfies routes.MfaConfirmed, 200);
    })
    .openapi(guarded(routes.disableMfa, guard.user()), async (c) => {
      const { user } = await person(c, { activated: false });
      const deps = c.get('deps');
      const at = now(deps);
      const [row] = await deps.store.query<MfaRow>(`SELECT secret, enabled_at_utc, pending_secret FROM user_mfa WHERE user_id = $1`, [user.Id]);
      if (row?.enabled_at_utc) {
        const proof = mfaDisableProof(c.req.valid('json'));
        if (!proof) throw badRequest([fieldError('Code', formError('required', 'domain_mfa_proof_required'))]);
        assertValid([[proof.field, proof.error]]);
        if (proof.field === 'CurrentPassword') {
          const wait = await reserveAttempt(deps.store, throttleKey.currentPassword(user.Id), at, CURRENT_PASSWORD_MAX_PER_USER);
          if (wait !== null) throw new AppError(429, undefined, { 'Retry-After': String(wait) });
          const [u] = await deps.store.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = $1`, [user.Id]);
          if (!u || !(await verifyPassword(proof.value, u.password_hash))) throw badRequest([fieldError('CurrentPassword', formError('invalid', 'domain_password_wrong'))]);
        } else {
          await takeSecondFactor(deps.store, user.Id, { field: proof.field, kind: proof.field === 'Code' ? 'code' : 'recovery', value: proof.value }, at);
        }
      }
      const proved = row?.enabled_at_utc != null;
      const origin = mailOrigin(c);
      await deps.store.tx(async (q) => {
        // Without a proof only a set-up not confirmed goes: one confirmed since it was read stays on.
        const [gone] = await q.query<{ enabled_at_utc: Date | null }>(`DELETE FROM user_mfa WHERE user_id = $1 AND ($2 OR enabled_at_utc IS NULL) RETURNING enabled_at_utc`, [user.Id, proved]);
        if (!gone?.enabled_at_utc) return;
        await q.query(`DELETE FROM mfa_recovery_codes WHERE user_id = $1`, [user.Id]);
        await sendMfaNotice(q, user.Id, (r) => mfaDisabledMail({ ...r, at }), { origin, at });
      });
      return c.body(null, 204);
    })
    .openapi(guarded(routes.regenerateRecoveryCodes, guard.user()), async (c) => {
      const { user } = await person(c, { activated: false });
      const deps = c.get('deps');
      const { Code } = c.req.valid('json');
      assertValid([['Code', validateMfaCode(Code)]]);
      const off = () => badRequest([fieldError('body', formError('invalid', 'domain_mfa_not_enabled'))]);
      if (!(await mfaEnabled(deps.store, user.Id))) throw off();
      const at = now(deps);
      await takeSecondFactor(deps.store, user.Id, { field: 'Code', kind: 'code', value: Code }, at);
      const { codes, hashes } = newRecoveryCodes();
      const origin = mailOrigin(c);
      await deps.store.tx(async (q) => {
        // Turned off since the code was taken: no codes to replace, and none may outlive the turn-off.
        const [on] = await q.query(`SELECT 1 FROM user_mfa WHERE user_id = $1 AND enabled_at_utc IS NOT NULL FOR UPDATE`, [user.Id]);
        if (!on) throw off();
        await replaceRecoveryCodes(q, user.Id, hashes);
        await sendMfaNotice(q, user.Id, (r) => recoveryCodesRegeneratedMail({ ...r, at }), { origin, at });
      });
      return c.json({ RecoveryCodes: codes } satisfies routes.MfaConfirmed, 200);
    })
    .openapi(guarded(routes.resetUserMfa, guard.organization('HasManageUserAccess')), async (c) => {
      const deps = c.get('deps');
      const { organizationId } = getAuth(c);
      const { userId } = c.req.valid('param');
      const at = now(deps);
      const origin = mailOrigin(c);
      await deps.store.tx(async (q) => {
        const [member] = await q.query<{ name: string }>(
          `SELECT o.name FROM memberships m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id WHERE m.organization_id = $1 AND m.user_id = $2 AND NOT u.deleted`,
          [organizationId, userId],
        );
        if (!member) throw notFound();
        const [gone] = await q.query<{ enabled_at_utc: Date | null }>(`DELETE FROM user_mfa WHERE user_id = $1 RETURNING enabled_at_utc`, [userId]);
        await q.query(`DELETE FROM mfa_recovery_codes WHERE user_id = $1`, [userId]);
        if (gone?.enabled_at_utc) await sendMfaNotice(q, userId, (r) => mfaResetMail({ ...r, at, organizationName: member.name }), { origin, at });
      });
      return c.body(null, 204);
    });
}
