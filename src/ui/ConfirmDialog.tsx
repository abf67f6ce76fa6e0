// Confirmation dialog (section 4), driven by the domain state machine (src/domain/dialogs.ts):
//
//   closed ──open──> open ──submit──> submitting ──ok──> closed (+ onDone, optional success toast)
//                     ▲                   │
//                     └──────failure──────┘ (error toast with the caller's description, and why)
//
// While submitting, Cancel and close are disabled. In danger-with-prompt mode the action stays
// disabled until DELETE is typed exactly; the typed text clears whenever the dialog opens or closes.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { CONFIRMATION_WORD } from '../domain/constants.ts';
import { canSubmitConfirmation, CONFIRMATION_CLOSED, confirmationDialog, type ConfirmationConfig, type ConfirmationEvent, type DialogEffect } from '../domain/dialogs.ts';
import { domainMessage } from '../domain/messages.ts';
import { m } from '../paraglide/messages.js';
import { showToast } from '../lib/toast.ts';
import { withLoading } from '../lib/loading.ts';
import { Dialog } from './Dialog.tsx';

export type ConfirmDialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description: ReactNode;
  actionLabel: string;
  /** Resolves when done; a rejection keeps the dialog open and shows failureDescription. */
  onConfirm: () => Promise<void> | void;
  onDone?: () => void;
  danger?: boolean;
  /** Danger-with-prompt: require the confirmation word. */
  prompt?: boolean;
  successToast?: string;
  failureDescription?: string;
  /** Why a rejection happened, for the error toast's second line (a local write says which). */
  failureReason?: (error: unknown) => string;
};

export function ConfirmDialog({ open, onClose, title, description, actionLabel, onConfirm, onDone, danger = false, prompt = false, successToast, failureDescription, failureReason }: ConfirmDialogProps) {
  const [state, setState] = useState(CONFIRMATION_CLOSED);
  const inputId = useId();
  const config: ConfirmationConfig = { dangerPrompt: prompt, successText: successToast ?? null, failureText: failureDescription ?? m.app_error_500_title() };

  const run = (event: ConfirmationEvent, current = state) => {
    const next = confirmationDialog(current, event, config);
    setState(next.state);
    for (const effect of next.effects) perform(effect);
    return next.state;
  };
  const perform = (effect: DialogEffect) => {
    if (effect.type === 'complete') {
      onClose();
      onDone?.();
    } else if (effect.type === 'toast') {
      if ('text' in effect) showToast({ type: effect.variant, title: effect.text, ...(effect.description !== undefined ? { description: effect.description } : {}) });
      else showToast({ type: effect.variant, title: domainMessage(effect.message) });
    }
  };

  useEffect(() => {
    setState(confirmationDialog(CONFIRMATION_CLOSED, { type: open ? 'open' : 'close' }, config).state);
    // Only on open and close: that is when the typed text clears.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- config is read at opening only
  }, [open]);

  const close = () => {
    if (run({ type: 'close' }).phase === 'closed') onClose();
  };
  const submit = async () => {
    const submitting = run({ type: 'submit' });
    if (submitting.phase !== 'submitting') return;
    try {
      await withLoading(Promise.resolve(onConfirm())); // a submission: the loading bar shows while it waits
      run({ type: 'succeeded' }, submitting);
    } catch (error) {
      const reason = failureReason?.(error);
      run(reason === undefined ? { type: 'failed' } : { type: 'failed', reason }, submitting);
    }
  };
  const busy = state.phase === 'submitting';
  return (
    <Dialog
      open={open}
      onClose={close}
      role="alertdialog"
      width="compactNarrow"
      closable={!busy}
      title={title}
      description={description}
      footer={
        <>
          <button type="button" className="button" disabled={busy} onClick={close}>{m.app_dialog_cancel()}</button>
          <button type="button" className={`button ${danger ? 'danger' : 'primary'}`} disabled={!canSubmitConfirmation(state, config)} aria-busy={busy} onClick={() => void submit()}>
            {actionLabel}
          </button>
        </>
      }
    >
      {prompt && (
        <div className="field">
          <label htmlFor={inputId}>{m.app_dialog_type_to_confirm({ word: CONFIRMATION_WORD })}</label>
          <input id={inputId} autoComplete="off" spellCheck={false} value={state.typed} onChange={(e) => run({ type: 'type', text: e.target.value })} />
        </div>
      )}
    </Dialog>
  );
}
