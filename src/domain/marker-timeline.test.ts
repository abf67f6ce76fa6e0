// markerTimeline (src/domain/intro-outro.ts): the marker editors' one conversion between the
// published audio the player plays and the episode's timeline the markers are on.
import { describe, expect, it } from 'vitest';
import { markerTimeline } from './intro-outro.ts';

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
});
