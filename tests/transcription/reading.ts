// The speech the transcription test and benchmark hear: espeak-ng reading a known public-domain
// text (the opening of Lincoln's Gettysburg Address, 1863, in gettysburg-reading.txt), so the words
// said are known exactly and the word error rate can be measured. At 150 words a minute with the
// en-us voice the reading lasts 60.6 s. Made on the spot by espeak-ng (installed by .ci/run), so
// the repository holds the text, not a megabyte of audio, and the reading is the same on every
// machine with the same espeak-ng.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const READING_TEXT_PATH = join(dirname(fileURLToPath(import.meta.url)), 'gettysburg-reading.txt');
export const READING_TEXT = readFileSync(READING_TEXT_PATH, 'utf8');
export const READING_VOICE = 'en-us';
export const READING_WORDS_PER_MINUTE = 150;

/** The reading's first sentence (about 12 s read): what a tiny benchmark run transcribes. */
export const READING_FIRST_SENTENCE = READING_TEXT.slice(0, READING_TEXT.indexOf('.') + 1);

/** Writes espeak-ng's reading of the text (or of `text`, a part of it) as a WAV file (22.05 kHz
 *  mono) at `path`. */
export async function writeReading(path: string, text: string = READING_TEXT): Promise<void> {
  await promisify(execFile)('espeak-ng', ['-v', READING_VOICE, '-s', String(READING_WORDS_PER_MINUTE), '-w', path, ...(text === READING_TEXT ? ['-f', READING_TEXT_PATH] : [text])]);
}
