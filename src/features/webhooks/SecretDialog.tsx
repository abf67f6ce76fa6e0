// A webhook's signing secret, shown once: after the webhook is made and after a rotation. The
// server never answers it again, so the dialog says so plainly and offers to copy it.
import { useRef } from 'react';
import { m } from '../../paraglide/messages.js';
import { copyText } from '../../lib/clipboard.ts';
import { showToast } from '../../lib/toast.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';

export function SecretDialog({ title, secret, rotated = false, onClose }: { title: string; secret: string; rotated?: boolean; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    const copied = await copyText(secret, input.current);
    showToast(copied ? { type: 'success', title: m.webhooks_secret_copied() } : { type: 'danger', title: m.webhooks_secret_copy_failed() });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      role="alertdialog"
      width="compactMedium"
      title={title}
      description={rotated ? m.webhooks_secret_rotated_text() : m.webhooks_secret_text()}
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          {m.webhooks_done()}
        </button>
      }
    >
      <p className="alert alert-warning" role="note">
        <strong>{m.webhooks_secret_once()}</strong>
      </p>
      <div className="webhook-secret">
        <Field label={m.webhooks_secret_label()}>
          <input ref={input} readOnly value={secret} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        </Field>
        <button type="button" className="button" onClick={() => void copy()}>
          {m.webhooks_copy()}
        </button>
      </div>
    </Dialog>
  );
}
