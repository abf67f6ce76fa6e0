// MP3 for publishing: podcast apps and Apple take MP3 or M4A, not WAV or FLAC. A rendered WAV (a
// cut, or a lossless upload decoded whole) is encoded on a thread of its own (mp3-encode-worker.ts:
// FFmpeg's LAME in WebAssembly, the @ffmpeg/core the server already ships for AAC), constant bit
// rate so podcast apps seek by byte offset without an index. One thread per file, ended after it:
// the core leaks a little per command, and a fresh one costs under a second.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** wasm: the core compiled once per process (a module is handed to a thread without copying its code). */
export type Mp3EncodeRequest = { wavPath: string; mp3Path: string; bitrateKbps: number; wasm: WebAssembly.Module };
export type Mp3EncodeReply = { ok: true; size: number } | { ok: false; error: string };

/** Spoken word is most of what is published: 96 kbps mono, 128 kbps stereo (CBR). */
export const mp3BitrateKbps = (channels: number) => (channels > 1 ? 128 : 96);

export class Mp3EncodeError extends Error {}

let compiled: Promise<WebAssembly.Module> | null = null;
function ffmpegWasm(): Promise<WebAssembly.Module> {
  const require = createRequire(import.meta.url);
  compiled ??= readFile(join(dirname(require.resolve('@ffmpeg/core')), '../esm/ffmpeg-core.wasm')).then((bytes) => WebAssembly.compile(bytes));
  return compiled.catch((e: unknown) => { compiled = null; throw e; });
}

/** Encodes the WAV at wavPath to an MP3 at mp3Path (created or replaced); resolves to its size. */
export async function encodeWavToMp3(wavPath: string, mp3Path: string, channels: number): Promise<number> {
  const request: Mp3EncodeRequest = { wavPath, mp3Path, bitrateKbps: mp3BitrateKbps(channels), wasm: await ffmpegWasm() };
  const worker = new Worker(new URL('./mp3-encode-worker.mjs', import.meta.url), { workerData: request });
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    worker.once('message', (reply: Mp3EncodeReply) => {
      settled = true;
      if (reply.ok) resolve(reply.size);
      else reject(new Mp3EncodeError(reply.error));
      void worker.terminate();
    });
    worker.once('error', (e) => { if (!settled) { settled = true; reject(e); } });
    worker.once('exit', (code) => { if (!settled) reject(new Mp3EncodeError(`the encoder thread exited ${code}`)); });
  });
}
