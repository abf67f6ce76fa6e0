// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { dismissToast, showSavedToast, showToast, type ToastType } from '../lib/toast.ts';
import { Toaster } from './Toaster.tsx';
import { useOnline } from '../lib/connectivity.ts';
import { db, EMPTY_STATUS } from '../db/db.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Every ToastType: the compiler refuses this list if a type is added and not named here.
const TYPES = ['success', 'info', 'warning', 'danger'] as const satisfies readonly ToastType[];
const everyType: [ToastType] extends [(typeof TYPES)[number]] ? true : false = true;

afterEach(() => {
  document.body.innerHTML = '';
});

describe('toast icons', () => {
  it('each toast type carries its own icon, named for the type and drawn differently', () => {
    expect(everyType).toBe(true);
    const el = document.createElement('div');
    document.body.append(el);
    act(() => createRoot(el).render(<Toaster />));
    const ids: number[] = [];
    act(() => {
      for (const type of TYPES) ids.push(showToast({ type, title: `A ${type} toast` }));
    });
    const icons = TYPES.map((type) => {
      const toast = [...document.querySelectorAll('.toast')].find((t) => t.textContent?.includes(`A ${type} toast`));
      const icon = toast?.querySelector('svg[role="img"]');
      return { name: icon?.getAttribute('aria-label'), shape: icon?.querySelector('path')?.getAttribute('d') };
    });
    expect(icons.map((i) => i.name)).toEqual(['Success', 'Information', 'Warning', 'Error']);
    expect(new Set(icons.map((i) => i.shape)).size).toBe(TYPES.length);
    // Errors and warnings interrupt (role alert); the others wait their turn (role status).
    expect(TYPES.map((type) => document.querySelector(`.toast-${type} [role]:not(svg)`)?.getAttribute('role'))).toEqual(['status', 'status', 'alert', 'alert']);
    act(() => ids.forEach((id) => dismissToast(id)));
  });
});

describe('a change saved on this device', () => {
  it('is a success toast online and an info toast offline that says it waits for the connection', () => {
    const el = document.createElement('div');
    document.body.append(el);
    act(() => createRoot(el).render(<Toaster />));
    const online = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine') ?? Object.getOwnPropertyDescriptor(navigator, 'onLine');
    const ids: number[] = [];
    try {
      act(() => void ids.push(showSavedToast('Saved while online')));
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
      act(() => void ids.push(showSavedToast('Saved in a tunnel')));
    } finally {
      if (online) Object.defineProperty(navigator, 'onLine', online);
      else delete (navigator as { onLine?: boolean }).onLine;
    }
    const toastOf = (title: string) => [...document.querySelectorAll('.toast')].find((t) => t.textContent?.includes(title));
    expect(toastOf('Saved while online')?.className).toContain('toast-success');
    expect(toastOf('Saved while online')?.querySelector('.toast-description')).toBeNull();
    const offline = toastOf('Saved in a tunnel');
    expect(offline?.className).toContain('toast-info');
    expect(offline?.querySelector('.toast-description')?.textContent).toBe('Kept on this device. It is sent when you are back online.');
    act(() => ids.forEach(dismissToast));
  });
});

describe('a change saved while the browser says online but the server is out of reach', () => {
  it('is the info toast too: the sync worker’s failed attempt since the page started is believed', async () => {
    await db.syncState.put({ key: 'status', value: { ...EMPTY_STATUS, online: false, updatedAt: Date.now() + 60_000 } });
    const el = document.createElement('div');
    document.body.append(el);
    function Badge() {
      return <span data-online={String(useOnline())} />;
    }
    const root = createRoot(el);
    act(() => root.render(<><Toaster /><Badge /></>));
    await expect.poll(() => el.querySelector('[data-online]')?.getAttribute('data-online')).toBe('false');
    expect(navigator.onLine).toBe(true);
    let id = 0;
    act(() => void (id = showSavedToast('Saved behind a captive portal')));
    const toast = [...document.querySelectorAll('.toast')].find((t) => t.textContent?.includes('Saved behind a captive portal'));
    expect(toast?.className).toContain('toast-info');
    // Reachable again: a success.
    await act(async () => void (await db.syncState.put({ key: 'status', value: { ...EMPTY_STATUS, online: true, updatedAt: Date.now() + 60_000 } })));
    await expect.poll(() => el.querySelector('[data-online]')?.getAttribute('data-online')).toBe('true');
    act(() => void showSavedToast('Saved with the server there'));
    expect([...document.querySelectorAll('.toast')].find((t) => t.textContent?.includes('Saved with the server there'))?.className).toContain('toast-success');
    act(() => {
      dismissToast(id);
      root.unmount();
    });
  });
});
