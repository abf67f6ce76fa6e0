// Members of a program (sync-server/members/migrations/0450_members.sql): rows, their wire form,
// and their feed tokens. The routes are sync-server/api/members.ts; the rules are
// src/domain/member-feeds.ts.
import { randomBytes } from 'node:crypto';
import type { Member } from '../../src/protocol/api/members.ts';
import { memberEmailExistsError } from '../../src/domain/member-feeds.ts';
import { badRequest } from '../errors.ts';
import type { Queryable } from '../store/store.ts';

export type MemberRow = {
  id: string;
  organization_id: string;
  program_id: string;
  name: string;
  email: string;
  note: string | null;
  created_at_utc: Date | string;
  modified_at_utc: Date | string;
  revoked_at_utc: Date | string | null;
  token: string;
  token_version: number;
};

/** A feed token: 24 random bytes, base64url (32 characters, URL-safe). */
export const newToken = () => randomBytes(24).toString('base64url');
/** What a token looks like: anything else names no member (404 without a query). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const iso = (v: Date | string) => new Date(v).toISOString();

export function toMember(row: MemberRow): Member {
  return {
    Id: row.id,
    ProgramId: row.program_id,
    Name: row.name,
    Email: row.email,
    Note: row.note,
    CreatedAtUtc: iso(row.created_at_utc),
    ModifiedAtUtc: iso(row.modified_at_utc),
    Revoked: row.revoked_at_utc !== null,
    RevokedAtUtc: row.revoked_at_utc === null ? null : iso(row.revoked_at_utc),
  };
}

export async function loadMember(q: Queryable, organizationId: string, memberId: string): Promise<MemberRow | null> {
  const [row] = await q.query<MemberRow>(`SELECT * FROM members WHERE id = $1 AND organization_id = $2`, [memberId, organizationId]);
  return row ?? null;
}

/** The member holding a feed token, if it is one that still works (not revoked). */
export async function memberByToken(q: Queryable, token: string): Promise<MemberRow | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await q.query<MemberRow>(`SELECT * FROM members WHERE token = $1 AND revoked_at_utc IS NULL`, [token]);
  return row ?? null;
}

/** The 400 at Email: another live member of the program has this address. */
export const memberEmailExists = () => badRequest([memberEmailExistsError()]);

/** A unique violation of members_program_email (0451): two writers raced past the check. */
function isEmailViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && `${e.constraint ?? ''} ${e.message ?? ''}`.includes('members_program_email');
}

/** A write of members whose e-mail index violation is the same 400 as the check's. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isEmailViolation(err)) throw memberEmailExists();
    throw err;
  }
}

// The live members of a program holding an address: the index's own expression (lower(btrim)), so
// the check and the index never disagree about what is the same address.
const TAKEN = `revoked_at_utc IS NULL AND lower(btrim(email)) = lower(btrim($2::text))`;

export async function insertMember(
  q: Queryable,
  m: { id: string; organizationId: string; programId: string; name: string; email: string; note: string | null; createdById: string | null; at: Date },
): Promise<MemberRow> {
  const taken = await q.query(`SELECT 1 FROM members WHERE program_id = $1 AND ${TAKEN}`, [m.programId, m.email]);
  if (taken.length > 0) throw memberEmailExists();
  const [row] = await writing(() =>
    q.query<MemberRow>(
      `INSERT INTO members (id, organization_id, program_id, name, email, note, created_by_id, created_at_utc, modified_at_utc, token)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) RETURNING *`,
      [m.id, m.organizationId, m.programId, m.name.trim(), m.email.trim(), m.note, m.createdById, m.at.toISOString(), newToken()],
    ),
  );
  return row!;
}

export async function updateMember(q: Queryable, id: string, patch: { Name?: string | undefined; Email?: string | undefined; Note?: string | null | undefined; Revoked?: boolean | undefined }, at: Date): Promise<MemberRow> {
  // Only a new address or a restore can make two live members share one; the member as it would
  // be after the change is checked (live, with its new or current address).
  if (patch.Email !== undefined || patch.Revoked === false) {
    const taken = await q.query(
      `SELECT 1 FROM members s, members o WHERE s.id = $1 AND o.program_id = s.program_id AND o.id <> s.id
         AND (CASE WHEN $3::boolean IS NULL THEN s.revoked_at_utc IS NULL ELSE NOT $3::boolean END)
         AND o.revoked_at_utc IS NULL AND lower(btrim(o.email)) = lower(btrim(coalesce($2::text, s.email)))`,
      [id, patch.Email ?? null, patch.Revoked ?? null],
    );
    if (taken.length > 0) throw memberEmailExists();
  }
  const [row] = await writing(() =>
    q.query<MemberRow>(
      `UPDATE members SET
         name = CASE WHEN $2::boolean THEN $3 ELSE name END,
         email = CASE WHEN $4::boolean THEN $5 ELSE email END,
         note = CASE WHEN $6::boolean THEN $7 ELSE note END,
         revoked_at_utc = CASE WHEN $8::boolean IS NULL THEN revoked_at_utc WHEN $8::boolean THEN coalesce(revoked_at_utc, $9::timestamptz) ELSE NULL END,
         modified_at_utc = $9::timestamptz
       WHERE id = $1 RETURNING *`,
      [id, patch.Name !== undefined, patch.Name?.trim() ?? null, patch.Email !== undefined, patch.Email?.trim() ?? null, patch.Note !== undefined, patch.Note ?? null, patch.Revoked ?? null, at.toISOString()],
    ),
  );
  return row!;
}

/** A new token (and token version): the old feed URL names nothing from this moment. */
export async function resetToken(q: Queryable, id: string, at: Date): Promise<MemberRow> {
  const [row] = await q.query<MemberRow>(`UPDATE members SET token = $2, token_version = token_version + 1, modified_at_utc = $3 WHERE id = $1 RETURNING *`, [id, newToken(), at.toISOString()]);
  return row!;
}
