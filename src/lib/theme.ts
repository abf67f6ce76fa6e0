// The colour theme: System (follows prefers-color-scheme), Light or Dark, chosen per device in
// account settings and kept in localStorage (not in the account: a phone in a dark studio and a
// desktop by a window may want different ones).
//
//   choice (localStorage) ──┐
//                           ├──> resolved 'light' | 'dark' ──> <html data-theme>, color-scheme,
//   prefers-color-scheme ───┘                                  <meta name="theme-color">
//
// index.html runs the same resolution in a tiny inline script before the first paint (a module
// cannot run that early), and keeps following the system preference while the choice is System;
// this module is what the settings screen calls. Keep the two in step: the key, the attribute and
// the theme colours below are repeated there.
import { useEffect, useState } from 'react';
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'castaway.theme';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
/** The browser's title bar: the navigation bar's colour in each theme (styles.css --nav-bg). */
export const THEME_COLOR: Record<Theme, string> = { light: '#0f4c5c', dark: '#10262d' };

const DARK_QUERY = '(prefers-color-scheme: dark)';

function isChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (THEME_CHOICES as readonly string[]).includes(value);
}

export function themeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return isChoice(stored) ? stored : 'system';
  } catch {
    return 'system'; // storage refused (privacy settings): the system's theme
  }
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === 'system') return systemDark ? 'dark' : 'light';
  return choice;
}

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.dataset['theme'] = theme;
  root.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLOR[theme]);
}

/** Saves the device's choice and applies it at once. */
export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Not stored (storage refused): applied for this page only.
  }
  applyTheme(resolveTheme(choice, systemPrefersDark()));
}

/** The theme the page shows now (<html data-theme>), re-rendered when it changes: for what is
 *  drawn with colours read from CSS variables (a canvas does not follow them by itself). */
export function useDocumentTheme(): Theme {
  const read = (): Theme => (typeof document !== 'undefined' && document.documentElement.dataset['theme'] === 'dark' ? 'dark' : 'light');
  const [theme, setTheme] = useState<Theme>(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}
