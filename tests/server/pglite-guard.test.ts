// The PGlite store when its wasm backend stops (sync-server/store/pglite-guard.ts): the statement
// fails, every later one fails at once with the same error, the process's log says why, and
// nothing spins. Run in a child process with a time limit, since a spin would block this one.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the PGlite store when its backend stops', () => {
  it('fails that statement and every later one with the cause, instead of spinning for ever', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'tests/server/pglite-guard-child.ts'], { encoding: 'utf8', timeout: 90_000 });
    expect(child.signal, `killed after 90 s (PGlite spun): ${child.stderr}`).toBeNull();
    expect(child.status, child.stderr).toBe(0);
    const out = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(out.error).toMatch(/column "nonsense" does not exist/);
    expect(out.afterError).toBe(1);
    expect(out.stoppedBefore).toBeNull();
    expect(out.copy).toBe('EmbeddedDatabaseStopped: the embedded database (PGlite) stopped: ExitStatus (status 1): Program terminated with exit(1)');
    expect(out.later).toBe(out.copy);
    // What /healthz reads: the store stopped for good.
    expect(out.stopped).toBe('EmbeddedDatabaseStopped');
    // Said once, through the store's onStopped (the server's log), with the backend's own last lines.
    expect(out.told).toEqual(['EmbeddedDatabaseStopped']);
    expect(child.stderr.match(/logged: the embedded database \(PGlite\) stopped/g)).toHaveLength(1);
    expect(child.stderr).toContain('FATAL:  terminating connection because protocol synchronization was lost');
  });
});
