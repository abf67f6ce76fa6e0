// Keyboard hints only where a keyboard is used (issue 36): "Press / to search" means nothing on a
// phone. Whether one is in use:
//
//   start ── (any-hover: hover) and (pointer: fine) ? ──▶ keyboard │ touch
//   keyboard ── a finger or pen touches the screen ──▶ touch
//   touch ── a real key is pressed (a tablet's keyboard cover) ──▶ keyboard
//
// An on-screen keyboard's keystrokes do not count: Android's report the key 'Unidentified'
// (keyCode 229) while it composes, and a touch came first anyway. A mouse click changes nothing:
// a desktop user clicks and types in turns.
import { useSyncExternalStore, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';

const KEYBOARD_DEVICE_QUERY = '(any-hover: hover) and (pointer: fine)';

/** The last input modality seen, or null before any (then the device query decides). */
let lastModality: 'keyboard' | 'touch' | null = null;
const listeners = new Set<() => void>();

function deviceHasKeyboard(): boolean {
  return typeof matchMedia !== 'function' || matchMedia(KEYBOARD_DEVICE_QUERY).matches;
}

function keyboardInUse(): boolean {
  return lastModality === null ? deviceHasKeyboard() : lastModality === 'keyboard';
}

function notify(): void {
  for (const listener of listeners) listener();
}

function onKeyDown(e: KeyboardEvent): void {
  if (e.key === 'Unidentified' || e.isComposing || e.keyCode === 229 || lastModality === 'keyboard') return;
  lastModality = 'keyboard';
  notify();
}

function onPointerDown(e: PointerEvent): void {
  if ((e.pointerType !== 'touch' && e.pointerType !== 'pen') || lastModality === 'touch') return;
  lastModality = 'touch';
  notify();
}

let watching = false;

/** Starts following the input modality (idempotent; never stops: a key pressed on a screen
 *  without hints still counts on the next one). The app calls it at start. */
export function watchInputModality(): void {
  if (watching) return;
  watching = true;
  // Capture: a handler that stops propagation must not hide the modality.
  window.addEventListener('keydown', onKeyDown, true);
  window.addEventListener('pointerdown', onPointerDown, true);
  if (typeof matchMedia === 'function') matchMedia(KEYBOARD_DEVICE_QUERY).addEventListener('change', notify);
}

function subscribe(listener: () => void): () => void {
  watchInputModality();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the user works with a keyboard (see the header), to show or hide keyboard hints. */
export function useKeyboardInUse(): boolean {
  return useSyncExternalStore(subscribe, keyboardInUse, () => true);
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
