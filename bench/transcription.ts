// The transcription part of `npm run bench:audio` (issue 34): espeak-ng's 60-second reading of a
// known text (tests/transcription/reading.ts) through what the transcription job does — the
// server's decoder and 16 kHz resampler (sync-server/transcription/audio16k.ts), then the
// configured engine (pocketsphinx) as a child process — timed, and its words held against the
// text by word error rate. The reference, measured in the same run: the same engine on the same
// reading resampled by ffmpeg (its swr resampler), so the ratios show what our decoder and
// resampler cost or gain. Real-time factor: engine time / audio length (below 1: faster than the
// audio plays). whisper.cpp is reported unavailable with why (no registry package ships a model).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wordErrorRate } from '../src/domain/word-error-rate.ts';
import { engineWavPath, writeEngineWav } from '../sync-server/transcription/audio16k.ts';
import { configuredEngine } from '../sync-server/transcription/engine.ts';
import { READING_FIRST_SENTENCE, READING_TEXT, writeReading } from '../tests/transcription/reading.ts';
import { sized, unavailable } from './tiny.ts';
import { openAsBlob } from 'node:fs';

type Line = (metric: string, value: number, unit: string) => void;

export async function transcriptionBench(line: Line): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'castaway-bench-asr-'));
  // A tiny run (bench/tiny.ts) reads the first sentence: two engine runs over the whole minute
  // were a third of CI's tiny benchmarks.
  const text = sized(READING_TEXT, READING_FIRST_SENTENCE);
  try {
    const reading = join(dir, 'reading.wav');
    try {
      await writeReading(reading, text);
    } catch (e) {
      return unavailable('transcription', new Error(`espeak-ng could not read the text (apt-get install -y espeak-ng): ${String(e)}`));
    }
    const engine = configuredEngine();
    const ours = engineWavPath();
    const t0 = performance.now();
    const seconds = await writeEngineWav(await openAsBlob(reading), ours);
    const decodeSeconds = (performance.now() - t0) / 1000;
    const run = async (wav: string) => {
      const start = performance.now();
      const cues = await engine.transcribe(wav, 'en', { timeoutMs: 600_000 });
      return { seconds: (performance.now() - start) / 1000, wer: wordErrorRate(text, cues.map((c) => c.text).join(' ')) };
    };
    let heard: { seconds: number; wer: number };
    try {
      heard = await run(ours);
    } catch (e) {
      return unavailable(`transcription_${engine.name}`, e);
    } finally {
      await rm(ours, { force: true });
    }
    const tag = `transcription_${engine.name}_espeak_reading`;
    line(`${tag}_audio_duration`, seconds, 's');
    line(`${tag}_decode_resample_time`, decodeSeconds, 's');
    line(`${tag}_engine_time`, heard.seconds, 's');
    line(`${tag}_realtime_factor`, heard.seconds / seconds, 'x');
    line(`${tag}_word_error_rate`, heard.wer, 'ratio');
    // The reference: ffmpeg's resampler in front of the same engine.
    const theirs = join(dir, 'ffmpeg-16k.wav');
    try {
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', reading, '-ar', '16000', '-ac', '1', theirs]);
    } catch (e) {
      return unavailable(`${tag}_ffmpeg_reference`, e);
    }
    const reference = await run(theirs);
    line(`${tag}_ffmpeg_resampled_word_error_rate`, reference.wer, 'ratio');
    line(`${tag}_word_error_rate_ratio_to_ffmpeg_resampled`, heard.wer / Math.max(0.001, reference.wer), 'x');
    line(`${tag}_engine_time_ratio_to_ffmpeg_resampled`, heard.seconds / reference.seconds, 'x');
    // Measured, not run: see sync-server/transcription/engine.ts.
    console.log('bench: transcription_whisper_cpp = unavailable (npm has bindings but no package ships a model; those that fetch one at install or run time cannot reach it here)');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
