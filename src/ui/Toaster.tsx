// Toasts (section 4): auto-close after 5000 ms by default (never for infinity), the timer pauses
// on hover or focus and resumes afterwards, a swipe of 50px or more dismisses, Escape closes,
// F8 moves focus to the newest toast; the close control is labelled 'Close'; each type has its icon.
//
// Hand-written beside Ark UI, which the studio ships for dialogs and menus, because Ark's toaster
// (@zag-js/toast 1.43) has no swipe to dismiss at all, and the specification's 50 px swipe is how
// a phone user clears a toast that covers the screen; its pause is per group (hovering one toast
// pauses all), where the specification pauses the toast hovered or focused. The queue is shared
// state (src/lib/toast.ts); the timers' rules are domain code (src/domain/timing.ts).
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { TOAST_HOTKEY } from '../domain/constants.ts';
import { swipeDismissesToast } from '../domain/dialogs.ts';
import { pauseToastTimer, resumeToastTimer, startToastTimer, toastClosesAt, type ToastTimer } from '../domain/timing.ts';
import { m } from '../paraglide/messages.js';
import { dismissToast, useToasts, type Toast, type ToastType } from '../lib/toast.ts';

const ICONS: Record<ToastType, string> = {
  success: 'M5 12l5 5 9-10',
  info: 'M12 8h.01M11 12h1v5h1',
  warning: 'M12 4l9 16H3zM12 10v4M12 17h.01',
  danger: 'M6 6l12 12M18 6L6 18',
};
const TYPE_LABEL: Record<ToastType, () => string> = {
  success: () => m.app_toast_success(),
  info: () => m.app_toast_info(),
  warning: () => m.app_toast_warning(),
  danger: () => m.app_toast_danger(),
};

export function Toaster() {
  const toasts = useToasts();
  const region = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === TOAST_HOTKEY) {
        const items = region.current?.querySelectorAll<HTMLElement>('.toast');
        const last = items?.[items.length - 1];
        if (last) {
          e.preventDefault();
          last.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // A portal on <body> marked as a live announcer: modal dialogs hide everything else from
  // assistive technology, but a toast raised from inside a dialog must still be heard and seen.
  return createPortal(
    <section aria-label={`${m.app_toast_region()} (${TOAST_HOTKEY})`} className="toaster" data-live-announcer="">
      <ol ref={region}>
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </ol>
    </section>,
    document.body,
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const timer = useRef<ToastTimer>(startToastTimer(Date.now(), toast.durationMs));
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  const paused = hovered || focused;

  useEffect(() => {
    timer.current = paused ? pauseToastTimer(timer.current, Date.now()) : resumeToastTimer(timer.current, Date.now());
    const closesAt = toastClosesAt(timer.current);
    if (closesAt === null) return; // paused, or infinity
    const handle = setTimeout(() => dismissToast(toast.id), Math.max(0, closesAt - Date.now()));
    return () => clearTimeout(handle);
  }, [paused, toast.id]);

  const onPointerDown = (e: ReactPointerEvent) => {
    start.current = e.clientX;
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    if (start.current !== null) setDx(e.clientX - start.current);
  };
  const onPointerUp = () => {
    if (swipeDismissesToast(dx)) dismissToast(toast.id);
    start.current = null;
    setDx(0);
  };

  return (
    <li
      className={`toast toast-${toast.type}`}
      tabIndex={0}
      data-type={toast.type}
      style={dx ? { transform: `translateX(${dx}px)`, opacity: Math.max(0.3, 1 - Math.abs(dx) / 200) } : undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') dismissToast(toast.id);
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
    >
      {/* The live role sits inside the list item: a list item may not take it (axe aria-allowed-role). */}
      <div className="toast-body" role={toast.type === 'danger' || toast.type === 'warning' ? 'alert' : 'status'}>
        <svg className="toast-icon" role="img" aria-label={TYPE_LABEL[toast.type]()} viewBox="0 0 24 24" width="20" height="20">
          <path d={ICONS[toast.type]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <div className="toast-text">
          <p className="toast-title">{toast.title}</p>
          {toast.description !== undefined && <p className="toast-description">{toast.description}</p>}
        </div>
      </div>
      <button type="button" className="icon-button" aria-label={m.app_toast_close()} onClick={() => dismissToast(toast.id)}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
      </button>
    </li>
  );
}
