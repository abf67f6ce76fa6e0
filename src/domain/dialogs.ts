// Dialog state machines of section 4 as reducers: (state, event) → state plus the effects the
// screen performs (toasts, form reset, completion callback). Screens hold the state; nothing here
// touches the DOM.
import { CONFIRMATION_WORD, TOAST_SWIPE_THRESHOLD_PX } from './constants.ts';
import type { DomainMessageKey } from './form-errors.ts';

export type DialogEffect =
  | { type: 'toast'; variant: 'success' | 'danger'; message: DomainMessageKey }
  | { type: 'toast'; variant: 'success' | 'danger'; text: string; description?: string }
  | { type: 'resetForm' }
  | { type: 'complete' };

// ── Contact dialog ──────────────────────────────────────────────────────────────────────────
//   closed ─open─► open ─submit─► submitting ─succeeded─► success ('Enquiry sent', no submit)
//                    ▲                 │ (close blocked)
//                    └──── failure ◄───┘ failed (danger toast), may submit again

export type ContactDialogState = 'closed' | 'open' | 'submitting' | 'success' | 'failure';
export type ContactDialogEvent = 'open' | 'close' | 'submit' | 'succeeded' | 'failed';
export type Transition<S> = { state: S; effects: DialogEffect[] };

export function contactDialog(state: ContactDialogState, event: ContactDialogEvent): Transition<ContactDialogState> {
  const stay = { state, effects: [] };
  switch (event) {
    case 'open':
      return state === 'closed' ? { state: 'open', effects: [] } : stay;
    case 'close':
      return state === 'submitting' ? stay : { state: 'closed', effects: [] };
    case 'submit':
      return state === 'open' || state === 'failure' ? { state: 'submitting', effects: [] } : stay;
    case 'succeeded':
      return state === 'submitting' ? { state: 'success', effects: [{ type: 'resetForm' }] } : stay;
    case 'failed':
      return state === 'submitting'
        ? { state: 'failure', effects: [{ type: 'toast', variant: 'danger', message: 'domain_contact_failed' }] }
        : stay;
  }
}

export const contactDialogView = (state: ContactDialogState) => ({
  canClose: state !== 'submitting',
  showsSubmit: state !== 'success',
  confirmation: state === 'success' ? ('domain_contact_sent' as const) : null,
});

// ── Confirmation dialog ─────────────────────────────────────────────────────────────────────
//   closed ─open─► open ─submit─► submitting (cancel and close disabled)
//                   ▲                 ├─ succeeded ─► closed (completion callback, optional toast)
//                   └──── failed ─────┘ (error toast, stays open)
// In danger-with-prompt mode submit waits for DELETE typed exactly; the text clears on open/close.

export type ConfirmationConfig = {
  dangerPrompt?: boolean;
  successText?: string | null;
  /** The caller-supplied description shown in the error toast. */
  failureText: string;
};
export type ConfirmationState = { phase: 'closed' | 'open' | 'submitting'; typed: string };
export type ConfirmationEvent =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'type'; text: string }
  | { type: 'submit' }
  | { type: 'succeeded' }
  /** `reason`: why it failed, in words for the user (the toast's description), when the caller knows. */
  | { type: 'failed'; reason?: string };

export const CONFIRMATION_CLOSED: ConfirmationState = { phase: 'closed', typed: '' };

export function canSubmitConfirmation(state: ConfirmationState, config: ConfirmationConfig): boolean {
  return state.phase === 'open' && (config.dangerPrompt !== true || state.typed === CONFIRMATION_WORD);
}

export function confirmationDialog(state: ConfirmationState, event: ConfirmationEvent, config: ConfirmationConfig): Transition<ConfirmationState> {
  const stay = { state, effects: [] };
  switch (event.type) {
    case 'open':
      return { state: { phase: 'open', typed: '' }, effects: [] };
    case 'close':
      return state.phase === 'submitting' ? stay : { state: CONFIRMATION_CLOSED, effects: [] };
    case 'type':
      return state.phase === 'open' ? { state: { ...state, typed: event.text }, effects: [] } : stay;
    case 'submit':
      return canSubmitConfirmation(state, config) ? { state: { ...state, phase: 'submitting' }, effects: [] } : stay;
    case 'succeeded': {
      if (state.phase !== 'submitting') return stay;
      const effects: DialogEffect[] = [{ type: 'complete' }];
      if (config.successText) effects.push({ type: 'toast', variant: 'success', text: config.successText });
      return { state: CONFIRMATION_CLOSED, effects };
    }
    case 'failed':
      return state.phase === 'submitting'
        ? { state: { ...state, phase: 'open' }, effects: [{ type: 'toast', variant: 'danger', text: config.failureText, ...(event.reason ? { description: event.reason } : {}) }] }
        : stay;
  }
}

// ── Unsaved changes ─────────────────────────────────────────────────────────────────────────

export type UnsavedSource = 'form' | 'dialog' | 'transcript';
export type NavigationTrigger = 'routeChange' | 'inPageNavigation' | 'unload';

export const UNSAVED_TEXT: Record<UnsavedSource, DomainMessageKey> = {
  form: 'domain_unsaved_text_form',
  dialog: 'domain_unsaved_text_dialog',
  transcript: 'domain_unsaved_text_transcript',
};

/** A source with unsaved changes blocks route changes and unloads, and in-page navigation if it asks to. */
export function blocksNavigation(source: { dirty: boolean; blockInPageNavigation?: boolean }, trigger: NavigationTrigger): boolean {
  if (!source.dirty) return false;
  return trigger !== 'inPageNavigation' || source.blockInPageNavigation === true;
}

/** 'OK' discards changes and proceeds; closing the dialog cancels navigation. */
export function resolveUnsavedPrompt(choice: 'ok' | 'dismiss'): 'proceed' | 'cancel' {
  return choice === 'ok' ? 'proceed' : 'cancel';
}

/** A modal with registered unsaved-changes prompts closes only when none of them vetoes. */
export function modalMayClose(prompts: ReadonlyArray<{ vetoesClose(): boolean }>): boolean {
  return !prompts.some((p) => p.vetoesClose());
}

// ── Toast gestures and the grant-access outcome ─────────────────────────────────────────────

/** A swipe of 50px or more, either way, dismisses a toast. */
export function swipeDismissesToast(deltaPx: number): boolean {
  return Math.abs(deltaPx) >= TOAST_SWIPE_THRESHOLD_PX;
}

/** Grant access (section 6): success reloads; 404 alerts 'Organization does not exist'; else 'Error granting access'. */
export function grantAccessOutcome(result: { kind: string }): { action: 'reload' } | { action: 'alert'; message: DomainMessageKey } {
  if (result.kind === 'ok') return { action: 'reload' };
  return { action: 'alert', message: result.kind === 'notFound' ? 'domain_grant_access_not_found' : 'domain_grant_access_error' };
}
