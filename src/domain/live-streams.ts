// How long a live recording's stream may store nothing before it counts as lost (issue 34): the
// instance receiving an agent's stream stores the audio that came in, and says it did, every
// heartbeat (sync-server/audio/live-ingest.ts); a sweep on any instance ends the recordings whose
// stream stopped saying so (sync-server/audio/live-sweep.ts), with the audio stored until then.

/**
 * A stream that stored nothing for this long has lost its sender or its receiver: an encoder sends
 * frames without pause (silence too is MP3 frames), so a minute of nothing is an instance that died
 * (kill -9, a crash, its machine gone) or an encoder whose line hangs open with nothing on it. A
 * minute, not seconds: it rides out a database failover, a long garbage collection or a busy
 * instance missing a few heartbeats, none of which should end a show on air; and not much more, since
 * the producers and the screens watching wait that long to see the recording end.
 */
export const LIVE_STREAM_LOST_MS = 60_000;

/**
 * How often the receiving instance stores what arrived and says the stream is alive: a twelfth of
 * the lost time, so a stream counts as lost only after a dozen heartbeats in a row went missing, and
 * at most this much of the audio (about 5 s) is lost with an instance that dies.
 */
export const liveStreamHeartbeatMs = (lostMs: number) => Math.max(100, Math.round(lostMs / 12));

/** How often the sweep looks for lost streams: a quarter of the lost time, so one ends at most
 * 1¼ lost times after its last heartbeat. */
export const liveStreamSweepMs = (lostMs: number) => Math.max(100, Math.round(lostMs / 4));

/**
 * What a recording whose stream was cut off (HasTornAudio) kept, for the screen to say so: 'kept',
 * the audio that arrived (or, Processing, is being made of it); 'lost', none (Finalized with no
 * audio, section 4's zero-duration case: its instance died with a blob folder not shared, or
 * nothing decoded). null: not cut off, or still Live.
 */
export function tornAudio(recording: { State: string; HasTornAudio: boolean; Urls: { AudioUrl: string | null } }): 'kept' | 'lost' | null {
  if (!recording.HasTornAudio || recording.State === 'Live') return null;
  return recording.State === 'Finalized' && !recording.Urls.AudioUrl ? 'lost' : 'kept';
}

/**
 * How long a screen watching a live recording waits before asking again after its event stream
 * closed without an end (a server restart, a proxy's timeout, a phone in a tunnel): half a second,
 * then doubling to 30 s, so a blip is bridged at once and a server that is down is not asked twice
 * a second by every screen. `attempt` counts the failed tries in a row from 1; a connection that
 * delivered anything starts the count again.
 */
export const liveWatchRetryMs = (attempt: number) => Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));
