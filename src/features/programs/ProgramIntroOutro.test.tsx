// The Intro and outro card of a program's settings as a producer meets it, the page's fetches
// answered by the real server (createApp on PGlite, its job runner running) and the program in the
// device's store (fake IndexedDB): an MP3 chosen as the intro is sent and its operation followed
// ("Checking … on the server") until it is ready, and the server's program then has it; once the
// row has synced the card shows its name, length and date with a player. A text file is refused at
// the field before anything is sent; bytes that are not audio are refused at the field with the
// operation's reason. Offline, the card says changing needs the connection and nothing can be
// chosen; with audit access only it is shown read only.
import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../../../tests/happy-page.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';
import type { Program } from '../../protocol/entities.ts';

const { act } = await import('react');
const { ProgramIntroOutro } = await import('./ProgramIntroOutro.tsx');
const { db } = await import('../../db/db.ts');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, seed, seedId } = await import('../../../sync-server/seed.ts');
const { field, mount, settle, signInPage } = await import('../../../tests/page-on-app.ts');
const { signInOffline } = await import('../../../tests/offline-session.ts');
const { loadSession } = await import('../../lib/session.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');
const { fixturePath } = await import('../../../tests/audio/fixtures.ts');

const PROGRAM = seedId('program:morning');
let test: TestStore;
let app: ReturnType<typeof createApp>;
let cookie = '';
let sent: string[] = [];
let blobDir = '';
const previousBlobDir = process.env.CASTAWAY_BLOB_DIR;

const serverProgram = async () => (await (await app.request(`/api/v1/programs/${PROGRAM}`, { headers: { cookie, 'x-organization-id': ORG_DEMO } })).json()) as Program;

beforeAll(async () => {
  blobDir = await mkdtemp(join(tmpdir(), 'castaway-intro-outro-card-'));
  process.env.CASTAWAY_BLOB_DIR = blobDir;
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  await app.jobs.start();
  ({ cookie, sent } = await signInPage(app, ORG_DEMO));
  // The card decides from the session's permissions (demo@: every flag) whether it may change.
  await loadSession();
  await db.programs.put((await serverProgram()) as never);
}, 120_000);
afterAll(async () => {
  await app?.jobs.stop();
  await test?.drop();
  if (previousBlobDir === undefined) delete process.env.CASTAWAY_BLOB_DIR;
  else process.env.CASTAWAY_BLOB_DIR = previousBlobDir;
  await rm(blobDir, { recursive: true, force: true });
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = async () => mount(<ProgramIntroOutro program={(await db.programs.get(PROGRAM)) as unknown as Program} organizationId={ORG_DEMO} />, 'Loading');
const slot = (el: HTMLElement, type: 'intro' | 'outro') => el.querySelector<HTMLElement>(`[data-testid="intro-outro-${type}"]`)!;
/** Lets the page work until `ready` holds: a server's answer, a job's end. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await ready()) return;
    await settle(100);
  }
  throw new Error(`still waiting for ${what}`);
}
async function choose(el: HTMLElement, type: 'intro' | 'outro', file: File): Promise<void> {
  const input = slot(el, type).querySelector<HTMLInputElement>('input[type="file"]')!;
  Object.defineProperty(input, 'files', { configurable: true, value: [file] });
  await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
}
const fixture = async (name: string) => new File([new Uint8Array(await readFile(fixturePath(name)))], name, { type: 'audio/mpeg' });

describe('the Intro and outro card of a program’s settings', () => {
  it('sends an intro, follows its operation until it is ready, then shows it with a player', async () => {
    const el = await render();
    expect(slot(el, 'intro').textContent).toContain('None set.');
    await choose(el, 'intro', await fixture('speech-12s.mp3'));
    await until(() => slot(el, 'intro').textContent?.includes('Checking speech-12s.mp3 on the server…') === true || slot(el, 'intro').textContent?.includes('Intro ready') === true, 'the upload');
    await until(() => slot(el, 'intro').textContent?.includes('Intro ready: speech-12s.mp3') === true, 'the operation to end');
    expect(sent.some((s) => /^PUT \/api\/v1\/programs\/[^/]+\/settings\/audio\/intro\?fileName=speech-12s\.mp3$/.test(s))).toBe(true);
    expect(sent.some((s) => s.startsWith('GET /api/v1/programs/settings/audio/'))).toBe(true);
    const row = await serverProgram();
    expect(row.IntroOutro?.Intro).toMatchObject({ FileName: 'speech-12s.mp3' });

    // The row as the sync brings it: its name, length and date, and a player.
    await db.programs.put(row as never);
    document.body.innerHTML = '';
    const synced = await render();
    expect(slot(synced, 'intro').textContent).toMatch(/speech-12s\.mp3, 0:12, uploaded /);
    expect(slot(synced, 'intro').querySelector('audio')?.getAttribute('aria-label')).toBe('Listen to the intro');
    expect(slot(synced, 'intro').querySelector('audio')?.getAttribute('src')).toBe(row.IntroOutro!.Intro!.AudioUrl);
    expect([...slot(synced, 'intro').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Replace the intro', 'Remove the intro']);
  }, 60_000);

  it('refuses a text file at the field before sending it, and bytes that are not audio with the operation’s reason', async () => {
    const el = await render();
    const before = sent.length;
    await choose(el, 'outro', new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    await settle();
    expect(field(slot(el, 'outro'), 'Outro').error).toMatch(/m4a, mp3, mp4, aac, wav, flac, aif, aiff/);
    expect(field(slot(el, 'outro'), 'Outro').control.getAttribute('aria-invalid')).toBe('true');
    expect(sent.length).toBe(before);

    await choose(el, 'outro', await fixture('not-audio.mp3'));
    await until(() => field(slot(el, 'outro'), 'Outro').error === 'This file is not audio the studio can read.', 'the operation’s refusal');
    expect((await serverProgram()).IntroOutro?.Outro ?? null).toBeNull();
  }, 60_000);

  it('offline, says changing needs the connection and nothing can be chosen; with audit access only it is read only', async () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const el = await render();
      await settle(200);
      expect(el.textContent).toContain('need the connection. You are offline');
      expect(slot(el, 'outro').querySelector<HTMLInputElement>('input[type="file"]')!.disabled).toBe(true);
      expect([...el.querySelectorAll('button')].every((b) => b.disabled)).toBe(true);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
    document.body.innerHTML = '';
    await signInOffline(ORG_DEMO, { programId: PROGRAM }, { HasContentAccess: true, HasAuditAccess: true });
    const readOnly = await render();
    expect(readOnly.textContent).toContain('You can listen to them here; changing them needs content and manage-settings access on this program.');
    expect(readOnly.querySelector('input[type="file"]')).toBeNull();
    expect(readOnly.querySelectorAll('button')).toHaveLength(0);
    expect(slot(readOnly, 'intro').querySelector('audio')).not.toBeNull();
  }, 60_000);
});
