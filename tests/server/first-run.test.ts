// A safe first run (issue 31, sync-server/first-run.ts): the demo and its public password go only
// into the embedded store or where CASTAWAY_DEMO=1 asks; a configured PostgreSQL gets its first
// owner from `npm run owner`. The owner is checked the way a person would use it: signed in with
// the password the command printed, acting in the new organization with every flag.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createOwner, demoWanted, hasUsers, NO_ACCOUNTS_NOTICE, OwnerInputError } from '../../sync-server/first-run.ts';
import { DEMO_USERS } from '../../sync-server/seed.ts';
import { repoRoot } from '../audio/fixtures.ts';
import { signIn } from '../helpers/sign-in.ts';
import { MISSING_DATABASE_URL, openScratchPostgres, openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe('demoWanted', () => {
  it.each([
    [undefined, undefined, true],
    [undefined, 'postgres://db/castaway', false],
    ['1', 'postgres://db/castaway', true],
    ['0', undefined, false],
    ['', 'postgres://db/castaway', false],
    [' 1 ', undefined, true],
  ])('CASTAWAY_DEMO=%j with DATABASE_URL %j → %s', (flag, url, expected) => {
    expect(demoWanted({ CASTAWAY_DEMO: flag }, url)).toBe(expected);
  });

  it('refuses a value it does not know, rather than guess', () => {
    expect(() => demoWanted({ CASTAWAY_DEMO: 'yes' }, undefined)).toThrow(/CASTAWAY_DEMO must be 1 or 0/);
  });
});

describe.each(storeKinds)('createOwner on %s', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(kind);
  });
  afterAll(() => t.drop());

  it('makes an organization and an owner who signs in with the printed password and holds every flag there', async () => {
    expect(await hasUsers(t.store)).toBe(false);
    const owner = await createOwner(t.store, { email: ' Owner@Station.example ', name: 'Olga Owner', organizationName: 'Station One', provider: 'Broadcaster' });
    expect(owner.generated).toBe(true);
    expect(owner.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await hasUsers(t.store)).toBe(true);

    const app = createApp({ store: t.store, bus: createMemoryBus() });
    const headers = await signIn((path, init) => app.request(path, init), 'owner@station.example', owner.password);
    const session = (await (await app.request('/api/internal/session', { headers })).json()) as { Type: string };
    expect(session.Type).toBe('activated');
    const organizations = (await (await app.request('/api/internal/users/me/organizations', { headers })).json()) as Array<{
      Id: string;
      Name: string;
      IsDemoOrganization: boolean;
      UserPermissions: Array<{ ObjectType: string; Permissions: Record<string, boolean> }>;
    }>;
    expect(organizations).toHaveLength(1);
    const [org] = organizations;
    expect(org).toMatchObject({ Id: owner.organizationId, Name: 'Station One', IsDemoOrganization: false });
    expect(org!.UserPermissions).toHaveLength(1);
    expect(org!.UserPermissions[0]!.ObjectType).toBe('Organization');
    expect(Object.values(org!.UserPermissions[0]!.Permissions).filter(Boolean)).toHaveLength(7);
    // The organization's own row syncs like any other: the owner's first pull brings it.
    const pull = await app.request('/api/sync/pull', { headers: { ...headers, 'x-organization-id': owner.organizationId } });
    expect(pull.status).toBe(200);
  });

  it('refuses an address that has an account, a bad address and a short password, writing nothing', async () => {
    const [before] = await t.store.query<{ users: number; orgs: number }>(`SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS orgs`);
    const attempt = (input: Partial<Parameters<typeof createOwner>[1]>) =>
      createOwner(t.store, { email: 'second@station.example', name: 'Sam Second', organizationName: 'Station Two', provider: 'Podcaster', ...input });
    await expect(attempt({ email: 'OWNER@station.example' })).rejects.toMatchObject({ field: 'email', message: expect.stringContaining('already exists') });
    await expect(attempt({ email: 'not an address' })).rejects.toBeInstanceOf(OwnerInputError);
    await expect(attempt({ email: 'not an address' })).rejects.toMatchObject({ field: 'email' });
    await expect(attempt({ password: 'short' })).rejects.toMatchObject({ field: 'password' });
    await expect(attempt({ organizationName: '  ' })).rejects.toMatchObject({ field: 'organization' });
    await expect(attempt({ provider: 'Radio' })).rejects.toMatchObject({ field: 'provider' });
    const [after] = await t.store.query<{ users: number; orgs: number }>(`SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS orgs`);
    expect(after).toEqual(before);
  });
});

/** Runs a command of the repository to its end, with its output. */
function run(args: string[], env: NodeJS.ProcessEnv, untilOutput?: RegExp): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not finish in 150 s:\n${output}`));
    }, 150_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // A server runs until stopped: once it has said what is awaited, it is stopped.
      if (untilOutput?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a first start on PostgreSQL, as an operator would', () => {
  let db: TestStore & { url: string };
  let dataDir: string;
  beforeAll(async () => {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error(MISSING_DATABASE_URL);
    db = await openScratchPostgres(base, 'castaway_firstrun');
    dataDir = await mkdtemp(join(tmpdir(), 'castaway-firstrun-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes no demo and says how to make the first owner; `npm run owner` makes one who can sign in', { timeout: 320_000 }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, CASTAWAY_DATA_DIR: dataDir, CASTAWAY_DIST_DIR: join(dataDir, 'no-dist'), PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'warn' };
    delete env.CASTAWAY_DEMO;
    const server = await run(['sync-server/main.ts'], env, /This store has no accounts yet|Demo logins/);
    expect(server.output).toContain(NO_ACCOUNTS_NOTICE.split('\n')[0]);
    expect(server.output).not.toContain(DEMO_USERS[0]!.email);
    const [counts] = await db.store.query<{ users: number; orgs: number }>(`SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS orgs`);
    expect(counts).toEqual({ users: 0, orgs: 0 });

    const made = await run(['scripts/owner.ts', '--email', 'first@station.example', '--name', 'Fran First', '--organization', 'First Station'], env);
    expect(made.code, made.output).toBe(0);
    const password = /Password \(shown once[^)]*\): (\S+)/.exec(made.output)?.[1];
    expect(password, made.output).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const app = createApp({ store: db.store, bus: createMemoryBus() });
    await signIn((path, init) => app.request(path, init), 'first@station.example', password);

    const again = await run(['scripts/owner.ts', '--email', 'FIRST@station.example', '--name', 'Fran First', '--organization', 'Another'], env);
    expect(again.code).toBe(2);
    expect(again.output).toContain('--email: An account with this address already exists.');
  });
});
