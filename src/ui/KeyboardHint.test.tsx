// @vitest-environment happy-dom
// Keyboard hints only where a keyboard is used (issue 36): the device's pointer decides until the
// user shows otherwise, by touching the screen or pressing a real key.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  vi.resetModules();
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
});

/** A device whose pointer query answers `fine` (a mouse or trackpad) or not (a phone). */
function device(fine: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(any-hover: hover) and (pointer: fine)' && fine,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

async function renderHint() {
  const { KeyboardHint } = await import('./KeyboardHint.tsx');
  act(() => root.render(<p><KeyboardHint>Press / to search</KeyboardHint></p>));
}

const press = (key: string, keyCode = 0) => act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key, keyCode, bubbles: true })));
const touch = (pointerType: string) => act(() => void window.dispatchEvent(new PointerEvent('pointerup', { pointerType, bubbles: true })));

it('shows the hint on a device with a fine pointer, and hides it once a finger has touched the screen (at the end of the touch)', async () => {
  device(true);
  await renderHint();
  expect(host.textContent).toBe('Press / to search');
  touch('mouse');
  expect(host.textContent).toBe('Press / to search');
  touch('touch');
  expect(host.textContent).toBe('');
});

it('hides the hint on a touch phone; an on-screen keyboard does not bring it back, a real key does', async () => {
  device(false);
  await renderHint();
  expect(host.textContent).toBe('');
  press('Unidentified', 229);
  expect(host.textContent).toBe('');
  press('ArrowDown');
  expect(host.textContent).toBe('Press / to search');
});
