// Contact support (sections 2, 4, 5, 8):
//
//   closed ──open──> open ──submit (valid)──> submitting (close blocked) ──204──> success: 'Enquiry sent', no submit button, form reset
//                     ▲                                 └──failure──> open + danger toast 'Could not send your enquiry'
//                     └── invalid: per-field messages ('Name required', 'Email address required', …)
//
// Name and e-mail are prefilled from the current user; the enquiry has 6 rows and may be prefilled.
// AdditionalInfo and BrowserLocale are truncated to 2048 and 255 characters.
import { useEffect, useId, useState } from 'react';
import { BUILD_VERSION, CONTACT_ADDITIONAL_INFO_MAX, CONTACT_BROWSER_LOCALE_MAX, CONTACT_ENQUIRY_ROWS } from '../../domain/constants.ts';
import { domainMessage } from '../../domain/messages.ts';
import { isEmail } from '../../domain/validators.ts';
import { m } from '../../paraglide/messages.js';
import { api } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { showToast } from '../../lib/toast.ts';
import { Dialog, useDialogVeto } from '../../components/Dialog.tsx';

type Phase = 'open' | 'submitting' | 'success';

export function ContactDialog({ open, onClose, organizationId, defaultMessage }: { open: boolean; onClose: () => void; organizationId?: string; defaultMessage?: string }) {
  const [phase, setPhase] = useState<Phase>('open');
  useEffect(() => {
    if (open) setPhase('open');
  }, [open]);
  return (
    <Dialog open={open} onClose={onClose} width="compactMedium" closable={phase !== 'submitting'} title={m.app_contact_title()}>
      <ContactForm phase={phase} setPhase={setPhase} {...(organizationId ? { organizationId } : {})} defaultMessage={defaultMessage ?? ''} />
    </Dialog>
  );
}

function ContactForm({ phase, setPhase, organizationId, defaultMessage }: { phase: Phase; setPhase: (p: Phase) => void; organizationId?: string; defaultMessage: string }) {
  const user = useSession()?.session.User;
  const initial = { name: user?.Name ?? '', email: user?.Email ?? '', enquiry: defaultMessage };
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof initial, string>>>({});
  const ids = { name: useId(), email: useId(), enquiry: useId() };
  const dirty = phase !== 'success' && values.enquiry !== initial.enquiry;
  useDialogVeto(dirty);

  const validate = () => {
    const e: typeof errors = {};
    if (!values.name.trim()) e.name = domainMessage('domain_contact_name_required');
    if (!values.email.trim()) e.email = domainMessage('domain_contact_email_required');
    else if (!isEmail(values.email.trim())) e.email = domainMessage('domain_contact_email_invalid');
    if (!values.enquiry.trim()) e.enquiry = domainMessage('domain_contact_enquiry_blank');
    return e;
  };

  const submit = async () => {
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    setPhase('submitting');
    const additional = JSON.stringify({ organizationId: organizationId ?? null, userAgent: navigator.userAgent });
    const res = await api('POST', '/internal/custom-support', {
      body: {
        ContactName: values.name.trim(),
        ContactEmail: values.email.trim(),
        ContactEnquiry: values.enquiry,
        AdditionalInfo: additional.slice(0, CONTACT_ADDITIONAL_INFO_MAX),
        BrowserLocale: navigator.language.slice(0, CONTACT_BROWSER_LOCALE_MAX),
        SourceUrl: location.href,
        ClientVersion: BUILD_VERSION,
      },
    });
    if (res.kind === 'ok') {
      setPhase('success');
      setValues(initial);
    } else {
      setPhase('open');
      showToast({ type: 'danger', title: m.app_contact_failed() });
    }
  };

  if (phase === 'success') {
    return (
      <div className="contact-success" role="status">
        <p className="success-text">{m.app_contact_sent()}</p>
      </div>
    );
  }
  const field = (key: keyof typeof initial, label: string, input: React.ReactNode) => (
    <div className="field">
      <label htmlFor={ids[key]}>{label}</label>
      {input}
      {errors[key] && (
        <p className="field-error" id={`${ids[key]}-error`}>
          {errors[key]}
        </p>
      )}
    </div>
  );
  const common = (key: keyof typeof initial) => ({
    id: ids[key],
    value: values[key],
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${ids[key]}-error` : undefined,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues({ ...values, [key]: e.target.value }),
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {field('name', m.app_contact_name(), <input {...common('name')} autoComplete="name" />)}
      {field('email', m.app_contact_email(), <input {...common('email')} type="email" autoComplete="email" />)}
      {field('enquiry', m.app_contact_enquiry(), <textarea {...common('enquiry')} rows={CONTACT_ENQUIRY_ROWS} />)}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={phase === 'submitting'} aria-busy={phase === 'submitting'}>
          {m.app_contact_submit()}
        </button>
      </div>
    </form>
  );
}
