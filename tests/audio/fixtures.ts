// The shared audio fixtures (CI clones the repo next to shared/) and the ffmpeg reference values
// made by fixtures-ref/make-refs.ts.
import { openAsBlob } from 'node:fs';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blobSource, type ByteSource } from '../../src/media/source.ts';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../..');
export const fixturesDir = SHARED_FIXTURES_DIR;

export function fixturePath(name: string): string {
  return join(fixturesDir, name);
}

export async function fixtureSource(name: string): Promise<ByteSource> {
  return blobSource(await openAsBlob(fixturePath(name)));
}

export type Reference = {
  file: string;
  codec: string;
  sampleRate: number;
  channels: number;
  ffprobeDurationSeconds: number;
  ffmpegDecodedFrames: number;
  samplesPerPixel: number;
  peaks: number[];
};

export function reference(name: string): Reference {
  return JSON.parse(readFileSync(join(here, 'fixtures-ref', `${name}.json`), 'utf8')) as Reference;
}
