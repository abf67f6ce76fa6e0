// Password hashes with scrypt (node:crypto): "scrypt$N$r$p$salt$hash", base64url parts, so the
// cost can rise later without invalidating stored hashes.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// OWASP's Password Storage Cheat Sheet: scrypt at N=2^17, r=8, p=1 (128 MiB per hash), or one of
// the sets of equal cost it lists with less memory; N=2^14, r=8, p=5 does the same work in 16 MiB,
// so parallel sign-ins on a small server do not each take 128 MiB. Hashes of the earlier cost
// (p=1) are made again at the next sign-in (needsRehash).
const N = 16384;
const R = 8;
const P = 5;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `stored` was made at less than the current cost (or in another form): hash it again. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) * Number(r) * Number(p) < N * R * P;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
