// Signing keys of a program and the signed media URLs of its members (the states and the
// reasons for the numbers: src/domain/member-feeds.ts). HMAC-SHA256 over memberUrlPayload with the
// key's secret; the key's id travels in the URL so a rotated key still verifies what it signed,
// until it is retired.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { memberUrlExpiry, memberUrlPayload, SIGNING_KEY_GRACE_SECONDS, signingKeyState } from '../../src/domain/member-feeds.ts';
import type { SigningKey } from '../../src/protocol/api/members.ts';
import type { Queryable, Store } from '../store/store.ts';

type KeyRow = { id: string; program_id: string; secret: string | null; created_at_utc: Date | string; retires_at_utc: Date | string | null };

/** The key that signs for a program now: the current one, made when first needed. */
export type CurrentKey = { id: string; secret: string; created_at_utc: Date | string };

export async function currentKey(q: Queryable, organizationId: string, programId: string, at: Date): Promise<CurrentKey> {
  const select = () => q.query<CurrentKey>(`SELECT id, secret, created_at_utc FROM signing_keys WHERE program_id = $1 AND retires_at_utc IS NULL`, [programId]);
  const [found] = await select();
  if (found) return found;
  // Two first signers at once: the partial unique index lets one insert win; both read it.
  await q.query(
    `INSERT INTO signing_keys (id, organization_id, program_id, secret, created_at_utc) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (program_id) WHERE retires_at_utc IS NULL DO NOTHING`,
    [randomUUID(), organizationId, programId, randomBytes(32).toString('base64url'), at.toISOString()],
  );
  const [made] = await select();
  if (!made) throw new Error(`signing key of program ${programId} not made`);
  return made;
}

export function toSigningKey(row: KeyRow, at: Date): SigningKey {
  return {
    Id: row.id,
    ProgramId: row.program_id,
    CreatedAtUtc: new Date(row.created_at_utc).toISOString(),
    State: signingKeyState(row.retires_at_utc, at),
    RetiresAtUtc: row.retires_at_utc === null ? null : new Date(row.retires_at_utc).toISOString(),
  };
}

export async function listKeys(q: Queryable, programId: string, at: Date): Promise<SigningKey[]> {
  const rows = await q.query<KeyRow>(`SELECT * FROM signing_keys WHERE program_id = $1 ORDER BY created_at_utc DESC, id`, [programId]);
  return rows.map((r) => toSigningKey(r, at));
}

/**
 * Rotates the program's current key `keyId`: it retires after the grace period, a new key is
 * current, and the material of keys already retired is erased. 'not-current' when `keyId` is not
 * the current key (rotated already, or retired); null when the program has no such key.
 */
export async function rotateKey(store: Store, organizationId: string, programId: string, keyId: string, at: Date): Promise<'rotated' | 'not-current' | null> {
  return store.tx(async (q) => {
    const [key] = await q.query<KeyRow>(`SELECT * FROM signing_keys WHERE id = $1 AND program_id = $2 FOR UPDATE`, [keyId, programId]);
    if (!key) return null;
    if (key.retires_at_utc !== null) return 'not-current';
    const retiresAt = new Date(at.getTime() + SIGNING_KEY_GRACE_SECONDS * 1000);
    await q.query(`UPDATE signing_keys SET retires_at_utc = $2 WHERE id = $1`, [keyId, retiresAt.toISOString()]);
    await q.query(`UPDATE signing_keys SET secret = NULL WHERE program_id = $1 AND retires_at_utc <= $2 AND secret IS NOT NULL`, [programId, at.toISOString()]);
    await q.query(`INSERT INTO signing_keys (id, organization_id, program_id, secret, created_at_utc) VALUES ($1, $2, $3, $4, $5)`, [
      randomUUID(),
      organizationId,
      programId,
      randomBytes(32).toString('base64url'),
      at.toISOString(),
    ]);
    return 'rotated';
  });
}

const hmac = (secret: string, payload: string) => createHmac('sha256', Buffer.from(secret, 'base64url')).update(payload).digest();

export type SignedQuery = { k: string; exp: number; af: boolean; sig: string };

/** The signed query of a member's media URL for a clip, valid until memberUrlExpiry(at). */
export function signMemberAudio(key: Pick<CurrentKey, 'id' | 'secret'>, memberId: string, clipId: string, adFree: boolean, at: Date): SignedQuery {
  const exp = memberUrlExpiry(at);
  return { k: key.id, exp, af: adFree, sig: hmac(key.secret, memberUrlPayload(memberId, clipId, exp, adFree)).toString('base64url') };
}

export const signedQueryString = (s: SignedQuery) => `k=${s.k}&exp=${s.exp}&af=${s.af ? 1 : 0}&sig=${s.sig}`;

/**
 * Whether a signed media URL is good at `at`: the key exists, belongs to the program, is not
 * retired, the URL has not expired and the signature matches (compared in constant time).
 * Returns the program the key signs for, or null.
 */
export async function verifyMemberAudio(q: Queryable, memberId: string, clipId: string, query: { k?: string | undefined; exp?: string | undefined; af?: string | undefined; sig?: string | undefined }, at: Date): Promise<{ programId: string; adFree: boolean } | null> {
  const { k, exp, af, sig } = query;
  if (!k || !/^[0-9a-f-]{36}$/i.test(k) || !exp || !/^\d{1,12}$/.test(exp) || (af !== '0' && af !== '1') || !sig || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return null;
  const expires = Number(exp);
  if (expires * 1000 <= at.getTime()) return null;
  const [key] = await q.query<KeyRow>(`SELECT * FROM signing_keys WHERE id = $1`, [k.toLowerCase()]);
  if (!key || key.secret === null || signingKeyState(key.retires_at_utc, at) === 'Retired') return null;
  const expected = hmac(key.secret, memberUrlPayload(memberId, clipId, expires, af === '1'));
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { programId: key.program_id, adFree: af === '1' };
}
