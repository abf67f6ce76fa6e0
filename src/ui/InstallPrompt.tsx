// "Install Castaway Studio": the browser's own install offer (beforeinstallprompt), shown by the
// studio at a moment the user has a reason to want it instead of Chromium's mini-infobar on the
// first paint. index.html captures the event before any module runs (it can fire before this chunk
// loads) and prevents the infobar; this banner offers it when
//
//   captured ──┬── second visit (a new browser session of the studio) ──┐
//              └── a change saved on this device (the outbox had one) ──┴──> offered
//   offered ──Install──> browser's dialog ──> gone (installed, or refused: counts as a dismissal)
//   offered ──Not now──> dismissal date (localStorage) ──> not offered for 30 days
//   running installed (display-mode standalone) or appinstalled ──> never offered
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../paraglide/messages.js';
import { db } from '../db/db.ts';
import { baseLocale, getLocale } from '../lib/i18n.ts';

/** Chromium's event (not in TypeScript's DOM library). */
type BeforeInstallPromptEvent = Event & { prompt: () => Promise<unknown>; userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }> };
type InstallWindow = Window & { castawayInstallPrompt?: BeforeInstallPromptEvent | null };

export const INSTALL_DISMISSED_KEY = 'castaway.installDismissedAt';
export const VISITS_KEY = 'castaway.visits';
export const SAVED_CHANGE_KEY = 'castaway.savedChange';
const VISIT_COUNTED_KEY = 'castaway.visitCounted';
export const DISMISSAL_DAYS = 30;

/** Whether the offer is due, given what this device remembers. */
export function installOfferDue(facts: { visits: number; savedChange: boolean; dismissedAt: Date | null; now: Date }): boolean {
  if (facts.dismissedAt && facts.now.getTime() - facts.dismissedAt.getTime() < DISMISSAL_DAYS * 24 * 60 * 60 * 1000) return false;
  return facts.visits >= 2 || facts.savedChange;
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused: the offer simply comes back next time.
  }
}

/** Counts this browser session of the studio once (a reload or a second tab is the same visit). */
function countVisit(): number {
  const visits = Number(read(VISITS_KEY)) || 0;
  try {
    if (sessionStorage.getItem(VISIT_COUNTED_KEY)) return visits;
    sessionStorage.setItem(VISIT_COUNTED_KEY, '1');
  } catch {
    return visits;
  }
  write(VISITS_KEY, String(visits + 1));
  return visits + 1;
}

function runningInstalled(): boolean {
  return matchMedia('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

function dismissedAt(): Date | null {
  const raw = read(INSTALL_DISMISSED_KEY);
  const date = raw ? new Date(raw) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** The manifest in the interface language (vite.config.ts writes one per locale): what the browser
 *  reads when it installs, so the installed app's name, description and shortcuts are translated. */
function useLocalizedManifest(): void {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    const locale = getLocale();
    if (link && locale !== baseLocale) link.href = `/manifest.${locale}.webmanifest`;
  }, []);
}

export function InstallPrompt() {
  useLocalizedManifest();
  const [event, setEvent] = useState<BeforeInstallPromptEvent | null>(() => (window as InstallWindow).castawayInstallPrompt ?? null);
  const [visits] = useState(countVisit);
  const [hidden, setHidden] = useState(runningInstalled);
  const outboxHasChanges = useLiveQuery(async () => (await db.outbox.count()) > 0, [], false);
  const savedChange = outboxHasChanges || read(SAVED_CHANGE_KEY) !== null;
  useEffect(() => {
    // Remembered: the outbox empties as soon as the change reaches the server.
    if (outboxHasChanges && read(SAVED_CHANGE_KEY) === null) write(SAVED_CHANGE_KEY, new Date().toISOString());
  }, [outboxHasChanges]);

  useEffect(() => {
    const capture = (e: Event) => {
      e.preventDefault();
      setEvent(e as BeforeInstallPromptEvent);
    };
    const installed = () => {
      (window as InstallWindow).castawayInstallPrompt = null;
      setHidden(true);
    };
    window.addEventListener('beforeinstallprompt', capture);
    window.addEventListener('appinstalled', installed);
    // An offer that came between this component's first render and now went only to index.html's
    // listener: take it from there (seen in CI, the offer after a reload never showed).
    const caught = (window as InstallWindow).castawayInstallPrompt;
    if (caught) setEvent(caught);
    return () => {
      window.removeEventListener('beforeinstallprompt', capture);
      window.removeEventListener('appinstalled', installed);
    };
  }, []);

  if (hidden || !event || !installOfferDue({ visits, savedChange, dismissedAt: dismissedAt(), now: new Date() })) return null;
  const close = () => {
    // The event can prompt once only; the browser fires a new one if the studio stays installable.
    (window as InstallWindow).castawayInstallPrompt = null;
    setEvent(null);
  };
  const dismiss = () => {
    write(INSTALL_DISMISSED_KEY, new Date().toISOString());
    close();
  };
  const install = async () => {
    close();
    await event.prompt();
    const choice = await event.userChoice;
    if (choice.outcome === 'dismissed') write(INSTALL_DISMISSED_KEY, new Date().toISOString());
  };
  return (
    <div className="install-prompt" role="region" aria-label={m.install_offer_title()}>
      <div>
        <p className="install-prompt-title">{m.install_offer_title()}</p>
        <p className="muted">{m.install_offer_text()}</p>
      </div>
      <div className="install-prompt-actions">
        <button type="button" className="button primary small" onClick={() => void install()}>
          {m.install_offer_install()}
        </button>
        <button type="button" className="button small" onClick={dismiss}>
          {m.install_offer_dismiss()}
        </button>
      </div>
    </div>
  );
}
