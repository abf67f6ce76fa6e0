// The server as `npm start` runs it (`node --import tsx sync-server/main.ts`), started by a test as
// a process of its own, spoken to over loopback only, and killed however the test likes (SIGKILL
// for a crash). Each test file keeps the children it started in `running`, to kill what is left.
import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from '../audio/fixtures.ts';

export type ServerProcess = { child: ChildProcess; base: string; exited: Promise<number | null> };

/** Starts the server with `env` (PORT 0 is a free port) and resolves with its loopback URL once it
 * serves; rejects with its output if it exits first or takes longer than `startMs`. */
export async function startServerProcess(env: NodeJS.ProcessEnv, running: Set<ChildProcess>, startMs: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in ${startMs} ms:\n${output}`)), startMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Castaway Studio on http:\/\/localhost:(\d+)\//.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before serving:\n${output}`));
    });
  });
  return { child, base, exited };
}
