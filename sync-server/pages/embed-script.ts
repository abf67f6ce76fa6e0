// The embed player's script (embed-player.ts) compiled once per process with esbuild: TypeScript
// stripped, minified, wrapped so that nothing leaks into the page's globals. Its hash versions the
// URL the embed page gives it, so browsers keep it for a year and a new build is a new URL.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { transform } from 'esbuild';

export type EmbedScript = { code: string; bytes: number; hash: string };

/** Where the embed page loads its script from. */
export const EMBED_SCRIPT_PATH = '/embed/assets/player.js';

let compiled: Promise<EmbedScript> | null = null;

async function compile(): Promise<EmbedScript> {
  const source = await readFile(new URL('./embed-player.ts', import.meta.url), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'iife', minify: true, target: 'es2020', charset: 'utf8', legalComments: 'none' });
  return { code, bytes: Buffer.byteLength(code), hash: createHash('sha256').update(code).digest('base64url').slice(0, 16) };
}

export function embedScript(): Promise<EmbedScript> {
  compiled ??= compile().catch((err: unknown) => {
    compiled = null;
    throw err;
  });
  return compiled;
}
