// Imported first (for its effect) by component tests that run the real server in the same Node
// process: there a DOM environment would break the server's modules (their file URLs are not file
// URLs), so the page's DOM is a happy-dom window of its own, its parts put where React looks.
// React DOM decides at load what the page supports: import it (dynamically) after this.
import { Window } from 'happy-dom';

const page = new Window({ url: 'http://localhost/' });
for (const key of ['window', 'document', 'navigator', 'localStorage', 'HTMLElement', 'HTMLInputElement', 'HTMLTextAreaElement', 'HTMLSelectElement', 'HTMLFormElement', 'Element', 'Node', 'Event', 'KeyboardEvent', 'MouseEvent', 'FocusEvent', 'InputEvent', 'MutationObserver', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame', 'DocumentFragment', 'ShadowRoot', 'CustomEvent', 'ResizeObserver', 'IntersectionObserver', 'DOMRect', 'matchMedia', 'CSS']) {
  const value = (page as unknown as Record<string, unknown>)[key];
  if (value !== undefined) Object.defineProperty(globalThis, key, { configurable: true, writable: true, value: typeof value === 'function' && /^[a-z]/.test(key) ? value.bind(page) : value });
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
