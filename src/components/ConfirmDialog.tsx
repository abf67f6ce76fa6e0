// Confirmation dialog (section 4):
//
//   closed ──open──> open ──submit──> submitting ──ok──> closed (+ onDone, optional success toast)
//                     ▲                   │
//                     └──────failure──────┘ (error toast with the caller's description)
//
// While submitting, Cancel and close are disabled. In danger-with-prompt mode the action stays
// disabled until DELETE is typed exactly; the typed text clears whenever the dialog opens or closes.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { CONFIRMATION_WORD } from '../domain/constants.ts';
import { m } from '../paraglide/messages.js';
import { showToast } from '../lib/toast.ts';
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
};

export function ConfirmDialog({ open, onClose, title, description, actionLabel, onConfirm, onDone, danger = false, prompt = false, successToast, failureDescription }: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const inputId = useId();
  useEffect(() => {
    setTyped('');
  }, [open]);
  const close = () => {
    setTyped('');
    onClose();
  };
  const submit = async () => {
    setSubmitting(true);
    try {
      await onConfirm();
      setSubmitting(false);
      close();
      onDone?.();
      if (successToast) showToast({ type: 'success', title: successToast });
    } catch (error) {
      setSubmitting(false);
      showToast({ type: 'danger', title: failureDescription ?? (error instanceof Error ? error.message : String(error)) });
    }
  };
  const blocked = prompt && typed !== CONFIRMATION_WORD;
  return (
    <Dialog
      open={open}
      onClose={close}
      role="alertdialog"
      width="compactNarrow"
      closable={!submitting}
      title={title}
      description={description}
      footer={
        <>
          <button type="button" className="button" disabled={submitting} onClick={close}>{m.app_dialog_cancel()}</button>
          <button type="button" className={`button ${danger ? 'danger' : 'primary'}`} disabled={blocked || submitting} aria-busy={submitting} onClick={() => void submit()}>
            {actionLabel}
          </button>
        </>
      }
    >
      {prompt && (
        <div className="field">
          <label htmlFor={inputId}>{m.app_dialog_type_to_confirm({ word: CONFIRMATION_WORD })}</label>
          <input id={inputId} autoComplete="off" spellCheck={false} value={typed} onChange={(e) => setTyped(e.target.value)} />
        </div>
      )}
    </Dialog>
  );
}
