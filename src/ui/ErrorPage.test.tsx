// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../lib/api.ts';
import { ErrorBoundary } from '../app/ErrorBoundary.tsx';
import { StatusErrorPage } from './ErrorPage.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function render(node: React.ReactNode): HTMLElement {
  const el = document.createElement('div');
  document.body.append(el);
  act(() => createRoot(el).render(node));
  return el;
}
afterEach(() => {
  document.body.innerHTML = '';
});

describe('generic error page by status', () => {
  it.each([
    [403, 'Access denied', 'You do not have the required permissions to view the page.'],
    [404, 'Page not found', ''],
    [451, 'Not available in your location', 'US sanctions'],
    [500, 'Server error', 'developers have been notified'],
    [502, 'Server error', ''],
  ])('%i shows %s with Home and Reload page', (status, title, text) => {
    const el = render(<StatusErrorPage status={status} />);
    expect(el.querySelector('h1')?.textContent).toBe(title);
    expect(el.textContent).toContain(text);
    expect([...el.querySelectorAll('a, button')].map((b) => b.textContent)).toEqual(['Home', 'Reload page']);
  });

  it('Home goes to the organization root when the route has an organization id', () => {
    history.replaceState(null, '', '/4d7cde59-16c6-5763-bf7e-407fc1220eb3/programs/x');
    const el = render(<StatusErrorPage status={403} />);
    expect(el.querySelector('a')?.getAttribute('href')).toBe('/4d7cde59-16c6-5763-bf7e-407fc1220eb3');
    history.replaceState(null, '', '/');
  });
});

describe('a page crash shows the full-page error screen with its HTTP status', () => {
  function Crash({ error }: { error: unknown }): React.ReactNode {
    throw error;
  }
  it('an HttpError 403 shows Access denied', () => {
    const original = console.error;
    console.error = () => undefined;
    const el = render(<ErrorBoundary resetKey="a"><Crash error={new HttpError(403)} /></ErrorBoundary>);
    console.error = original;
    expect(el.querySelector('h1')?.textContent).toBe('Access denied');
    expect(el.textContent).toContain('Error 403');
  });
  it('any other crash shows Server error', () => {
    const original = console.error;
    console.error = () => undefined;
    const el = render(<ErrorBoundary resetKey="a"><Crash error={new TypeError('boom')} /></ErrorBoundary>);
    console.error = original;
    expect(el.querySelector('h1')?.textContent).toBe('Server error');
  });
});
