import { describe, expect, it } from 'vitest';
import { parsePocketsphinxTimes } from './pocketsphinx.ts';

// pocketsphinx_continuous -time yes output, as it prints it (two utterances).
const OUTPUT = `four score and seven years ago
<s> 0.000 0.020 0.999000
four 0.030 0.300 0.563005
score 0.310 0.650 0.597047
<sil> 0.660 0.830 0.999100
and 0.840 1.030 0.154013
seven 1.040 1.490 0.727722
years(2) 1.500 1.820 0.996207
ago 1.830 2.080 0.999100
</s> 2.090 2.340 1.000000
our fathers
<s> 11.940 12.130 0.996306
our(3) 12.140 12.340 0.151735
[NOISE] 12.340 12.500 0.5
fathers 12.500 12.790 0.077468
</s> 12.800 13.200 1.000000
`;

describe('pocketsphinx output', () => {
  it('reads utterances into cues with their words and times, alternative pronunciations and fillers left out', () => {
    const cues = parsePocketsphinxTimes(OUTPUT);
    expect(cues.map((c) => [c.start, c.end, c.text])).toEqual([
      [0.03, 2.08, 'four score and seven years ago'],
      [12.14, 12.79, 'our fathers'],
    ]);
    expect(cues[1]!.words).toEqual([
      { start: 12.14, end: 12.34, text: 'our' },
      { start: 12.5, end: 12.79, text: 'fathers' },
    ]);
  });

  it('cuts a long utterance into caption-length cues, at a pause once long enough', () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i} ${(i * 0.4).toFixed(2)} ${(i * 0.4 + 0.3).toFixed(2)} 0.9`);
    words.splice(8, 0, '<sil> 3.10 3.20 0.9'); // a pause after 8 words
    const cues = parsePocketsphinxTimes(['<s> 0.000 0.010 1', ...words, '</s> 12.0 12.1 1'].join('\n'));
    expect(cues[0]!.text.split(' ')).toHaveLength(8);
    for (const cue of cues) {
      expect(cue.words!.length).toBeLessThanOrEqual(14);
      expect(cue.end - cue.start).toBeLessThanOrEqual(7.5);
    }
    expect(cues.flatMap((c) => c.words!.map((w) => w.text))).toEqual(Array.from({ length: 30 }, (_, i) => `w${i}`));
  });

  it('hears nothing in output without words', () => {
    expect(parsePocketsphinxTimes('\n<s> 0.000 0.500 1\n</s> 0.5 1.0 1\n')).toEqual([]);
  });
});
