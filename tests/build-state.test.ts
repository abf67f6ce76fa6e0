// `npm start` rebuilds what is older than its sources (scripts/build-state.mjs): on a folder laid
// out as the project, with modification times set as a `git pull` sets them.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildState, SERVER_INPUTS, SERVER_STAMP, WEB_INPUTS, WEB_STAMP } from '../scripts/build-state.mjs';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes a file at `seconds` (since the epoch) as its modification time. */
function file(path: string, seconds: number): void {
  const at = join(root, path);
  mkdirSync(dirname(at), { recursive: true });
  writeFileSync(at, path);
  utimesSync(at, seconds, seconds);
}

/** The web app's state and the server's. */
const states = () => [buildState(root, WEB_STAMP, WEB_INPUTS), buildState(root, SERVER_STAMP, SERVER_INPUTS)];

describe('which builds npm start makes', () => {
  it('missing builds are built; built ones are kept until a source is newer, tests and generated messages aside', () => {
    root = mkdtempSync(join(tmpdir(), 'castaway-build-state-'));
    file('src/domain/rules.ts', 1000);
    file('sync-server/app.ts', 1000);
    file('index.html', 1000);
    expect(states()).toEqual(['missing', 'missing']);

    file(WEB_STAMP, 2000);
    file(SERVER_STAMP, 2000);
    expect(states()).toEqual(['fresh', 'fresh']);

    // Newer, but not sources of a build: a test, the generated messages, the server for the web app.
    file('src/domain/rules.test.ts', 3000);
    file('src/paraglide/messages.js', 3000);
    file('sync-server/api/new-route.ts', 3000);
    expect(states()).toEqual(['fresh', 'stale']);

    // A pulled change to a shared rule: both.
    file(SERVER_STAMP, 4000);
    file('src/domain/rules.ts', 5000);
    expect(states()).toEqual(['stale', 'stale']);
    // A translation: both (the server's e-mails and pages speak it too).
    file(WEB_STAMP, 6000);
    file(SERVER_STAMP, 6000);
    file('locales/de-DE.json', 7000);
    expect(states()).toEqual(['stale', 'stale']);
  });
});
