// Where the user was on a program's screen, so that coming back finds it (ProgramScreen).
//
// The tab and the filter live in the URL query: Back restores them and a link shares them. The
// scroll place is written as the user scrolls (and before a click leaves) to two stores:
//
//   history.state.listPlace         this history entry's place: browser Back/Forward, reload
//   sessionStorage[program path]    the program's last query and place: the clip screen's Back
//                                   link pushes the program's bare URL, a new entry without state
//
//   program screen opens ──entry has a place──────────────────────────> restore it
//        ├──previous screen was one of this program's clips, playlists
//        │  or recordings, sessionStorage has a place, and the URL has
//        │  no query or the saved one ─────────────────────────────────> query + place from there
//        └──otherwise (a link from elsewhere) ─────────────────────────> top, query as linked
//
// A place is scrollY and an anchor: the row at the top of the view and how far below that row's
// top the view starts. A virtual list knows a row's height only once it has rendered it, so after
// a remount the same scrollY can show other rows; the anchor row is found again by its key.
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import * as z from 'zod';
import { navigate, previousPathname } from '../../lib/router.ts';

const Place = z.object({ scrollY: z.number(), anchorKey: z.string().nullable(), anchorOffset: z.number() });
export type ListPlace = z.infer<typeof Place>;
const Saved = z.object({ search: z.string(), place: Place });
type Anchor = Pick<ListPlace, 'anchorKey' | 'anchorOffset'>;

const STORAGE_PREFIX = 'castaway.listPlace:';
/** Quiet time after the last scroll event before the place is written (replaceState is rate-limited). */
const SAVE_DELAY_MS = 150;
/** Frames a restore may take to settle while rows render and are measured. */
const RESTORE_FRAMES = 30;
/** Frames the view must hold still on its target for a restore to be done. */
const STILL_FRAMES = 3;

function entryPlace(): ListPlace | null {
  const state: unknown = history.state;
  const parsed = Place.safeParse(state && typeof state === 'object' && 'listPlace' in state ? state.listPlace : undefined);
  return parsed.success ? parsed.data : null;
}

function withPlace(place: ListPlace): object {
  const state: unknown = history.state;
  return { ...(state && typeof state === 'object' ? state : {}), listPlace: place };
}

function storedPlace(path: string): z.infer<typeof Saved> | null {
  try {
    const parsed = Saved.safeParse(JSON.parse(sessionStorage.getItem(STORAGE_PREFIX + path) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What to restore when the screen at `path` opens: a query to put back (or null) and a place. */
function placeToRestore(path: string): { search: string | null; place: ListPlace } | null {
  const own = entryPlace();
  if (own) return { search: null, place: own };
  if (!previousPathname()?.startsWith(`${path}/`)) return null;
  // A Back link that names a query (the playlist screen's ?tab=playlists) is kept unless it is
  // the one saved; the bare program URL (the clip screen's) takes the saved one.
  const saved = storedPlace(path);
  if (!saved || (location.search !== '' && location.search !== saved.search)) return null;
  return { search: saved.search, place: saved.place };
}

function writePlace(path: string, place: ListPlace): void {
  if (location.pathname !== path) return;
  history.replaceState(withPlace(place), '');
  try {
    sessionStorage.setItem(STORAGE_PREFIX + path, JSON.stringify({ search: location.search, place }));
  } catch {
    // Storage full or denied: Back still restores from history.state.
  }
}

export type ListPlaceHandle = {
  /** The place to restore once the list has rendered, or null. */
  place: ListPlace | null;
  /** True until the list has restored the place; no place is saved meanwhile. */
  restoring: RefObject<boolean>;
  /** Set by a virtual list: the row at a window offset, for the anchor. */
  anchorAt: RefObject<((scrollY: number) => Anchor | null) | null>;
};

/**
 * The program screen's place: restores the query on mount when needed (the Back link), saves the
 * place as the user scrolls and when the query changes. `search` is the URL's query.
 */
export function useListPlace(path: string, search: string): ListPlaceHandle {
  const [restore] = useState(() => placeToRestore(path));
  const restoring = useRef(restore !== null);
  const anchorAt = useRef<((scrollY: number) => Anchor | null) | null>(null);

  useLayoutEffect(() => {
    if (restore?.search != null) navigate(path + restore.search, { replace: true, state: withPlace(restore.place) });
    else if (!restore) window.scrollTo(0, 0);
    // This screen restores its own place, after its rows render; the browser's attempt at popstate
    // would land on a page that is still short. The mode is per entry: it goes back on leaving.
    const before = history.scrollRestoration;
    history.scrollRestoration = 'manual';
    return () => {
      history.scrollRestoration = before;
    };
    // Once per mount: a later query change is the user's.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount
  }, []);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = undefined;
      if (restoring.current) return;
      const scrollY = window.scrollY;
      writePlace(path, { scrollY, ...(anchorAt.current?.(scrollY) ?? { anchorKey: null, anchorOffset: 0 }) });
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    };
    // A click may leave the screen before the quiet time is over: write first.
    const flush = () => timer !== undefined && save();
    save();
    window.addEventListener('scroll', later, { passive: true });
    document.addEventListener('click', flush, true);
    window.addEventListener('pagehide', flush);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('scroll', later);
      document.removeEventListener('click', flush, true);
      window.removeEventListener('pagehide', flush);
    };
  }, [path, search]);

  return { place: restore?.place ?? null, restoring, anchorAt };
}

/**
 * Restores the handle's place once `ready` (the list's rows are there), then lets saving resume.
 * `offsetOf` turns the place into a window offset with the list's current layout; it is asked
 * again on every frame until the view holds still, as rows render and get measured.
 */
export function useRestoredPlace(handle: ListPlaceHandle, ready: boolean, offsetOf: (place: ListPlace) => number = (p) => p.scrollY): void {
  const offset = useRef(offsetOf);
  offset.current = offsetOf;
  const { place, restoring } = handle;
  useEffect(() => {
    if (!ready || !place || !restoring.current) return;
    let frame = 0;
    let tries = 0;
    let still = 0;
    const finish = () => {
      cancelAnimationFrame(frame);
      stopOnInput.forEach((type) => window.removeEventListener(type, finish));
      restoring.current = false;
    };
    const step = () => {
      const want = Math.max(0, Math.round(offset.current(place)));
      if (Math.abs(window.scrollY - want) > 1) {
        window.scrollTo(0, want);
        still = 0;
      } else still += 1;
      if (still >= STILL_FRAMES || ++tries >= RESTORE_FRAMES) finish();
      else frame = requestAnimationFrame(step);
    };
    // The user's own scrolling wins over a restore still settling.
    const stopOnInput = ['wheel', 'touchstart', 'keydown'] as const;
    stopOnInput.forEach((type) => window.addEventListener(type, finish, { passive: true }));
    frame = requestAnimationFrame(step);
    return () => {
      cancelAnimationFrame(frame);
      stopOnInput.forEach((type) => window.removeEventListener(type, finish));
    };
  }, [place, restoring, ready]);
}
