// A webhook's signing secret, shown once: after the webhook is made and after a rotation. The
// server never answers it again, so the dialog says so plainly and offers to copy it. It is the
// same dialog as the step before it (the form, the confirmation) with new contents, not a second
// one opened as the first closes: the closing one gives the focus back to its trigger, outside
// the new one, which Ark reads as a click outside and closes it.
import { useRef } from 'react';
import { m } from '../../paraglide/messages.js';
import { copyText } from '../../lib/clipboard.ts';
import { showToast } from '../../lib/toast.ts';
import { Field } from '../../ui/Field.tsx';

export function SecretContent({ secret }: { secret: string }) {
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    const copied = await copyText(secret, input.current);
    showToast(copied ? { type: 'success', title: m.webhooks_secret_copied() } : { type: 'danger', title: m.webhooks_secret_copy_failed() });
  };
  return (
    <>
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
    </>
  );
}

export function DoneButton({ onClose }: { onClose: () => void }) {
  return (
    <button type="button" className="button primary" onClick={onClose}>
      {m.webhooks_done()}
    </button>
  );
}
