// One interface for speech-to-text engines (issue 34). The transcription job
// (sync-server/transcription/job.ts) decodes a clip's or recording's audio to a 16 kHz mono WAV
// file and hands it to the configured engine; what comes back is saved as the transcript.
//
// An engine:
//   - says which languages it has models for (ISO 639-1 codes, as the reference languages); the
//     POST …/transcript route refuses any other with a 400 at `language` before a job is queued;
//   - transcribes a 16 kHz mono 16-bit WAV file (engineWav: the job writes it with the server's own
//     decoder) into cues with start and end seconds, and the words with their times when it has
//     them (pocketsphinx does), which an editor can seek by;
//   - throws a TranscriptionEngineError whose message is the reason a person can act on (the
//     engine is not installed, it ran out of time, its own error output): the job keeps it as the
//     failure's why, and tries again per the job's attempts.
//
// The offline engine is Debian's pocketsphinx with its US English model (pocketsphinx.ts), chosen
// by measurement (see the commit and bench/audio.bench.ts): whisper.cpp's npm bindings exist, but
// no registry package ships a model and the ones that fetch it at install or run time cannot here.
// A hosted engine (a speech-to-text web API) is a second implementation of this type, chosen by
// CASTAWAY_TRANSCRIPTION_ENGINE, with its key from the environment; it would send the same WAV
// file and map its answer's segments to EngineCue. None is configured today, and an unknown name is
// a start-up error rather than a silent fallback.
import { pocketsphinxEngine } from './pocketsphinx.ts';

export type EngineWord = { start: number; end: number; text: string };
export type EngineCue = { start: number; end: number; text: string; words?: EngineWord[] };

export type TranscribeOptions = {
  /** Aborted when the job loses its lease: the engine's child process is killed. */
  signal?: AbortSignal;
  /** Longest the engine may run on this file before it is killed and the attempt fails. */
  timeoutMs: number;
};

export interface TranscriptionEngine {
  /** Its name as configured and as a failure names it. */
  readonly name: string;
  /** ISO 639-1 codes it has a model for. */
  readonly languages: readonly string[];
  /** Cues in time order, none overlapping; an empty list when it heard no speech. */
  transcribe(wavPath: string, language: string, options: TranscribeOptions): Promise<EngineCue[]>;
}

/** A failure the engine describes: its message is shown to the people who asked (say nothing of
 *  the server's paths there); `detail` (its log's lines) goes to the server's log only. */
export class TranscriptionEngineError extends Error {
  override name = 'TranscriptionEngineError';
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The engine language code a request's language means ("en-US" and "EN" are "en"), or null when the engine has no model for it. */
export function engineLanguage(engine: Pick<TranscriptionEngine, 'languages'>, language: string): string | null {
  const base = language.trim().toLowerCase().split('-')[0] ?? '';
  return engine.languages.includes(base) ? base : null;
}

export const ENGINES = { pocketsphinx: pocketsphinxEngine } as const satisfies Record<string, (env: NodeJS.ProcessEnv) => TranscriptionEngine>;

/** The engine CASTAWAY_TRANSCRIPTION_ENGINE names (default pocketsphinx). */
export function configuredEngine(env: NodeJS.ProcessEnv = process.env): TranscriptionEngine {
  const name = env.CASTAWAY_TRANSCRIPTION_ENGINE?.trim() || 'pocketsphinx';
  const make = (ENGINES as Record<string, ((env: NodeJS.ProcessEnv) => TranscriptionEngine) | undefined>)[name];
  if (!make) throw new TranscriptionEngineError(`CASTAWAY_TRANSCRIPTION_ENGINE=${name}: no such engine (${Object.keys(ENGINES).join(', ')})`);
  return make(env);
}

/** How long an engine may take on `seconds` of audio: a minute, plus ten times its length (pocketsphinx measured ≈ 0.15 × real time here). */
export const engineTimeoutMs = (seconds: number, env: NodeJS.ProcessEnv = process.env) => {
  const fixed = Number(env.CASTAWAY_TRANSCRIPTION_TIMEOUT_MS);
  return Number.isFinite(fixed) && fixed > 0 ? fixed : 60_000 + Math.ceil(seconds * 10_000);
};
