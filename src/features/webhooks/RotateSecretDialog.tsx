// Rotating a webhook's secret: a confirmation, then, in the same dialog, the new secret (shown
// this once). A refusal is said in the dialog, which stays open to try again or cancel.
//
//   confirm ──Rotate secret──> rotating ──ok──> secret ──Done──> closed
//      ▲                          │
//      └────────refused───────────┘ (its words in the dialog)
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import * as routes from '../../protocol/api/webhooks.ts';
import { call } from '../../lib/api.ts';
import { withLoading } from '../../lib/loading.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { refusalText } from './calls.ts';
import { DoneButton, SecretContent } from './SecretDialog.tsx';

type Step = { kind: 'confirm'; error: string | null } | { kind: 'rotating' } | { kind: 'secret'; secret: string };

export function RotateSecretDialog({ webhookId, onClose }: { webhookId: string; onClose: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'confirm', error: null });
  const rotate = async () => {
    setStep({ kind: 'rotating' });
    const res = await withLoading(call(routes.rotateWebhookSecret, { params: { webhookId } }));
    setStep(res.kind === 'ok' ? { kind: 'secret', secret: res.data.Secret } : { kind: 'confirm', error: refusalText(res, m.webhooks_rotate_failed()) });
  };
  if (step.kind === 'secret') {
    return (
      <Dialog open onClose={onClose} role="alertdialog" width="compactMedium" title={m.webhooks_secret_rotated_title()} description={m.webhooks_secret_rotated_text()} footer={<DoneButton onClose={onClose} />}>
        <SecretContent secret={step.secret} />
      </Dialog>
    );
  }
  const busy = step.kind === 'rotating';
  return (
    <Dialog
      open
      onClose={onClose}
      role="alertdialog"
      width="compactMedium"
      closable={!busy}
      title={m.webhooks_rotate_title()}
      description={m.webhooks_rotate_description()}
      footer={
        <>
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {m.webhooks_cancel()}
          </button>
          <button type="button" className="button primary" disabled={busy} aria-busy={busy} onClick={() => void rotate()}>
            {m.webhooks_rotate()}
          </button>
        </>
      }
    >
      {step.kind === 'confirm' && step.error && (
        <p className="alert alert-danger" role="alert">
          {step.error}
        </p>
      )}
    </Dialog>
  );
}
