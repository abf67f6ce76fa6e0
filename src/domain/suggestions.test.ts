import { describe, expect, it } from 'vitest';
import { DEFAULT_AD_MARKER_RULES, type AdMarker } from './ad-markers.ts';
import { suggestChapters, suggestMidRolls, titleFromCue, transcriptBoundaries, type SilenceSpan } from './suggestions.ts';

const gap = (start: number, end: number): SilenceSpan => ({ start, end, touchesStart: false, touchesEnd: false });

describe('suggested mid-rolls', () => {
  it('sit in the middle of silences inside the audio, longest first within the rules, in time order', () => {
    const silences = [{ start: 0, end: 3, touchesStart: true, touchesEnd: false }, gap(100, 101), gap(300, 304), gap(320, 322), gap(900, 902), { start: 1795, end: 1800, touchesStart: false, touchesEnd: true }];
    const rules = { ...DEFAULT_AD_MARKER_RULES, MinSpacingSeconds: 120, NoMidRollFirstSeconds: 120, MaxMidRolls: 3 };
    const existing: AdMarker[] = [{ Type: 'MidRoll', Seconds: 1200, MaxAds: 2 }];
    // 302 (the longest), 901; 321 is too close to 302, 100.5 in the opening; the third mid-roll is the clip's own.
    expect(suggestMidRolls(silences, rules, 1800, existing)).toEqual([
      { Seconds: 302, SilenceSeconds: 4 },
      { Seconds: 901, SilenceSeconds: 2 },
    ]);
  });

  it('with no rules, every silence inside the audio is a place', () => {
    expect(suggestMidRolls([gap(10, 11), gap(20, 21)], DEFAULT_AD_MARKER_RULES, 60, []).map((s) => s.Seconds)).toEqual([10.5, 20.5]);
  });
});

describe('suggested chapters', () => {
  const talk = (start: number, words: string) => ({ start, end: start + 9, text: words });
  const cooking = 'tomatoes simmer garlic onions basil pasta sauce kitchen recipe';
  const football = 'goalkeeper penalty stadium referee striker league match season transfer';
  const cues = [
    ...Array.from({ length: 8 }, (_, i) => talk(i * 10, cooking)),
    ...Array.from({ length: 8 }, (_, i) => talk(80 + i * 10, `${i === 0 ? 'Now football. ' : ''}${football}`)),
    talk(200, 'after a long pause we are back'),
  ];

  it('the transcript’s change of words and a long pause are boundaries, titled by their cue (at most 60 characters)', () => {
    expect(transcriptBoundaries(cues)).toEqual([
      { StartSeconds: 80, Title: 'Now football. goalkeeper penalty stadium referee striker le…', Reason: 'TopicChange' },
      { StartSeconds: 200, Title: 'after a long pause we are back', Reason: 'Pause' },
    ]);
  });

  it('silences add chapters where talk resumes, none near a chapter the clip has', () => {
    const s = suggestChapters([gap(40, 42), gap(140, 145), gap(190, 191)], cues, 240, [150]);
    // 80 and 200 from the transcript; 145 is within 30 s of the chapter at 150; 42 is kept; 191 is too short.
    expect(s.map((x) => [x.StartSeconds, x.Reason])).toEqual([
      [42, 'Silence'],
      [80, 'TopicChange'],
      [200, 'Pause'],
    ]);
  });

  it('a title is the opening words of the cue, without trailing punctuation', () => {
    expect(titleFromCue('  Welcome back,  everyone!  ')).toBe('Welcome back,  everyone'.replace(/\s+/g, ' '));
  });
});
