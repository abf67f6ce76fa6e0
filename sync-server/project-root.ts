// The repository's root: the nearest folder above this file that holds a package.json. The server
// runs from its sources (sync-server/, through tsx: tests, `npm run dev`) or compiled
// (build/server/sync-server/: `npm start`, `npm run serve`); both find the same root, and with it
// dist/ and the shared fixtures beside the clone.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function rootAbove(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

export const PROJECT_ROOT = rootAbove(dirname(fileURLToPath(import.meta.url)));
