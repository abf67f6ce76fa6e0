import { describe, expect, it } from 'vitest';
import { LIVE_STREAM_LOST_MS, liveStreamHeartbeatMs, liveStreamSweepMs, liveWatchRetryMs, tornAudio } from './live-streams.ts';

const row = (State: string, HasTornAudio: boolean, AudioUrl: string | null) => ({ State, HasTornAudio, Urls: { AudioUrl } });

describe('live streams', () => {
  it('a lost stream is a dozen missed heartbeats, found by a sweep within a quarter of the lost time', () => {
    expect(liveStreamHeartbeatMs(LIVE_STREAM_LOST_MS)).toBe(5_000);
    expect(liveStreamSweepMs(LIVE_STREAM_LOST_MS)).toBe(15_000);
    expect(liveStreamHeartbeatMs(6_000)).toBe(500);
  });

  it('tornAudio: what a cut-off recording kept', () => {
    expect(tornAudio(row('Finalized', true, null))).toBe('lost');
    expect(tornAudio(row('Finalized', true, '/api/media/recordings/x/audio'))).toBe('kept');
    expect(tornAudio(row('Processing', true, null))).toBe('kept');
    expect(tornAudio(row('Live', true, '/api/v1/recordings/x/live/audio'))).toBeNull();
    expect(tornAudio(row('Finalized', false, null))).toBeNull();
  });

  it('a watcher asks again after half a second, then doubling up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(liveWatchRetryMs)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
