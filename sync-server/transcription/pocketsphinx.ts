// The offline engine: CMU pocketsphinx as Debian packages it (pocketsphinx: the
// pocketsphinx_continuous program; pocketsphinx-en-us: the US English acoustic model, dictionary
// and language model it loads by default), run as a child process on the 16 kHz mono WAV file.
//
//   pocketsphinx_continuous -infile f.wav -time yes -remove_noise no
//     stdout: per utterance, its hypothesis line, then one line per word "word start end confidence"
//             ("<s>", "</s>", "<sil>" and fillers such as "[NOISE]" mark silence; "word(2)" is
//             the dictionary's second pronunciation of "word"); times are seconds from the start
//     stderr: its log (INFO lines), and ERROR/FATAL lines when it fails: kept as the failure's why
//
// -remove_noise no: its noise-removal stage is tuned for microphones and eats into synthetic or
// studio-clean speech (on the espeak-ng reading: WER 0.82 with it, 0.76 without).
// Utterances (up to half a minute) are cut into cues at pauses, so a cue stays a caption's length.
import { spawn } from 'node:child_process';
import { TranscriptionEngineError, type EngineCue, type EngineWord, type TranscribeOptions, type TranscriptionEngine } from './engine.ts';

export const POCKETSPHINX_PROGRAM = 'pocketsphinx_continuous';

/** A cue ends at a pause once it holds this many words, and at the latest at CUE_MAX_WORDS or CUE_MAX_SECONDS. */
const CUE_MIN_WORDS = 6;
const CUE_MAX_WORDS = 14;
const CUE_MAX_SECONDS = 7;
/** Kept of the engine's stderr for a failure's reason. */
const STDERR_KEPT_CHARS = 8_000;

type Token = { start: number; end: number; text: string };

const SILENCE = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\]|\+\+.*\+\+)$/;

/** The cues of pocketsphinx_continuous -time yes output (exported for its unit test). */
export function parsePocketsphinxTimes(stdout: string): EngineCue[] {
  const cues: EngineCue[] = [];
  let words: EngineWord[] = [];
  const close = () => {
    if (words.length === 0) return;
    cues.push({ start: words[0]!.start, end: words[words.length - 1]!.end, text: words.map((w) => w.text).join(' '), words });
    words = [];
  };
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e-?\d+)?)$/.exec(line.trim());
    if (!m) continue; // a hypothesis line: the same words as those that follow it
    const token: Token = { text: m[1]!, start: Number(m[2]), end: Number(m[3]) };
    if (SILENCE.test(token.text)) {
      if (words.length >= CUE_MIN_WORDS || token.text === '</s>') close();
      continue;
    }
    const text = token.text.replace(/\(\d+\)$/, '');
    if (words.length > 0 && (words.length >= CUE_MAX_WORDS || token.end - words[0]!.start > CUE_MAX_SECONDS)) close();
    words.push({ start: token.start, end: Math.max(token.start, token.end), text });
  }
  close();
  return cues;
}

/** The lines of its log that say what went wrong (ERROR, FATAL), else its last lines. */
function reasonOf(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  const bad = lines.filter((l) => /^(ERROR|FATAL|FATAL_ERROR)\b/.test(l) || /error/i.test(l));
  return (bad.length > 0 ? bad : lines.slice(-5)).join('\n').slice(-2000);
}

export function pocketsphinxEngine(env: NodeJS.ProcessEnv): TranscriptionEngine {
  const program = env.CASTAWAY_POCKETSPHINX ?? POCKETSPHINX_PROGRAM;
  return {
    name: 'pocketsphinx',
    // Debian packages the US English model only (pocketsphinx-en-us).
    languages: ['en'],
    transcribe(wavPath: string, _language: string, options: TranscribeOptions): Promise<EngineCue[]> {
      return new Promise((resolve, reject) => {
        const child = spawn(program, ['-infile', wavPath, '-time', 'yes', '-remove_noise', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        let why: string | null = null;
        const stop = (reason: string) => {
          why ??= reason;
          child.kill('SIGKILL');
        };
        const timer = setTimeout(() => stop(`${program} took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped`), options.timeoutMs);
        const onAbort = () => stop('the job was taken over by another instance');
        options.signal?.addEventListener('abort', onAbort, { once: true });
        child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
        child.stderr.setEncoding('utf8').on('data', (s: string) => {
          stderr = (stderr + s).slice(-STDERR_KEPT_CHARS);
        });
        const finish = () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
        };
        child.on('error', (e: NodeJS.ErrnoException) => {
          finish();
          reject(
            new TranscriptionEngineError(
              e.code === 'ENOENT' ? `${program} is not installed on the server (Debian: apt-get install pocketsphinx pocketsphinx-en-us)` : `${program} could not be started (${e.code ?? e.name})`,
            ),
          );
        });
        child.on('close', (code, signal) => {
          finish();
          if (why) return reject(new TranscriptionEngineError(why));
          if (code !== 0) return reject(new TranscriptionEngineError(`${program} failed (${signal ?? `exit ${code}`})`, reasonOf(stderr)));
          resolve(parsePocketsphinxTimes(stdout));
        });
      });
    },
  };
}
