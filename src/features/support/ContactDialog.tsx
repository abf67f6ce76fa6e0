// Contact support (sections 2, 4, 5, 8), driven by the domain state machine and form rules:
//
//   closed ──open──> open ──submit (valid)──> submitting (close blocked) ──204──> success: 'Enquiry sent', no submit button, form reset
//                     ▲                                 └──failure──> failure + danger toast 'Could not send your enquiry' (may send again)
//                     └── invalid: per-field messages ('Name required', 'Email address required', …)
//
// Name and e-mail are prefilled from the current user; the enquiry has 6 rows and may be prefilled.
// AdditionalInfo and BrowserLocale are cut to 2048 and 255 characters (reported to the console).
import { useEffect, useId, useState } from 'react';
import { CONTACT_ENQUIRY_ROWS } from '../../domain/constants.ts';
import { buildContactRequest, contactPrefill, validateContactForm, type ContactForm, type ContactFormErrors } from '../../domain/contact.ts';
import { contactDialog, contactDialogView, type ContactDialogEvent, type ContactDialogState } from '../../domain/dialogs.ts';
import { domainMessage, formatFormError } from '../../domain/messages.ts';
import { m } from '../../paraglide/messages.js';
import { call } from '../../lib/api.ts';
import { sendSupportEnquiry } from '../../protocol/api/session.ts';
import { useSession } from '../../lib/session.ts';
import { showToast } from '../../lib/toast.ts';
import { withLoading } from '../../lib/loading.ts';
import { Dialog, useDialogVeto } from '../../ui/Dialog.tsx';

export function ContactDialog({ open, onClose, organizationId, defaultMessage = '' }: { open: boolean; onClose: () => void; organizationId?: string; defaultMessage?: string }) {
  const [state, setState] = useState<ContactDialogState>('closed');
  const user = useSession()?.session.User;
  const prefill = contactPrefill(user ? { name: user.Name, email: user.Email } : null, defaultMessage);
  const [values, setValues] = useState<ContactForm>(prefill);
  const [errors, setErrors] = useState<ContactFormErrors>({});

  const send = (event: ContactDialogEvent, from: ContactDialogState = state): ContactDialogState => {
    const next = contactDialog(from, event);
    setState(next.state);
    for (const effect of next.effects) {
      if (effect.type === 'resetForm') setValues(prefill);
      if (effect.type === 'toast') showToast({ type: effect.variant, title: 'text' in effect ? effect.text : domainMessage(effect.message) });
    }
    return next.state;
  };

  useEffect(() => {
    if (open) {
      setValues(prefill);
      setErrors({});
    }
    setState((s) => contactDialog(s, open ? 'open' : 'close').state);
    // Only when the dialog opens or closes.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- prefill is read at opening only
  }, [open]);

  const submit = async () => {
    const e = validateContactForm(values);
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    const submitting = send('submit');
    if (submitting !== 'submitting') return;
    const { request, truncations } = buildContactRequest(values, {
      additionalInfo: JSON.stringify({ organizationId: organizationId ?? null, userAgent: navigator.userAgent }),
      browserLocale: navigator.language,
      sourceUrl: location.href,
    });
    if (truncations.length > 0) console.error('contact enquiry context truncated', truncations);
    const res = await withLoading(call(sendSupportEnquiry, { json: request }));
    send(res.kind === 'ok' ? 'succeeded' : 'failed', submitting);
  };

  const view = contactDialogView(state);
  return (
    <Dialog open={open} onClose={onClose} width="compactMedium" closable={view.canClose} title={m.app_contact_title()}>
      {view.confirmation ? (
        <div className="contact-success" role="status">
          <p className="success-text">{domainMessage(view.confirmation)}</p>
        </div>
      ) : (
        <ContactFields values={values} errors={errors} dirty={values.ContactEnquiry !== prefill.ContactEnquiry} busy={state === 'submitting'} onChange={setValues} onSubmit={() => void submit()} />
      )}
    </Dialog>
  );
}

function ContactFields({ values, errors, dirty, busy, onChange, onSubmit }: { values: ContactForm; errors: ContactFormErrors; dirty: boolean; busy: boolean; onChange: (v: ContactForm) => void; onSubmit: () => void }) {
  const ids = { ContactName: useId(), ContactEmail: useId(), ContactEnquiry: useId() };
  useDialogVeto(dirty);
  const common = (key: keyof ContactForm) => ({
    id: ids[key],
    value: values[key],
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${ids[key]}-error` : undefined,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange({ ...values, [key]: e.target.value }),
  });
  const field = (key: keyof ContactForm, label: string, input: React.ReactNode) => (
    <div className={`field${errors[key] ? ' has-error' : ''}`}>
      <label htmlFor={ids[key]}>{label}</label>
      {input}
      {errors[key] && <p className="field-error" id={`${ids[key]}-error`}>{formatFormError(errors[key])}</p>}
    </div>
  );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {field('ContactName', m.app_contact_name(), <input {...common('ContactName')} autoComplete="name" />)}
      {field('ContactEmail', m.app_contact_email(), <input {...common('ContactEmail')} type="email" autoComplete="email" />)}
      {field('ContactEnquiry', m.app_contact_enquiry(), <textarea {...common('ContactEnquiry')} rows={CONTACT_ENQUIRY_ROWS} />)}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {m.app_contact_submit()}
        </button>
      </div>
    </form>
  );
}
