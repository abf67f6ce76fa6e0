// A clip's chapters and mid-rolls as the cut editor's read-only points (episode-markers.ts).
import { describe, expect, it } from 'vitest';
import { episodeMarkers } from './episode-markers.ts';

describe('episodeMarkers', () => {
  it('names each chapter by its title and each mid-roll by its ads; pre- and post-rolls have no time on the waveform', () => {
    expect(
      episodeMarkers({
        Chapters: [{ StartSeconds: 0, Title: 'Welcome' }, { StartSeconds: 65, Title: ' ' }],
        AdMarkers: [{ Type: 'PreRoll', Seconds: null, MaxAds: 1 }, { Type: 'MidRoll', Seconds: 300, MaxAds: 1 }, { Type: 'MidRoll', Seconds: 420, MaxAds: 2 }, { Type: 'PostRoll', Seconds: null, MaxAds: 1 }],
      }),
    ).toEqual([
      { id: 'chapter-0', seconds: 0, label: 'Chapter: Welcome' },
      { id: 'chapter-1', seconds: 65, label: 'Chapter without a title' },
      { id: 'midroll-0', seconds: 300, label: 'Ad break: mid-roll, up to 1 ad' },
      { id: 'midroll-1', seconds: 420, label: 'Ad break: mid-roll, up to 2 ads' },
    ]);
    expect(episodeMarkers({ Chapters: [] })).toEqual([]);
  });
});
