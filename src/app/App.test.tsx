// @vitest-environment happy-dom
// The whole app sits in an error boundary (section 2: "If a page crash shows a full-page error
// screen carrying the HTTP status when the error has one"), not only page content: a crash in the
// login screen, outside any page, shows the error screen instead of a blank page.
import { mount } from '../../tests/dom-actions.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../lib/api.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const crash = vi.hoisted(() => ({ error: null as unknown }));
vi.mock('../features/session/LoginScreen.tsx', () => ({
  LoginScreen: () => {
    throw crash.error;
  },
}));

const { App } = await import('./App.tsx');

async function renderApp(): Promise<HTMLElement> {
  const el = await mount(<App />);
  // The session load (no server here: 401) settles and the login screen renders.
  await vi.waitFor(() => expect(el.querySelector('h1')).not.toBeNull(), { timeout: 5000 });
  return el;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 401 })));
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a crash outside page content', () => {
  it('shows the full-page error screen with Home and Reload page', async () => {
    crash.error = new Error('login screen broke');
    const el = await renderApp();
    await vi.waitFor(() => expect(el.querySelector('h1')?.textContent).toBe('Server error'));
    expect(el.textContent).toContain('developers have been notified');
    expect([...el.querySelectorAll('.error-actions a, .error-actions button')].map((b) => b.textContent)).toEqual(['Home', 'Reload page']);
  });

  it('carries the HTTP status of the error', async () => {
    crash.error = new HttpError(451);
    const el = await renderApp();
    await vi.waitFor(() => expect(el.querySelector('h1')?.textContent).toBe('Not available in your location'));
    expect(el.textContent).toContain('451');
    expect(el.textContent).toContain('Reload page');
  });
});
