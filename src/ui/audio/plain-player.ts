// Plays the audio as it is (no cut): one <audio> element streaming the file with the browser's own
// range requests, so nothing is decoded whole. The cut editor's Play / Pause and the waveform's
// playhead use it; the cut preview (preview-player.ts) is the separate, crossfading player.
//
//   paused ──play(from)──> playing ──(pause() | end of file)──> paused
//      └──────────── failure (no network, 404, undecodable) ──> paused + onFailure(what went wrong)
import { MediaError, MediaErrorCode } from '../../media/errors.ts';
import { fetchMedia } from '../../media/source.ts';

export type PlainPlayer = {
  /** Starts at `from` seconds; rejects with a MediaError the user can read. */
  play(from: number): Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  /** Seconds into the file. */
  position(): number;
  playing(): boolean;
  dispose(): void;
};

/**
 * Why the element could not play `url`, in words: what a HEAD request says went wrong (offline,
 * unreachable, not on the server, an HTTP status), else the file itself could not be decoded.
 */
export async function playbackFailure(url: string): Promise<MediaError> {
  try {
    await fetchMedia(url, { method: 'HEAD', credentials: 'same-origin' });
  } catch (e) {
    if (e instanceof MediaError) return e;
  }
  return new MediaError(MediaErrorCode.DecodeFailed, `${url} could not be played`);
}

export function createPlainPlayer(url: string, options: { onEnded?: () => void; onFailure?: (e: MediaError) => void } = {}): PlainPlayer {
  const el = new Audio();
  el.preload = 'metadata';
  el.src = url;
  const fail = async () => {
    el.pause();
    options.onFailure?.(await playbackFailure(url));
  };
  const onError = () => void fail();
  const onEnded = () => options.onEnded?.();
  el.addEventListener('error', onError);
  el.addEventListener('ended', onEnded);
  return {
    async play(from) {
      if (Number.isFinite(from)) el.currentTime = from;
      try {
        await el.play();
      } catch (e) {
        // A pause() before playback began is not a failure.
        if ((e as DOMException).name === 'AbortError') return;
        throw await playbackFailure(url);
      }
    },
    pause: () => el.pause(),
    seek(seconds) {
      el.currentTime = seconds;
    },
    position: () => el.currentTime,
    playing: () => !el.paused && !el.ended,
    dispose() {
      el.pause();
      el.removeEventListener('error', onError);
      el.removeEventListener('ended', onEnded);
      el.removeAttribute('src');
      el.load();
    },
  };
}
