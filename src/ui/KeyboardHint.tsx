// Keyboard hints only where a keyboard is used (issue 36): "Press / to search" means nothing on a
// phone. Whether one is in use:
//
//   start ── (any-hover: hover) and (pointer: fine) ? ──▶ keyboard │ touch
//   keyboard ── a finger or pen leaves the screen (a tap or a drag ended) ──▶ touch
//   touch ── a real key is pressed (a tablet's keyboard cover) ──▶ keyboard
//
// An on-screen keyboard's keystrokes do not count: Android's report the key 'Unidentified'
// (keyCode 229) while it composes, and a touch came first anyway. A mouse click changes nothing:
// a desktop user clicks and types in turns.
import type { ReactNode } from 'react';
import { setShared, sharedState, useShared } from '../lib/store.ts';
import { m } from '../paraglide/messages.js';

const KEYBOARD_DEVICE_QUERY = '(any-hover: hover) and (pointer: fine)';

function deviceHasKeyboard(): boolean {
  return typeof matchMedia !== 'function' || matchMedia(KEYBOARD_DEVICE_QUERY).matches;
}

/** The last input modality seen, or null before any (then the device query decides). */
const lastModality = sharedState<'keyboard' | 'touch' | null>(null);
/** What the device query says now (it changes when a mouse or keyboard cover is attached). */
const deviceKeyboard = sharedState(deviceHasKeyboard());
// Followed from the first hint shown (watchInputModality is idempotent).
lastModality.onMount = () => watchInputModality();

function onKeyDown(e: KeyboardEvent): void {
  if (e.key === 'Unidentified' || e.isComposing || e.keyCode === 229) return;
  setShared(lastModality, 'keyboard');
}

// At the end of the touch, not its start: a hint that changes wording changes the page's height,
// and mid-drag (a playlist row by its handle) that moved the rows under the finger, so the row
// was dropped one place off.
function onPointerUp(e: PointerEvent): void {
  if (e.pointerType === 'touch' || e.pointerType === 'pen') setShared(lastModality, 'touch');
}

let watching = false;

/** Starts following the input modality (idempotent; never stops: a key pressed on a screen
 *  without hints still counts on the next one). The app calls it at start. */
export function watchInputModality(): void {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  // Capture: a handler that stops propagation must not hide the modality.
  window.addEventListener('keydown', onKeyDown, true);
  window.addEventListener('pointerup', onPointerUp, true);
  if (typeof matchMedia === 'function') matchMedia(KEYBOARD_DEVICE_QUERY).addEventListener('change', () => setShared(deviceKeyboard, deviceHasKeyboard()));
}

/** True while the user works with a keyboard (see the header), to show or hide keyboard hints. */
export function useKeyboardInUse(): boolean {
  const last = useShared(lastModality);
  const device = useShared(deviceKeyboard);
  return last === null ? device : last === 'keyboard';
}

/** Shows its children (a hint about keys) only while a keyboard is in use. */
export function KeyboardHint({ children }: { children: ReactNode }) {
  return useKeyboardInUse() ? <>{children}</> : null;
}

/** Apple keyboards say ⌘ where others say Ctrl (the app's handlers accept either). */
export function isApplePlatform(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.platform);
}

/** A key pressed with Ctrl (⌘ on Apple keyboards), as a hint writes it: "Ctrl+K", "Strg+K", "⌘K". */
export function withCommandKey(key: string): string {
  return isApplePlatform() ? `⌘${key}` : `${m.shell_key_ctrl()}+${key}`;
}
