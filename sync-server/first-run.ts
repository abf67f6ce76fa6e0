// A safe first run (issue 31). The demo organizations and their seven users, whose password is
// printed in the README, are written only where nobody can mistake them for real accounts:
//
//   CASTAWAY_DEMO=1 ──────────────────────────────> the demo, on any store (tests, demos, the cluster)
//   CASTAWAY_DEMO=0 ──────────────────────────────> never
//   unset ── the embedded store (no DATABASE_URL) ─> the demo (`npm start` on one machine)
//         └─ PostgreSQL ───────────────────────────> never: a database someone configured may be
//                                                    production; its first owner is made with
//                                                    `npm run owner` (scripts/owner.ts)
import { randomBytes, randomUUID } from 'node:crypto';
import { Provider } from '../src/protocol/entities.ts';
import { formatFormError } from '../src/domain/messages.ts';
import { validatePassword } from '../src/domain/password.ts';
import { allPermissions } from '../src/domain/permissions.ts';
import { INTERFACE_LOCALES } from '../src/domain/locales.ts';
import { validateEmail, validateName } from '../src/domain/validators.ts';
import { hashPassword } from './passwords.ts';
import { bulkInsert } from './rows.ts';
import type { Queryable, Store } from './store/store.ts';

/** Whether this start may write the demo into an empty store (the table above). */
export function demoWanted(env: { CASTAWAY_DEMO?: string | undefined }, databaseUrl: string | undefined): boolean {
  const flag = env.CASTAWAY_DEMO?.trim();
  if (flag === '1') return true;
  if (flag === '0') return false;
  if (flag !== undefined && flag !== '') throw new Error(`CASTAWAY_DEMO must be 1 or 0 (got "${env.CASTAWAY_DEMO}")`);
  return databaseUrl === undefined;
}

/** Whether any account exists yet (a store with none needs its first owner). */
export async function hasUsers(store: Store): Promise<boolean> {
  const [row] = await store.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM users WHERE NOT deleted) AS any`);
  return row?.any === true;
}

/** Whether an account has this address (any case). */
export async function hasUser(store: Store, email: string): Promise<boolean> {
  const [row] = await store.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1) AND NOT deleted) AS any`, [email]);
  return row?.any === true;
}

export type OwnerInput = {
  email: string;
  name: string;
  /** Omitted: the first word of the name. */
  firstName?: string;
  organizationName: string;
  provider: string;
  /** Omitted: a random one is made, returned once and never stored in the clear. */
  password?: string;
  /** false: an account made by its user (POST /internal/account), 'unactivated' until its address
   * is confirmed (sync-server/accounts). Default true: an operator's owner (`npm run owner`). */
  activated?: boolean;
  /** One of INTERFACE_LOCALES; default en-US. */
  interfaceLanguage?: string;
};

export type Owner = { userId: string; organizationId: string; email: string; password: string; generated: boolean };

/** A refused input: the field (as named on the command line) and the section 5 message. */
export class OwnerInputError extends Error {
  constructor(
    readonly field: 'email' | 'name' | 'organization' | 'provider' | 'password' | 'interfaceLanguage',
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** 18 random bytes, base64url: 24 characters, ~144 bits. */
const generatedPassword = () => randomBytes(18).toString('base64url');

export type CheckedOwner = Required<OwnerInput> & { generated: boolean };

/** Checks every field before anything is written, so a refused input writes nothing. */
export function checkOwner(input: OwnerInput): CheckedOwner {
  const email = input.email.trim();
  const emailError = validateEmail(email);
  if (emailError) throw new OwnerInputError('email', formatFormError(emailError, 'en-US'));
  const nameError = validateName(input.name.trim());
  if (nameError) throw new OwnerInputError('name', formatFormError(nameError, 'en-US'));
  const orgError = validateName(input.organizationName.trim());
  if (orgError) throw new OwnerInputError('organization', formatFormError(orgError, 'en-US'));
  if (!Provider.safeParse(input.provider).success) throw new OwnerInputError('provider', `one of ${Provider.options.join(', ')}`);
  const generated = input.password === undefined;
  const password = input.password ?? generatedPassword();
  const passwordError = validatePassword(password);
  if (passwordError) throw new OwnerInputError('password', formatFormError(passwordError, 'en-US'));
  const name = input.name.trim();
  const firstName = input.firstName?.trim() || (name.split(/\s+/)[0] ?? '');
  const interfaceLanguage = input.interfaceLanguage ?? 'en-US';
  if (!(INTERFACE_LOCALES as readonly string[]).includes(interfaceLanguage)) throw new OwnerInputError('interfaceLanguage', `one of ${INTERFACE_LOCALES.join(', ')}`);
  return { email, name, firstName, organizationName: input.organizationName.trim(), provider: input.provider, password, generated, activated: input.activated ?? true, interfaceLanguage };
}

/**
 * A new organization and its owner holding every flag at Organization scope, in one transaction:
 * an activated user by default (`npm run owner`). An address that already has an account is
 * refused (nothing written).
 */
export async function createOwner(store: Store, input: OwnerInput, at = new Date()): Promise<Owner> {
  const owner = checkOwner(input);
  const hash = await hashPassword(owner.password);
  const { userId, organizationId } = await store.tx((q) => insertOwner(q, owner, hash, at));
  return { userId, organizationId, email: owner.email, password: owner.password, generated: owner.generated };
}

/**
 * Writes the organization, its owner (with the password's hash) and the owner's membership in the
 * caller's transaction, for callers that write more in it (an account made by its user signs in
 * and is mailed its confirmation in the same one). An address that already has an account throws
 * OwnerInputError at 'email'.
 */
export async function insertOwner(q: Queryable, owner: CheckedOwner, passwordHash: string, at: Date): Promise<{ userId: string; organizationId: string }> {
  const userId = randomUUID();
  const organizationId = randomUUID();
  const [taken] = await q.query<{ id: string }>(`SELECT id FROM users WHERE lower(email) = lower($1)`, [owner.email]);
  if (taken) throw new OwnerInputError('email', 'An account with this address already exists.');
  await bulkInsert(q, 'organization', organizationId, [
    { id: organizationId, createdAt: at, modifiedAt: at, createdById: userId, fields: { Name: owner.organizationName, IsDemoOrganization: false, Provider: owner.provider } },
  ]);
  await q.query(`UPDATE organizations SET organization_id = id WHERE id = $1`, [organizationId]);
  await q.query(
    `INSERT INTO users (id, email, name, first_name, image_url, is_admin, is_admin_or_support, has_reseller_access,
       interface_language, activated, password_hash, created_at_utc, modified_at_utc, version)
     VALUES ($1, $2, $3, $4, NULL, false, false, false, $5, $6, $7, $8, $8, next_row_version())`,
    [userId, owner.email, owner.name, owner.firstName, owner.interfaceLanguage, owner.activated, passwordHash, at],
  );
  await q.query(
    `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
     VALUES ($1, $2, $3, $4, $4, next_row_version())`,
    [organizationId, userId, JSON.stringify([{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: allPermissions() }]), at],
  );
  return { userId, organizationId };
}

/** What the console says on a start that wrote no demo into a store without accounts. */
export const NO_ACCOUNTS_NOTICE = [
  'This store has no accounts yet, and no demo is written into PostgreSQL (CASTAWAY_DEMO=1 would).',
  'Make the first owner and their organization:',
  '  npm run owner -- --email you@example.com --name "Your Name" --organization "Your Station"',
].join('\n');
