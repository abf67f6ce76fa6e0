// Browser translation warning (sections 2 and 4). Browser translators rewrite the DOM React owns
// (Chrome marks <html> with a translated-ltr/rtl class and changes its lang), which breaks pages.
//
//   not translated ──(class/lang change)──> detected ──(never dismissed, or dismissed > 1 month ago)──> dialog
//   dialog ──Dismiss──> dismissal date recorded (localStorage) ──> hidden for a month
//   dialog ──Open profile──> the profile's language choice, dialog closed until translation is seen
//                            again (choosing a language reloads the page: the check runs again)
// After a language change while translation stays on, the dialog says so with a different text.
import { lazy, Suspense, useEffect, useState } from 'react';
import { showTranslationWarning } from '../../domain/timing.ts';
import { getLocale } from '../../lib/i18n.ts';
import { LANGUAGE_CHANGED_KEY } from '../../lib/language.ts';
import { useSession } from '../../lib/session.ts';
import { showsAccountSettings } from '../../domain/permissions.ts';

const TranslationWarningDialog = lazy(() => import('./TranslationWarningDialog.tsx').then((mod) => ({ default: mod.TranslationWarningDialog })));

export const DISMISSED_KEY = 'castaway.translationWarningDismissedAt';

function translated(): boolean {
  const html = document.documentElement;
  return html.classList.contains('translated-ltr') || html.classList.contains('translated-rtl') || (html.lang !== '' && html.lang !== getLocale());
}

function dismissedAt(): Date | null {
  const raw = localStorage.getItem(DISMISSED_KEY);
  const d = raw ? new Date(raw) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

export function TranslationWarning() {
  const [detected, setDetected] = useState(false);
  const [open, setOpen] = useState(false);
  const sessionType = useSession()?.session.Type ?? 'loggedOut';
  useEffect(() => {
    const check = () => {
      const now = translated();
      if (now && !detected) console.info('unexpected locale change (browser translation?)', { lang: document.documentElement.lang, locale: getLocale() });
      setDetected(now);
      setOpen(showTranslationWarning(now, dismissedAt(), new Date()));
    };
    check();
    const observer = new MutationObserver(check);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'lang'] });
    return () => observer.disconnect();
  }, [detected]);
  const afterLanguageChange = sessionStorage.getItem(LANGUAGE_CHANGED_KEY) !== null;
  const dismiss = () => {
    localStorage.setItem(DISMISSED_KEY, new Date().toISOString());
    sessionStorage.removeItem(LANGUAGE_CHANGED_KEY);
    setOpen(false);
  };
  if (!(open && detected)) return null;
  return (
    <Suspense fallback={null}>
      <TranslationWarningDialog afterLanguageChange={afterLanguageChange} onDismiss={dismiss} {...(showsAccountSettings({ sessionType }) ? { onOpenProfile: () => setOpen(false) } : {})} />
    </Suspense>
  );
}
