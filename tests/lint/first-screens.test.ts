// What the first screens load stays light: the modules a new visitor's login (src/app/main.tsx)
// and the signed-in home (src/app/SignedIn.tsx) import statically never reach zod or the domain
// catalogue's lookup by key (src/domain/messages.ts). Either one put 24–25 KB gzip on those
// screens (the home measured 230 KB with both, 170 KB without: `npm run bench:app` has the
// figures). A screen that needs them imports them, or loads them when it needs them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Value imports and re-exports (`import type` and `export type` load nothing; `import()` loads later).
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\bfrom\s*)?['"]([^'"]+)['"]/gm;

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${relative(root, from)} imports ${specifier}, which is not a file`);
}

/** Every chain from `entry` to a module `refused` names (a bare specifier or a path in the repository). */
function chainsTo(entry: string, refused: (specifier: string, path: string | null) => boolean): string[] {
  const start = resolve(root, entry);
  const parent = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  const chains: string[] = [];
  const chainOf = (file: string): string[] => {
    const out: string[] = [];
    for (let at: string | null | undefined = file; at; at = parent.get(at)) out.unshift(relative(root, at));
    return out;
  };
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1]!;
      const path = resolveImport(file, specifier);
      const shown = path ? relative(root, path) : specifier;
      if (refused(specifier, path ? relative(root, path) : null)) chains.push([...chainOf(file), shown].join(' → '));
      else if (path && !parent.has(path)) {
        parent.set(path, file);
        queue.push(path);
      }
    }
  }
  return chains;
}

const heavy = (specifier: string, path: string | null) => specifier === 'zod' || path === 'src/domain/messages.ts' || path === 'src/protocol/browser-zod/index.ts';

describe('the first screens load no schemas and no whole catalogue', () => {
  it.each(['src/app/main.tsx', 'src/app/SignedIn.tsx'])('%s reaches neither zod nor src/domain/messages.ts', (entry) => {
    expect(chainsTo(entry, heavy)).toEqual([]);
  });

  it('the walk finds such a chain where there is one', () => {
    // The clip screen parses and validates: it must be found reaching both.
    const chains = chainsTo('src/features/clips/ClipScreen.tsx', heavy);
    expect(chains.some((c) => c.endsWith('→ zod'))).toBe(true);
    expect(chains.some((c) => c.endsWith('→ src/domain/messages.ts'))).toBe(true);
  });
});
