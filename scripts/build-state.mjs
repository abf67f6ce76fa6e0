// Which builds are missing or older than their sources (scripts/start.mjs), by modification times:
// a `git pull` gives every file it changes a new time, so an update always counts as newer.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What each build is made from (src/paraglide is generated from locales/, and skipped). */
export const WEB_INPUTS = ['src', 'workers', 'sw', 'public', 'locales', 'index.html', 'vite.config.ts', 'package-lock.json', 'project.inlang'];
export const SERVER_INPUTS = ['sync-server', 'src', 'locales', 'package-lock.json', 'tsconfig.json', 'tsconfig.server.json', 'scripts/build-server.mjs'];
/** The file each build writes last: the PWA's is the service worker, built from sw/ after the
 *  pages (vite-plugin-pwa's injectManifest, at the bundle's close), and vite empties dist/ first, so
 *  a build that failed or was stopped before it leaves none. */
export const WEB_STAMP = join('dist', 'sw.js');
export const SERVER_STAMP = join('build', 'server', 'BUILT');

const SKIPPED = new Set(['node_modules', 'paraglide']);
const isTest = (name) => /\.test\.tsx?$/.test(name);

/** The newest modification time under these paths of `root` (ms), tests aside; 0 for none. */
export function newestSource(root, paths) {
  let latest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIPPED.has(entry) && !isTest(entry)) visit(join(path, entry));
    } else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const p of paths) if (existsSync(join(root, p))) visit(join(root, p));
  return latest;
}

/** 'missing', 'stale' (a source is newer than the stamp) or 'fresh'. */
export function buildState(root, stamp, inputs) {
  const file = join(root, stamp);
  if (!existsSync(file)) return 'missing';
  return newestSource(root, inputs) > statSync(file).mtimeMs ? 'stale' : 'fresh';
}
