// The silence finder (src/media/silences.ts) on audio made with ffmpeg: a tone with silences at
// known times, as a WAV (sample exact) and as an MP3 (the encoder's delay and ringing move the
// edges by a few milliseconds), decoded by src/media as the server decodes a clip.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAudioDecoding } from '../../src/media/decode.ts';
import { findSilences } from '../../src/media/silences.ts';
import { blobSource } from '../../src/media/source.ts';
import { registerNodeAudioDecoders } from '../../sync-server/media/node-decoder.ts';
import { fixturePath } from './fixtures.ts';

registerNodeAudioDecoders();

const temp = mkdtempSync(join(tmpdir(), 'castaway-silences-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// Tone 0–2 s, silence 2–3.5 s, tone to 6.5 s, silence 6.5–7.3 s, tone to 8.3 s, a 0.3 s gap
// (shorter than the 0.5 s a silence needs), tone to the end at 9.6 s.
const EXPRESSION = "if(between(t,2,3.5)+between(t,6.5,7.3)+between(t,8.3,8.6),0,0.5*sin(2*PI*440*t))";

function make(name: string, args: string[]): string {
  const file = join(temp, name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc='${EXPRESSION}':d=9.6:s=44100`, ...args, file]);
  return file;
}

async function silencesOf(file: string) {
  const decoding = await openAudioDecoding(blobSource(await openAsBlob(file)), { reuseBuffers: true });
  return findSilences(decoding.blocks);
}

describe('silence finder', () => {
  it('finds the two silences of a tone in a WAV to the 20 ms window, and not the 0.3 s gap', async () => {
    const found = await silencesOf(make('tone.wav', ['-c:a', 'pcm_s16le']));
    expect(found).toHaveLength(2);
    const [a, b] = found;
    expect(Math.abs(a!.start - 2)).toBeLessThanOrEqual(0.02);
    expect(Math.abs(a!.end - 3.5)).toBeLessThanOrEqual(0.02);
    expect(Math.abs(b!.start - 6.5)).toBeLessThanOrEqual(0.02);
    expect(Math.abs(b!.end - 7.3)).toBeLessThanOrEqual(0.02);
    expect(found.some((s) => s.touchesStart || s.touchesEnd)).toBe(false);
  });

  it('finds the same silences in a stereo MP3 within the encoder’s delay', async () => {
    const found = await silencesOf(make('tone.mp3', ['-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k']));
    const expected = [
      [2, 3.5],
      [6.5, 7.3],
    ];
    expect(found).toHaveLength(2);
    found.forEach((s, i) => {
      expect(Math.abs(s.start - expected[i]![0]!)).toBeLessThanOrEqual(0.08);
      expect(Math.abs(s.end - expected[i]![1]!)).toBeLessThanOrEqual(0.08);
    });
  });

  it('reports silence at the start and the end of the audio as such', async () => {
    const file = join(temp, 'padded.wav');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', "aevalsrc='if(between(t,1,2),0.5*sin(2*PI*440*t),0)':d=3:s=48000", '-c:a', 'pcm_s16le', file]);
    const found = await silencesOf(file);
    expect(found.map((s) => [s.touchesStart, s.touchesEnd])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(Math.abs(found[1]!.end - 3)).toBeLessThanOrEqual(0.001);
  });

  it('a stricter threshold finds no silence in the pauses of the spoken fixture that a looser one finds', async () => {
    const decode = async () => (await openAudioDecoding(blobSource(await openAsBlob(fixturePath('speech-12s.mp3'))), { reuseBuffers: true })).blocks;
    const loose = await findSilences(await decode(), { thresholdDb: -30, minSeconds: 0.2 });
    const strict = await findSilences(await decode(), { thresholdDb: -90, minSeconds: 0.2 });
    expect(loose.length).toBeGreaterThan(strict.filter((s) => !s.touchesStart && !s.touchesEnd).length);
  });
});
