// The demo's own audio, made in code for machines without the audio fixtures
// (shared/fixtures/audio): 24 s of mono 22.05 kHz 16-bit WAV that looks and sounds like a voice
// reading (a chime, then "syllables" of a few harmonics with rising and falling pitch, in phrases
// separated by pauses), so a demo clip's waveform has the shape of speech. Deterministic: the same
// bytes on every machine (a seeded generator), hence the same content-addressed demo folder.
import { pcm16, wavHeader } from '../../src/media/wav.ts';

export const DEMO_SYNTH = { fileName: 'castaway-demo-voice.wav', seconds: 24, sampleRate: 22050 } as const;

/** A small seeded random generator (also the demo seed's). */
export function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The WAV file's bytes. */
export function synthesizeDemoVoice(): Uint8Array {
  const { sampleRate: rate, seconds } = DEMO_SYNTH;
  const n = rate * seconds;
  const x = new Float32Array(n);
  const rand = mulberry32(24);
  // A chime: 0.8 s of a decaying 660 Hz tone with its fifth.
  for (let i = 0; i < 0.8 * rate; i++) {
    const t = i / rate;
    x[i] = 0.5 * Math.exp(-4 * t) * (Math.sin(2 * Math.PI * 660 * t) + 0.5 * Math.sin(2 * Math.PI * 990 * t)) / 1.5;
  }
  let at = Math.floor(1.3 * rate);
  while (at < n - 0.5 * rate) {
    // A phrase of 4 to 9 syllables, then a pause.
    const syllables = 4 + Math.floor(rand() * 6);
    for (let s = 0; s < syllables && at < n - 0.5 * rate; s++) {
      const len = Math.floor((0.1 + rand() * 0.22) * rate);
      const f0 = 95 + rand() * 120;
      const glide = (rand() - 0.5) * 40;
      const loud = 0.25 + rand() * 0.6;
      let phase = 0;
      for (let i = 0; i < len && at + i < n; i++) {
        const u = i / len;
        phase += (2 * Math.PI * (f0 + glide * u)) / rate;
        const env = Math.sin(Math.PI * u) ** 0.7;
        const voice = Math.sin(phase) + 0.6 * Math.sin(2 * phase) + 0.35 * Math.sin(3 * phase) + 0.2 * Math.sin(5 * phase);
        x[at + i] = (loud * env * voice) / 2.15 + (rand() - 0.5) * 0.02 * env;
      }
      at += len + Math.floor((0.03 + rand() * 0.1) * rate);
    }
    at += Math.floor((0.35 + rand() * 0.6) * rate);
  }
  const header = wavHeader(rate, 1, n);
  const data = pcm16({ sampleRate: rate, channels: [x] });
  const out = new Uint8Array(header.length + data.length);
  out.set(header);
  out.set(data, header.length);
  return out;
}
