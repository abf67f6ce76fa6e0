// The tab's title (issue 36): every screen names itself, its own name first, then where it is,
// then the product: "Morning Briefing · Programs · Castaway Studio". The window title, the tab
// strip, history and bookmarks then tell the pages apart.
//
// Each mounted screen registers its title; the one mounted last (and still mounted) is shown.
// With none mounted (a screen still loading, the boot screen) the title is the product's name
// alone, so a tab never keeps the title of a page it has left.
import { useEffect, useRef } from 'react';
import { m } from '../paraglide/messages.js';

const SEPARATOR = ' · ';

/**
 * The document title of a page: its non-empty parts, most specific first, then the product's
 * name. Whitespace is collapsed (a title typed with a line break), and a part that repeats an
 * earlier one or the product's name is left out ("Programs · Programs" says nothing more).
 */
export function composeDocumentTitle(parts: readonly (string | null | undefined)[], product: string): string {
  const kept: string[] = [];
  for (const part of parts) {
    const text = part?.replace(/\s+/g, ' ').trim() ?? '';
    if (text !== '' && text !== product && !kept.includes(text)) kept.push(text);
  }
  return [...kept, product].join(SEPARATOR);
}

type Entry = { title: string };
/** Mounted screens' titles, in mount order. */
const mounted: Entry[] = [];

/** Shows the last mounted screen's title, else the product's name (in the current language). */
export function refreshDocumentTitle(): void {
  document.title = mounted.at(-1)?.title ?? m.app_title();
}

/** Sets the tab's title while the calling component is mounted; `parts` as composeDocumentTitle's. */
export function useDocumentTitle(parts: readonly (string | null | undefined)[]): void {
  const title = composeDocumentTitle(parts, m.app_title());
  const entry = useRef<Entry | null>(null);
  useEffect(() => {
    const own: Entry = { title: '' };
    entry.current = own;
    mounted.push(own);
    return () => {
      mounted.splice(mounted.indexOf(own), 1);
      entry.current = null;
      refreshDocumentTitle();
    };
  }, []);
  // Declared after the registering effect, so it runs after it on mount: a changed title (a clip
  // renamed, a program loaded) keeps the entry's place.
  useEffect(() => {
    if (!entry.current) return;
    entry.current.title = title;
    refreshDocumentTitle();
  }, [title]);
}
