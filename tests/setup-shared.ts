// Runs before each test file of the 'shared' Vitest project (vitest.config.ts), whose files run one
// after another in one module graph per worker. The environment variables are put back as the
// first file found them: several files point CASTAWAY_BLOB_DIR or CASTAWAY_DATA_DIR at a folder of
// their own (removed when they end) and do not restore it, and the next file in the worker would
// then write its media into a folder that no longer exists.
const KEY = Symbol.for('castaway.test.environment');
const store = globalThis as unknown as Record<symbol, Record<string, string | undefined> | undefined>;
const first = store[KEY];
if (!first) {
  store[KEY] = { ...process.env };
} else {
  for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
  for (const [name, value] of Object.entries(first)) if (process.env[name] !== value) process.env[name] = value;
}
