// The embed player's script. It runs in a listener's browser, inside someone else's page's iframe,
// not in Node: the server compiles this one file with esbuild (embed-script.ts) and serves it at
// /embed/assets/player.js. It imports nothing and must stay small (at most 30 KB, asserted in
// tests/server/pages.test.ts). Its words come from the page (data-* attributes), so the script has
// none of its own.
//
// Without it the page still plays: the <audio> element keeps its own controls. With it, the
// native controls give way to the player's own:
//   play/pause   a <button> (Space and Enter work as on any button), its name says what it will do
//   seek bar     role=slider, focusable: ←/↓ back 5 s, →/↑ forward 5 s, PageDown/PageUp 30 s,
//                Home/End; pointer drag; aria-valuetext says the time ("1:05 of 12:00")
//   speed        a <button> cycling 1×, 1.25×, 1.5×, 2×, 0.75×

const SPEEDS = [1, 1.25, 1.5, 2, 0.75];
const STEP_SECONDS = 5;
const PAGE_SECONDS = 30;

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** m:ss, or h:mm:ss from an hour (as the pages write durations). */
function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function start(root: HTMLElement): void {
  const audio = root.querySelector('audio');
  const controls = root.querySelector<HTMLElement>('[data-controls]');
  const play = root.querySelector<HTMLButtonElement>('[data-play]');
  const seek = root.querySelector<HTMLElement>('[data-seek]');
  const fill = root.querySelector<HTMLElement>('[data-fill]');
  const now = root.querySelector<HTMLElement>('[data-now]');
  const total = root.querySelector<HTMLElement>('[data-total]');
  const speed = root.querySelector<HTMLButtonElement>('[data-speed]');
  if (!audio || !controls || !play || !seek || !fill || !now || !total || !speed) return;
  const words = root.dataset;
  const known = Number(words['duration']);

  const duration = () => (Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : Number.isFinite(known) ? known : 0);

  const show = () => {
    const d = duration();
    const t = Math.min(audio.currentTime, d || audio.currentTime);
    fill.style.width = `${d > 0 ? (t / d) * 100 : 0}%`;
    seek.setAttribute('aria-valuemax', String(Math.round(d)));
    seek.setAttribute('aria-valuenow', String(Math.round(t)));
    seek.setAttribute('aria-valuetext', `${clock(t)} ${words['of'] ?? 'of'} ${clock(d)}`);
    now.textContent = clock(t);
    total.textContent = clock(d);
  };
  const showPlaying = () => {
    const playing = !audio.paused && !audio.ended;
    play.setAttribute('aria-label', (playing ? words['pause'] : words['play']) ?? '');
    root.classList.toggle('playing', playing);
  };
  const seekTo = (seconds: number) => {
    const d = duration();
    audio.currentTime = Math.max(0, d > 0 ? Math.min(seconds, d) : seconds);
    show();
  };

  play.addEventListener('click', () => {
    if (audio.paused || audio.ended) {
      // A refused start (no audio, a browser's autoplay rule) leaves the button saying "Play".
      audio.play().catch(showPlaying);
    } else {
      audio.pause();
    }
  });

  seek.addEventListener('keydown', (event) => {
    const moves: Record<string, number> = {
      ArrowRight: STEP_SECONDS,
      ArrowUp: STEP_SECONDS,
      ArrowLeft: -STEP_SECONDS,
      ArrowDown: -STEP_SECONDS,
      PageUp: PAGE_SECONDS,
      PageDown: -PAGE_SECONDS,
    };
    const by = moves[event.key];
    if (by !== undefined) seekTo(audio.currentTime + by);
    else if (event.key === 'Home') seekTo(0);
    else if (event.key === 'End') seekTo(duration());
    else return;
    event.preventDefault();
  });

  const fromPointer = (event: PointerEvent) => {
    const box = seek.getBoundingClientRect();
    seekTo((Math.min(Math.max(event.clientX - box.left, 0), box.width) / (box.width || 1)) * duration());
  };
  seek.addEventListener('pointerdown', (event) => {
    seek.setPointerCapture(event.pointerId);
    seek.focus();
    fromPointer(event);
  });
  seek.addEventListener('pointermove', (event) => {
    if (seek.hasPointerCapture(event.pointerId)) fromPointer(event);
  });

  speed.addEventListener('click', () => {
    const next = SPEEDS[(SPEEDS.indexOf(audio.playbackRate) + 1) % SPEEDS.length] ?? 1;
    audio.playbackRate = next;
    speed.textContent = `${next}×`;
    speed.setAttribute('aria-label', `${words['speed'] ?? ''} ${next}×`);
  });

  for (const type of ['timeupdate', 'durationchange', 'loadedmetadata', 'seeked']) audio.addEventListener(type, show);
  for (const type of ['play', 'playing', 'pause', 'ended']) audio.addEventListener(type, showPlaying);

  audio.controls = false;
  controls.hidden = false;
  show();
  showPlaying();
}

for (const root of document.querySelectorAll<HTMLElement>('[data-player]')) start(root);

// A module (its names stay its own when typechecked with the rest of the tree); esbuild writes it as an IIFE.
export {};
