// `npm run seed -- --clips N [--reset]`: seeds the demo with N clips into the configured store
// (DATABASE_URL or the PGlite data folder), e.g. a large store for benchmarks. The demo's audio
// goes to the blob folder the server reads (CASTAWAY_BLOB_DIR or <data folder>/blobs), as with
// `npm start`, so the seeded clips and recordings play.
import { parseArgs } from 'node:util';
import { configuredBlobStore } from './audio/service.ts';
import { seedWithMedia, DEMO_CLIP_COUNT } from './seed.ts';
import { openStore } from './store/open.ts';

const { values } = parseArgs({
  options: { clips: { type: 'string' }, reset: { type: 'boolean', default: false } },
});
const clips = values.clips === undefined ? DEMO_CLIP_COUNT : Number(values.clips);
if (!Number.isInteger(clips) || clips < 0) {
  console.error(`--clips must be a whole number of 0 or more (got "${values.clips}")`);
  process.exit(2);
}
const store = await openStore({ databaseUrl: process.env.DATABASE_URL || undefined });
const [row] = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM organizations`);
if ((row?.n ?? 0) > 0) {
  if (!values.reset) {
    console.error('The store already holds data: pass --reset to empty it first.');
    await store.close();
    process.exit(1);
  }
  await store.exec(
    `TRUNCATE organizations, users, memberships, networks, programs, playlists, clips, recordings, annotations,
       row_revisions, sessions, api_keys, login_failures, support_enquiries CASCADE`,
  );
}
const started = performance.now();
const summary = await seedWithMedia(store, { clips, blobs: configuredBlobStore() });
console.log(`Seeded ${summary.clips} clips, ${summary.playlists} playlists, ${summary.recordings} recordings in ${Math.round(performance.now() - started)} ms (${store.kind}).`);
await store.close();
