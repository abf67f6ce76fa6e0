// '?' anywhere in the app opens the list of keyboard shortcuts (issue 36), except while the user
// types in a field (there '?' is a character) or a dialog is open (its own keys apply). The list
// and Ark's dialog load on the first '?', so the first screen carries only this listener.
import { lazy, Suspense, useEffect, useState } from 'react';
import { typingIn } from '../lib/search-shortcut.ts';
import { watchInputModality } from './KeyboardHint.tsx';

const ShortcutsDialog = lazy(() => import('./ShortcutsDialog.tsx').then((mod) => ({ default: mod.ShortcutsDialog })));

export function ShortcutListKey() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    // From the start: a key pressed before the first screen with a hint still says a keyboard is here.
    watchInputModality();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || e.isComposing) return;
      if (typingIn(e.target) || document.querySelector('[aria-modal="true"]')) return;
      e.preventDefault();
      setLoaded(true);
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <ShortcutsDialog open={open} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
