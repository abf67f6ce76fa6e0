// The MP3 encoder's thread (mp3-encode.ts starts one per file; plain JavaScript, so the thread
// needs no TypeScript loader): FFmpeg compiled to WebAssembly
// (@ffmpeg/core, already the server's AAC decoder) with LAME, reading a WAV from disk and writing the
// MP3 to disk through two Emscripten devices backed by synchronous file reads and writes, so memory
// stays a few MiB whatever the length (the core's heap is a fixed 32 MiB: the files never enter
// it). Its command runs synchronously for seconds to minutes, hence a thread of its own. The output
// device seeks, so FFmpeg goes back to write the LAME "Info" tag (frame count, encoder delay and
// padding): players then know the exact length and trim the encoder's silence (gapless).
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';


/** A device over an open file: reads and writes at the position FFmpeg asks for; SEEK_END is the file's size. */
/** @param {number} fd @param {() => number} size */
function fileDevice(fd, size) {
  return {
    open: () => {},
    close: () => {},
    read: (_s, /** @type {Uint8Array} */ buf, /** @type {number} */ offset, /** @type {number} */ length, /** @type {number} */ pos) => readSync(fd, buf, offset, length, pos),
    write: (_s, /** @type {Uint8Array} */ buf, /** @type {number} */ offset, /** @type {number} */ length, /** @type {number} */ pos) => writeSync(fd, buf, offset, length, pos),
    llseek: (/** @type {{ position: number }} */ s, /** @type {number} */ offset, /** @type {number} */ whence) => (whence === 2 ? size() + offset : whence === 1 ? s.position + offset : offset),
  };
}

/** @param {import('./mp3-encode.ts').Mp3EncodeRequest} request @returns {Promise<import('./mp3-encode.ts').Mp3EncodeReply>} */
async function encode({ wavPath, mp3Path, bitrateKbps, wasm }) {
  const require = createRequire(import.meta.url);
  const script = join(dirname(require.resolve('@ffmpeg/core')), '../esm/ffmpeg-core.js');
  const factory = (await import(pathToFileURL(script).href)).default;
  // The worker build reads self.location.href once, when the factory starts.
  /** @type {{ self?: unknown }} */ (globalThis).self = { location: { href: pathToFileURL(script).href } };
  /** @type {string[]} */
  const log = [];
  const core = await factory({
    instantiateWasm: (/** @type {WebAssembly.Imports} */ imports, /** @type {(i: WebAssembly.Instance, m: WebAssembly.Module) => void} */ receive) => {
      void WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm));
      return {};
    },
    print: () => {},
    printErr: (/** @type {string} */ line) => void log.push(line),
  });
  const input = openSync(wavPath, 'r');
  const output = openSync(mp3Path, 'w+');
  try {
    const devices = /** @type {const} */ ([['/castaway-in.wav', input], ['/castaway-out.mp3', output]]);
    devices.forEach(([path, fd], i) => {
      const dev = core.FS.makedev(65, i);
      core.FS.registerDevice(dev, fileDevice(fd, () => fstatSync(fd).size));
      core.FS.mkdev(path, dev);
    });
    const rc = core.exec('-nostdin', '-y', '-f', 'wav', '-i', devices[0][0], '-c:a', 'libmp3lame', '-b:a', `${bitrateKbps}k`, '-f', 'mp3', devices[1][0]);
    if (rc !== 0) return { ok: false, error: `ffmpeg exited ${rc}: ${log.slice(-3).join(' | ')}` };
    return { ok: true, size: fstatSync(output).size };
  } finally {
    closeSync(input);
    closeSync(output);
  }
}

if (parentPort) {
  const port = parentPort;
  encode(workerData).then(
    (reply) => port.postMessage(reply),
    (e) => port.postMessage({ ok: false, error: String(e) }),
  );
}
