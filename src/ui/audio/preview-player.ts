// Plays a cut preview at once, streaming: two <audio> "decks" read the source with the browser's
// own range requests (nothing is decoded whole, memory does not grow with the episode) and are
// routed through Web Audio gain nodes. Segments alternate decks; at each cut the next deck is
// already seeked to its start, and the graph runs equal-power gain curves (sin in, cos out) over
// the crossfade. Gains are scheduled sample-accurately on the graph clock; the decks are started
// and paused by a 10 ms scheduler just ahead of their times. Only the playing position and the
// next splice are ever decoded (the idle deck waits, seeked, at its segment's start): memory is
// the two elements' buffers whatever the episode's length.
//   A deck is silent (gain 0) outside its segment. It starts LEAD_S early, seeked LEAD_S before its
//   segment, so the source reaches the segment's start as its fade-in begins; the first segment
//   starts at once (edit to audible is the element's own start-up).
//
//   idle ──play()──> playing ──(last segment ends | stop())──> idle
//                       └──(a deck cannot load the file)──> idle + onFailure(what went wrong)
import { equalPowerCurve, previewSchedule, sourceTimeAt, type ScheduledSegment } from './preview-schedule.ts';
import type { Region } from '../../media/cut.ts';
import type { MediaError } from '../../media/errors.ts';
import { playbackFailure } from './plain-player.ts';

type Deck = { el: HTMLAudioElement; gain: GainNode };

export type PreviewPlayer = {
  play(kept: readonly Region[], crossfadeMs: number, from?: number): Promise<void>;
  stop(): void;
  /** Source seconds being heard, or null when idle. */
  position(): number | null;
  /** Segments scheduled by the last play() (removed regions never appear). */
  scheduled(): readonly ScheduledSegment[];
  readonly context: AudioContext;
  dispose(): void;
};

const LEAD_S = 0.05;
const preroll = (sourceStart: number) => Math.max(0, sourceStart - LEAD_S);

export function createPreviewPlayer(audioUrl: string, context: AudioContext = new AudioContext(), options: { onFailure?: (e: MediaError) => void } = {}): PreviewPlayer {
  let failing = false;
  const onError = () => {
    if (failing) return;
    failing = true;
    stop();
    void playbackFailure(audioUrl).then((e) => options.onFailure?.(e));
  };
  const decks: Deck[] = [0, 1].map(() => {
    const el = new Audio();
    el.addEventListener('error', onError);
    el.crossOrigin = 'use-credentials';
    el.preload = 'auto';
    el.src = audioUrl;
    const gain = context.createGain();
    context.createMediaElementSource(el).connect(gain).connect(context.destination);
    return { el, gain };
  });
  let schedule: ScheduledSegment[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;
  let started = new Set<number>();

  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
    for (const d of decks) {
      d.el.pause();
      d.gain.gain.cancelScheduledValues(0);
    }
    schedule = [];
    started = new Set();
    ended = new Set();
  };

  let ended = new Set<number>();
  const tick = () => {
    const now = context.currentTime;
    schedule.forEach((seg, i) => {
      const deck = decks[i % 2]!;
      if (!started.has(i) && now >= seg.when - LEAD_S) {
        started.add(i);
        void deck.el.play();
      }
      if (started.has(i) && !ended.has(i) && now >= seg.until) {
        ended.add(i);
        deck.el.pause();
        // This deck plays the segment after next: seek it now, while the other deck plays.
        const later = schedule[i + 2];
        if (later) deck.el.currentTime = preroll(later.sourceStart);
      }
    });
    if (schedule.length > 0 && ended.size === schedule.length) stop();
  };

  return {
    context,
    async play(kept, crossfadeMs, from = 0) {
      stop();
      failing = false;
      if (context.state === 'suspended') await context.resume();
      const startAt = context.currentTime;
      schedule = previewSchedule(kept, crossfadeMs, startAt, from);
      for (const d of decks) d.gain.gain.setValueAtTime(0, startAt);
      schedule.forEach((seg, i) => {
        const g = decks[i % 2]!.gain.gain;
        if (seg.fadeIn > 0) g.setValueCurveAtTime(equalPowerCurve('in'), seg.when, seg.fadeIn);
        else g.setValueAtTime(1, seg.when);
        if (seg.fadeOut > 0) g.setValueCurveAtTime(equalPowerCurve('out'), seg.until - seg.fadeOut, seg.fadeOut);
        else g.setValueAtTime(0, seg.until);
      });
      const first = schedule[0];
      if (first) decks[0]!.el.currentTime = first.sourceStart;
      if (schedule[1]) decks[1]!.el.currentTime = preroll(schedule[1].sourceStart);
      timer = setInterval(tick, 10);
      tick();
    },
    stop,
    position: () => (schedule.length ? sourceTimeAt(schedule, context.currentTime) : null),
    scheduled: () => schedule,
    dispose() {
      stop();
      for (const d of decks) {
        d.el.removeEventListener('error', onError);
        d.el.removeAttribute('src');
      }
      void context.close();
    },
  };
}
