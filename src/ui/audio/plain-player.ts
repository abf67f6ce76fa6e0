// Plays the audio as it is (no cut): one <audio> element streaming the file with the browser's own
// range requests, so nothing is decoded whole. The cut editor's Play / Pause and the waveform's
// playhead use it; the cut preview (preview-player.ts) is the separate, crossfading player.
//
//   paused ──play(from)──> playing ──(pause() | end of file)──> paused
//      └──────────── failure (no network, 404, undecodable) ──> paused + onFailure(what went wrong)
//
// Offline (isOffline), Play plays the copy kept on this device (media/audio-keep.ts: a file is kept
// once it has played online) from a blob: URL; with no copy it refuses with MediaError Offline, and
// the screen says the audio is not on this device yet, rather than the element waiting for a
// network that is not there. The same holds when the network goes away mid-play and the element
// runs out of what it had buffered: it stops and says so instead of spinning without a word.
import type { AudioKeeper } from '../../media/audio-keep.ts';
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

export type PlainPlayerOptions = {
  onEnded?: () => void;
  onFailure?: (e: MediaError) => void;
  /** The app knows the device is offline (the browser's own flag can lag behind it). */
  isOffline?: () => boolean;
  /** Where files played online are kept for offline (default: none, nothing kept). */
  keeper?: AudioKeeper | null;
};

/** How long the server has to answer before the kept copy plays instead. */
const REACH_TIMEOUT_MS = 3000;

/** True when the element holds the audio at `seconds` (and a little after) already. */
function buffered(el: HTMLMediaElement, seconds: number): boolean {
  for (let i = 0; i < el.buffered.length; i++) {
    if (el.buffered.start(i) <= seconds && seconds < el.buffered.end(i) - 0.25) return true;
  }
  return false;
}

export function createPlainPlayer(url: string, options: PlainPlayerOptions = {}): PlainPlayer {
  const el = new Audio();
  el.preload = 'metadata';
  // The source is chosen at the first Play (the network's file, or the kept copy when the server
  // cannot be reached): an element given the URL at once would start loading it, and offline its
  // failure would be reported while Play is switching to the kept copy.
  let sourceChosen = false;
  const offline = () => options.isOffline?.() === true || (typeof navigator !== 'undefined' && navigator.onLine === false);
  const notOnDevice = () => new MediaError(MediaErrorCode.Offline, `${url} is not kept on this device`);
  /** The blob: URL of the kept copy once the element plays it. */
  let keptSrc: string | null = null;
  const fail = async () => {
    el.pause();
    options.onFailure?.(keptSrc === null && offline() ? notOnDevice() : await playbackFailure(url));
  };
  const onError = () => void fail();
  const onEnded = () => options.onEnded?.();
  // Out of buffered audio while offline: the rest cannot come, so it is a failure, said at once.
  const onWaiting = () => {
    if (keptSrc === null && offline()) void fail();
  };
  el.addEventListener('error', onError);
  el.addEventListener('ended', onEnded);
  el.addEventListener('waiting', onWaiting);

  /**
   * Switches the element to the kept copy when there is one and the server cannot be reached. Asked
   * of the server (a HEAD), not of navigator.onLine, which can read true just after an offline
   * reload; the network's copy stays first while it answers (a Live recording's file grows).
   */
  const switchToKeptCopyIfUnreachable = async (): Promise<void> => {
    if (keptSrc !== null || !options.keeper) return;
    const blob = await options.keeper.find(url);
    if (!blob) return;
    try {
      await fetchMedia(url, { method: 'HEAD', credentials: 'same-origin', signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
      return;
    } catch (e) {
      const unreachable = e instanceof MediaError && (e.code === MediaErrorCode.Offline || e.code === MediaErrorCode.Unreachable || e.code === MediaErrorCode.Aborted);
      if (!unreachable) return;
    }
    keptSrc = URL.createObjectURL(blob);
    el.src = keptSrc;
    sourceChosen = true;
  };

  return {
    async play(from) {
      await switchToKeptCopyIfUnreachable();
      if (keptSrc === null && offline() && !buffered(el, Number.isFinite(from) ? from : el.currentTime)) throw notOnDevice();
      if (!sourceChosen) {
        el.src = url;
        sourceChosen = true;
      }
      if (Number.isFinite(from)) el.currentTime = from;
      try {
        await el.play();
      } catch (e) {
        // A pause() before playback began is not a failure.
        if ((e as DOMException).name === 'AbortError') return;
        if (keptSrc === null && offline()) throw notOnDevice();
        throw await playbackFailure(url);
      }
      // Played from the network: kept for the next time the device is offline (in the background).
      if (keptSrc === null && !offline()) void options.keeper?.keep(url);
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
      el.removeEventListener('waiting', onWaiting);
      el.removeAttribute('src');
      el.load();
      if (keptSrc !== null) URL.revokeObjectURL(keptSrc);
    },
  };
}
