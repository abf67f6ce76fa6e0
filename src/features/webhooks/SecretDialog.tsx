// A webhook's signing secret, shown once: after the webhook is made and after a rotation. The
// server never answers it again, so the dialog says so plainly and offers to copy it. It is the
// same dialog as the step before it (the form, the confirmation) with new contents, not a second
// one opened as the first closes: the closing one gives the focus back to its trigger, outside
// the new one, which Ark reads as a click outside and closes it.
import { m } from '../../paraglide/messages.js';
import { SecretOnce } from '../../ui/SecretOnce.tsx';

export function SecretContent({ secret }: { secret: string }) {
  return (
    <SecretOnce
      secret={secret}
      words={{ once: m.webhooks_secret_once(), label: m.webhooks_secret_label(), copy: m.webhooks_copy(), copied: m.webhooks_secret_copied(), copyFailed: m.webhooks_secret_copy_failed() }}
    />
  );
}

export function DoneButton({ onClose }: { onClose: () => void }) {
  return (
    <button type="button" className="button primary" onClick={onClose}>
      {m.webhooks_done()}
    </button>
  );
}
