// What a person does on a component test's page (happy-dom): wait for answers, type, click, find a
// labelled field and its error, render a section. Shared by the component tests on the real server
// (page-on-app.ts re-exports these) and the offline ones, which run in a DOM environment and so must
// not load server modules: nothing here imports one. React is loaded on first use, after the test
// has put its DOM in place.
import type { ReactNode } from 'react';
import { onTestFinished } from 'vitest';

/** Lets timers and answers run, inside act. */
export async function settle(ms = 80): Promise<void> {
  const { act } = await import('react');
  await act(() => new Promise((r) => setTimeout(r, ms)));
}

/** Lets the page settle until `done` holds (an answer shown), `ms` at a time, `tries` times at most:
 *  the test's next expectation then says what is missing if it never came. */
export async function settleUntil(done: () => boolean, { tries = 30, ms = 100 } = {}): Promise<void> {
  for (let i = 0; i < tries && !done(); i++) await settle(ms);
}

/** Types into an input or a text area as a person would (React sees an input event), and lets it settle. */
export async function type(control: HTMLInputElement | HTMLTextAreaElement, value: string, wait = 80): Promise<void> {
  const { act } = await import('react');
  await act(async () => {
    const proto = control instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(control, value);
    control.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settle(wait);
}

/** Chooses `value` in a select as a person would (React sees a change event), and lets it settle. */
/** A file chosen in a file input, as the browser's picker gives it: its files, then its change event. */
export async function chooseFile(input: HTMLInputElement, file: File, wait = 150): Promise<void> {
  const { act } = await import('react');
  Object.defineProperty(input, 'files', { configurable: true, value: [file] });
  await act(async () => void input.dispatchEvent(new Event('change', { bubbles: true })));
  await settle(wait);
}

export async function choose(select: HTMLElement, value: string, wait = 80): Promise<void> {
  const { act } = await import('react');
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, value);
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle(wait);
}

/** Clicks `target` (a test's lookup that found nothing is said so), and lets its answer arrive. */
export async function clickOn(target: HTMLElement | null | undefined, wait = 80): Promise<void> {
  if (!target) throw new Error('nothing to click');
  const { act } = await import('react');
  await act(async () => target.click());
  await settle(wait);
}

/** Clicks the button named `name` inside `root`, and lets its answer arrive. */
export async function click(root: ParentNode, name: string, wait = 150): Promise<void> {
  const button = [...root.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!button) throw new Error(`no button ${name}`);
  await clickOn(button, wait);
}

/**
 * The control labelled `label` inside `root` (the `index`th of that name), and what describes it:
 * its error and hint (the ids ending -error and -hint) and every description's text in order.
 */
export function field(root: ParentNode, label: string, index = 0): { control: HTMLInputElement; error: string | null; hint: string | null; described: string[] } {
  const labelEl = [...root.querySelectorAll('label')].filter((l) => l.textContent === label)[index];
  if (!labelEl) throw new Error(`no field labelled ${label}`);
  const control = document.getElementById(labelEl.htmlFor) as HTMLInputElement;
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const text = (suffix: string) => {
    const id = ids.find((i) => i.endsWith(suffix));
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  };
  return { control, error: text('-error'), hint: text('-hint'), described: ids.map((id) => document.getElementById(id)?.textContent ?? '') };
}

/**
 * Renders `node` in a new element of the page, and waits while it shows `loading`, or until an
 * element matching `until` is there (a little while at most); given neither, lets it settle once.
 */
export async function mount(node: ReactNode, loading?: string | { until: string }): Promise<HTMLElement> {
  const { act } = await import('react');
  const { createRoot } = await import('react-dom/client');
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  // Unmounted when its test ends: a tree left mounted keeps its live queries, and a render React
  // schedules when one answers late ran after the file's DOM environment was gone ("window is
  // not defined", an uncaught error that failed the whole run: ProgramSettingsScreen on a loaded
  // machine). Mounted outside a test (a set-up), it goes with the file.
  try {
    onTestFinished(() => act(async () => root.unmount()));
  } catch {
    // not inside a test
  }
  await act(async () => root.render(node));
  if (loading === undefined) {
    await settle();
    return el;
  }
  const waiting = () => (typeof loading === 'string' ? Boolean(el.textContent?.includes(loading)) : !el.querySelector(loading.until));
  for (let i = 0; i < 20 && waiting(); i++) await settle(100);
  return el;
}

/**
 * mount() of a screen as the app routes it: the location at `path`, the screen under a route of
 * `pattern`, whose parameters (organizationId, programId…) it reads.
 */
export async function mountAt(path: string, pattern: string, screen: ReactNode, loading?: string | { until: string }): Promise<HTMLElement> {
  const { createElement } = await import('react');
  const { memoryLocation } = await import('wouter/memory-location');
  const { Route, Router } = await import('../src/lib/router.ts');
  const { hook } = memoryLocation({ path });
  return mount(createElement(Router, { hook, children: createElement(Route, { path: pattern, children: screen }) }), loading);
}
