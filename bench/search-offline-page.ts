// The page of the offline search benchmark (bench/search-offline.ts bundles it with esbuild and
// serves it on 127.0.0.1): fills the browser's local store ('castaway', the real schema) with an
// organization's programs and clips, starts the real search worker (workers/search/search.worker.ts,
// bundled the same way) and times what the search screen would: the index build, a reload's
// load of the saved index, and searches through comlink, rows and all.
import * as Comlink from 'comlink';
import { db } from '../src/db/db.ts';
import { openSearchIndexDb, SEARCH_INDEX_DB_NAME } from '../src/db/search-index-db.ts';
import { toServiceQuery, type OfflineSearchInput } from '../workers/search/params.ts';
import { searchableFields, wordListOf } from '../src/domain/search.ts';
import type { SearchWorkerApi } from '../workers/search/search.worker.ts';

export const ORG = '00000000-0000-4000-8000-00000000b0b0';

/** A small deterministic generator, so every run indexes the same text. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const EN = (
  'mayor council budget city hall tram harbour ferry storm weather election vote party debate government minister school teacher hospital nurse doctor ' +
  'bakery market farmer harvest football match stadium coach player concert orchestra festival theatre museum library book author poetry interview ' +
  'studio audience listener phone guest host morning evening weekend headlines news report update archive history science climate energy solar wind ' +
  'river bridge road traffic railway station airport travel holiday beach mountain forest garden village church castle family children parents music ' +
  'jazz rock radio podcast episode preview review opinion column letter question answer story mystery crime police court judge law tax rent housing'
).split(' ');
const DE = 'bürgermeisterin stadtrat haushalt straßenbahn hafen wetter wahl partei regierung schule krankenhaus bäckerei markt fußball konzert bibliothek gespräch nachrichten verkehr bahnhof'.split(' ');
const SYLLABLES = 'ka lo mi ren tas vel dor an is ber gun hol mar nek op pri su tor ul wen'.split(' ');

function fillerName(r: () => number): string {
  const n = 2 + Math.floor(r() * 3);
  let w = '';
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
  return w[0]!.toUpperCase() + w.slice(1);
}

const pick = <T>(r: () => number, list: readonly T[]) => list[Math.floor(r() * list.length)]!;
const words = (r: () => number, list: readonly string[], n: number) => Array.from({ length: n }, () => pick(r, list)).join(' ');

const id = (prefix: number, n: number) => `00000000-0000-4000-${String(prefix).padStart(4, '0')}-${String(n).padStart(12, '0')}`;

/** Ten programs (seven English, three German) and `count` clips with titles, descriptions, tags
 * and season/episode numbers, written as a pull would (bulkPut). */
async function fill(count: number): Promise<number> {
  const started = performance.now();
  const r = random(42);
  const now = Date.UTC(2026, 0, 1);
  const meta = (Id: string, n: number) => ({ Id, OrganizationId: ORG, CreatedAtUtc: new Date(now - n * 3_600_000).toISOString(), ModifiedAtUtc: new Date(now - n * 3_600_000).toISOString(), CreatedById: null, ModifiedById: null, Deleted: false, Version: n + 1 });
  const programs = Array.from({ length: 10 }, (_, i) => ({ ...meta(id(1, i), i), Name: `${fillerName(r)} ${pick(r, EN)}`, Description: words(r, EN, 12), Language: i < 7 ? 'en' : 'de', NetworkId: null, Slug: null, Urls: { ImagePublicUrl: null } }));
  const clips = Array.from({ length: count }, (_, i) => {
    const program = programs[i % programs.length]!;
    const list = program.Language === 'de' ? [...DE, ...EN.slice(0, 40)] : EN;
    return {
      ...meta(id(2, i), i),
      ProgramId: program.Id,
      Title: `${fillerName(r)} ${words(r, list, 4)}`,
      Description: `${words(r, list, 18)} ${fillerName(r)} ${words(r, list, 18)}.`,
      Tags: [pick(r, list), pick(r, list)],
      Season: 1 + (i % 12),
      Episode: 1 + (i % 40),
      Visibility: i % 10 === 0 ? 'Private' : 'Public',
      State: 'Ready',
      PublishState: 'Published',
      PlaylistIds: [],
    };
  });
  await db.transaction('rw', db.programs, db.clips, db.syncState, async () => {
    await db.programs.bulkPut(programs);
    await db.clips.bulkPut(clips);
    await db.syncState.put({ key: 'cursor', value: `bench-${count}` });
  });
  return performance.now() - started;
}

let worker: Worker | null = null;
let api: Comlink.Remote<SearchWorkerApi> | null = null;

function start(): void {
  worker?.terminate();
  worker = new Worker('/search.worker.js', { type: 'module', name: 'castaway-search' });
  api = Comlink.wrap<SearchWorkerApi>(worker);
}

async function prepare() {
  const started = performance.now();
  const status = await api!.prepare(ORG);
  return { ms: performance.now() - started, status };
}

/** Waits for the worker's pending work, then saves; the status after. */
async function save() {
  const started = performance.now();
  await api!.flush();
  return { ms: performance.now() - started, status: await api!.status() };
}

async function search(params: OfflineSearchInput) {
  const started = performance.now();
  const page = await api!.search(ORG, toServiceQuery(params));
  return { ms: performance.now() - started, rows: page.hits.length, total: page.total };
}

/**
 * The floor of the index build on this machine, in the same run: what any index of these clips
 * must do, with nothing of an index: read the same rows from the store, and cut the same text
 * (each clip's search fields) into lower-cased words. Times of the read and of the words.
 */
async function floor(): Promise<{ readMs: number; wordsMs: number; words: number }> {
  const started = performance.now();
  const [, clips] = await Promise.all([db.programs.toArray(), db.clips.toArray()]);
  const read = performance.now();
  let words = 0;
  for (const row of clips) {
    const text = searchableFields('clip', row);
    words += wordListOf(text.Title).length + wordListOf(text.Description).length + wordListOf(text.Annotations).length + wordListOf(text.Transcript).length;
  }
  return { readMs: read - started, wordsMs: performance.now() - read, words };
}

/** The saved index: its JSON's size in UTF-8 bytes, and the origin's storage before and after. */
async function savedBytes(): Promise<number> {
  const saved = await openSearchIndexDb(SEARCH_INDEX_DB_NAME).indexes.get('current');
  return saved ? new TextEncoder().encode(saved.json).length : 0;
}

async function usage(): Promise<number> {
  return (await navigator.storage.estimate()).usage ?? 0;
}

Object.assign(globalThis, { bench: { fill, start, prepare, save, search, savedBytes, usage, floor } });
document.title = 'ready';
