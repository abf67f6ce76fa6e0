// The keyboard way to search, from any screen (issue 32):
//   /         the screen's own search field (the program's list filter, the search box), else
//             the organization's search screen
//   Ctrl+K    (⌘K on a Mac) the organization's search screen, whose box takes the focus
// Neither fires while the user types in a field or a dialog is open, so "/" stays a character.
import { useEffect } from 'react';
import { navigate } from './router.ts';

/** Marks a screen's own search field (an attribute, so features need not import this). */
export const SEARCH_SHORTCUT_ATTRIBUTE = 'data-search-shortcut';

/** True when a key pressed at `target` is typed into a field (a character, not a shortcut). */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [role="textbox"], [role="slider"], [role="application"]') !== null;
}

function focusField(field: HTMLElement): void {
  field.focus();
  if (field instanceof HTMLInputElement) field.select();
}

/** Listens for the shortcuts while the navigation bar is shown; `searchPath` is null without search. */
export function useSearchShortcut(searchPath: string | null): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || typingIn(e.target) || document.querySelector('[aria-modal="true"]')) return;
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey;
      const k = e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
      if (!slash && !k) return;
      const own = document.querySelector<HTMLElement>(`[${SEARCH_SHORTCUT_ATTRIBUTE}]`);
      const onSearchScreen = searchPath !== null && location.pathname === searchPath;
      if (own && (slash || onSearchScreen)) {
        e.preventDefault();
        focusField(own);
      } else if (searchPath !== null) {
        e.preventDefault();
        navigate(searchPath);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [searchPath]);
}
