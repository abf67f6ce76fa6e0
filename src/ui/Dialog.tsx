// A modal dialog on Ark UI. Widths of section 2 (narrow 640px, medium 920px, wide 1100px, full
// 100%; contact/confirmation dialogs use 420px and 640px), nested dialogs offset by 1rem per level,
// and the close veto: a dialog with registered unsaved-changes prompts closes only when none vetoes.
import { Dialog as Ark } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { modalMayClose, UNSAVED_TEXT, type UnsavedSource } from '../domain/dialogs.ts';
import { domainMessage } from '../domain/messages.ts';
import { m } from '../paraglide/messages.js';

export type DialogWidth = 'narrow' | 'medium' | 'wide' | 'full' | 'compactNarrow' | 'compactMedium';
const WIDTHS: Record<DialogWidth, string> = {
  narrow: '640px',
  medium: '920px',
  wide: '1100px',
  full: '100%',
  compactNarrow: '420px',
  compactMedium: '640px',
};

/**
 * Width and offset of a dialog `level` deep: nested ones move 1rem right and down per level, and
 * shrink by twice that on narrow screens, so the moved dialog keeps a margin on its right and
 * bottom edges too instead of running off the viewport.
 */
export function nestedDialogStyle(width: string, level: number): { width: string; maxHeight: string; transform?: string } {
  const inset = `${2 + 2 * (level - 1)}rem`;
  const style = { width: `min(${width}, calc(100vw - ${inset}))`, maxHeight: `calc(100vh - ${inset})` };
  return level > 1 ? { ...style, transform: `translate(${level - 1}rem, ${level - 1}rem)` } : style;
}

/** A veto returns true when it has unsaved changes that should block the close. */
type Veto = () => boolean;
type DialogCtx = { level: number; register: (veto: Veto) => () => void };
const DialogContext = createContext<DialogCtx>({ level: 0, register: () => () => undefined });

/** Registers an unsaved-changes prompt with the enclosing dialog (no-op outside dialogs). */
export function useDialogVeto(isDirty: boolean): void {
  const { register } = useContext(DialogContext);
  const dirty = useRef(isDirty);
  dirty.current = isDirty;
  useEffect(() => register(() => dirty.current), [register]);
}

export type DialogProps = {
  open: boolean;
  /** Called when the dialog really closes (after the veto check). */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  width?: DialogWidth;
  role?: 'dialog' | 'alertdialog';
  /** While false (e.g. submitting) Escape, outside click and the close button do nothing. */
  closable?: boolean;
  children?: ReactNode;
  footer?: ReactNode;
};

export function Dialog({ open, onClose, title, description, width = 'narrow', role = 'dialog', closable = true, children, footer }: DialogProps) {
  const parent = useContext(DialogContext);
  const level = parent.level + 1;
  const vetoes = useRef(new Set<Veto>());
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const register = useCallback((veto: Veto) => {
    vetoes.current.add(veto);
    return () => vetoes.current.delete(veto);
  }, []);
  const ctx = useMemo(() => ({ level, register }), [level, register]);

  const requestClose = () => {
    if (!closable) return;
    if (modalMayClose([...vetoes.current].map((veto) => ({ vetoesClose: veto })))) onClose();
    else setConfirmDiscard(true);
  };

  return (
    <Ark.Root
      open={open}
      role={role}
      lazyMount
      unmountOnExit
      closeOnEscape={closable}
      closeOnInteractOutside={closable}
      onOpenChange={(details) => {
        if (!details.open) requestClose();
      }}
    >
      <Portal>
        <Ark.Backdrop className="dialog-backdrop" />
        <Ark.Positioner className="dialog-positioner">
          <Ark.Content
            className="dialog"
            style={nestedDialogStyle(WIDTHS[width], level)}
          >
            <DialogContext.Provider value={ctx}>
              <header className="dialog-header">
                <Ark.Title className="dialog-title">{title}</Ark.Title>
                <button type="button" className="icon-button" aria-label={m.app_dialog_close()} disabled={!closable} onClick={requestClose}>
                  <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
                </button>
              </header>
              {description !== undefined && <Ark.Description className="dialog-description">{description}</Ark.Description>}
              {children !== undefined && <div className="dialog-body">{children}</div>}
              {footer !== undefined && <footer className="dialog-footer">{footer}</footer>}
              <UnsavedChangesDialog
                open={confirmDiscard}
                entity="dialog"
                onCancel={() => setConfirmDiscard(false)}
                onConfirm={() => {
                  setConfirmDiscard(false);
                  onClose();
                }}
              />
            </DialogContext.Provider>
          </Ark.Content>
        </Ark.Positioner>
      </Portal>
    </Ark.Root>
  );
}

export type UnsavedEntity = UnsavedSource;

/** 'Unsaved changes' (section 8): OK discards and proceeds; closing the dialog cancels. */
export function UnsavedChangesDialog({ open, entity, onConfirm, onCancel }: { open: boolean; entity: UnsavedEntity; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      role="alertdialog"
      width="compactNarrow"
      title={domainMessage('domain_unsaved_title')}
      description={domainMessage(UNSAVED_TEXT[entity])}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel}>{m.app_dialog_cancel()}</button>
          <button type="button" className="button primary" onClick={onConfirm}>{domainMessage('domain_unsaved_ok')}</button>
        </>
      }
    />
  );
}
