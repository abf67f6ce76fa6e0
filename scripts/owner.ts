// `npm run owner -- --email <address> --name <name> --organization <name> [--provider Broadcaster|Podcaster]`
//
// Makes the first owner of a store that has no demo (PostgreSQL without CASTAWAY_DEMO=1:
// sync-server/first-run.ts): a new organization and an activated user holding every flag at its
// Organization scope. The password is CASTAWAY_OWNER_PASSWORD when set (never a command-line
// argument, which other users of the machine can read in the process list), else a random one
// printed once here. Into the store `npm start` uses (PGlite in .data, or DATABASE_URL); PGlite is
// one process's, so stop that server first.
import { parseArgs } from 'node:util';
import { createOwner, OwnerInputError } from '../sync-server/first-run.ts';
import { openStore } from '../sync-server/store/open.ts';

const USAGE = 'usage: npm run owner -- --email you@example.com --name "Your Name" --organization "Your Station" [--provider Broadcaster|Podcaster]';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    organization: { type: 'string' },
    provider: { type: 'string', default: 'Podcaster' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const missing = (['email', 'name', 'organization'] as const).filter((k) => !values[k]);
if (missing.length > 0) {
  console.error(`${missing.map((k) => `--${k}`).join(', ')} required\n${USAGE}`);
  process.exit(2);
}

const store = await openStore({ databaseUrl: process.env.DATABASE_URL || undefined });
try {
  const owner = await createOwner(store, {
    email: values.email!,
    name: values.name!,
    organizationName: values.organization!,
    provider: values.provider,
    ...(process.env.CASTAWAY_OWNER_PASSWORD ? { password: process.env.CASTAWAY_OWNER_PASSWORD } : {}),
  });
  console.log(`Owner ${owner.email} of organization ${owner.organizationId} created.`);
  if (owner.generated) console.log(`Password (shown once, keep it somewhere safe): ${owner.password}`);
} catch (error) {
  if (!(error instanceof OwnerInputError)) throw error;
  console.error(`--${error.field}: ${error.message.slice(error.field.length + 2)}\n${USAGE}`);
  process.exitCode = 2;
} finally {
  await store.close();
}
