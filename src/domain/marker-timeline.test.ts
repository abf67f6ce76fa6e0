// markerTimeline (src/domain/intro-outro.ts): the marker editors' one conversion between the
// published audio the player plays and the episode's timeline the markers are on.
import { describe, expect, it } from 'vitest';
import { episodeSecondsOf, markerTimeline } from './intro-outro.ts';

describe('markerTimeline', () => {
  it('behind an intro: a seek is later by it, the playhead earlier, 0 while the intro plays, the timeline shorter by it', () => {
    const t = markerTimeline({ PublishedIntroSeconds: 12.5 }, 612.5);
    expect(t.toPlayer(30)).toBe(42.5);
    expect(t.fromPlayer(42.5)).toBe(30);
    expect(t.fromPlayer(12.5)).toBe(0);
    expect(t.fromPlayer(3)).toBe(0);
    expect(t.episodeSeconds).toBe(600);
  });

  it('without an intro (absent, null or 0) both timelines are one', () => {
    for (const row of [{}, { PublishedIntroSeconds: null }, { PublishedIntroSeconds: 0 }]) {
      const t = markerTimeline(row, 600);
      expect([t.introSeconds, t.toPlayer(30), t.fromPlayer(30), t.episodeSeconds]).toEqual([0, 30, 30, 600]);
    }
    expect(markerTimeline({ PublishedIntroSeconds: 12 }, null).episodeSeconds).toBeNull();
  });

  it('before an outro: the timeline is shorter by it as well, a seek is moved by the intro alone, and the playhead stays at the episode’s end while the outro plays', () => {
    const t = markerTimeline({ PublishedIntroSeconds: 12, PublishedOutroSeconds: 8 }, 620);
    expect([t.introSeconds, t.outroSeconds, t.episodeSeconds]).toEqual([12, 8, 600]);
    expect(t.toPlayer(600)).toBe(612);
    expect(t.fromPlayer(611)).toBe(599);
    expect(t.fromPlayer(615)).toBe(600);
    expect(t.fromPlayer(620)).toBe(600);
    // An outro without an intro: the same timelines up to the episode's end.
    const o = markerTimeline({ PublishedOutroSeconds: 8 }, 608);
    expect([o.episodeSeconds, o.toPlayer(30), o.fromPlayer(30), o.fromPlayer(604)]).toEqual([600, 30, 30, 600]);
  });
});

describe('episodeSecondsOf', () => {
  it('is the row’s published length less its intro and outro; unknown without a length', () => {
    expect(episodeSecondsOf({ DurationSeconds: 620, PublishedIntroSeconds: 12, PublishedOutroSeconds: 8 })).toBe(600);
    expect(episodeSecondsOf({ DurationSeconds: 620, PublishedOutroSeconds: 20 })).toBe(600);
    expect(episodeSecondsOf({ DurationSeconds: 600, PublishedIntroSeconds: null, PublishedOutroSeconds: null })).toBe(600);
    expect(episodeSecondsOf({ DurationSeconds: null, PublishedOutroSeconds: 8 })).toBeNull();
  });
});
