// The path the app showed before the current one, for a screen that takes up where the user was
// (a program's list after one of its clips: features/programs/listPlace.ts). Tracked from the
// app's start (router.ts re-exports it, so it loads with the shell): the screen mounts after the
// move, too late to ask, and its chunk may load only then (a reload on the clip screen).
//
// Every move passes here: popstate for Back and Forward, and the pushState and replaceState
// events wouter's browser location dispatches for its own moves. A move the unsaved-changes guard
// holds back never reaches the router's listeners nor this one (unsaved.ts stops it first).
let currentPath = typeof location === 'undefined' ? '' : location.pathname;
let previousPath: string | null = null;

if (typeof window !== 'undefined') {
  for (const type of ['popstate', 'pushState', 'replaceState']) {
    window.addEventListener(type, () => {
      if (location.pathname === currentPath) return;
      previousPath = currentPath;
      currentPath = location.pathname;
    });
  }
}

/** The pathname shown before the current one in this start of the app; null at its first screen. */
export function previousPathname(): string | null {
  return previousPath;
}
