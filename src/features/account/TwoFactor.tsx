// Two-factor sign-in (issue 31; the calls: src/protocol/api/mfa.ts; the rules: src/domain/mfa.ts).
// Its state lives on the server only: offline the card says it needs the network.
//
//   loading ──> off ──Turn on (PUT …/mfa/config)──> setting up: QR code, the key, a code field
//                 ▲                                   │ Cancel (DELETE …/mfa/config) ──> off
//                 │                                   └ Confirm (PUT …/mfa { Code }) ──> recovery codes, shown once
//                 │                                                                      └ "I have saved them" ──> on
//                 └── Turn off (DELETE …/mfa/config with a code or the password) ── on
//                                       recovery codes, shown once <──Regenerate (a dialog: POST
//                                         …/mfa/recovery-codes { Code }; offline it says so)── on
//   loading ──fails──> failed ──online / Try again──> loading
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { encode } from 'uqr';
import { m } from '../../paraglide/messages.js';
import { formatFormError } from '../../domain/messages.ts';
import { validateMfaCode } from '../../domain/mfa.ts';
import { validateRequired } from '../../domain/validators.ts';
import { confirmMfa, disableMfa, getMfaConfig, regenerateRecoveryCodes, startMfaSetup, type MfaConfig } from '../../protocol/api/mfa.ts';
import { call } from '../../lib/api.ts';
import { copyText } from '../../lib/clipboard.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { showToast } from '../../lib/toast.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { LoadFailed, refusalText } from './settings-form.tsx';
import { useLoadWhenOnline } from '../../lib/load-when-online.ts';
import './two-factor.css';

type State = { kind: 'loading' } | { kind: 'failed'; offline: boolean } | { kind: 'ready'; config: MfaConfig } | { kind: 'codes'; codes: string[] };

export function TwoFactorSection() {
  const headingId = useId();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const res = await call(getMfaConfig);
    setState(res.kind === 'ok' ? { kind: 'ready', config: res.data } : { kind: 'failed', offline: res.kind === 'error' && !navigator.onLine });
  }, []);
  useLoadWhenOnline(load);

  /** Runs a change; refusals not at a field go under the card. */
  const change = async (run: () => Promise<boolean>) => {
    setBusy(true);
    setError(undefined);
    try {
      if (await run()) await load();
    } finally {
      setBusy(false);
    }
  };

  const startSetup = () =>
    change(async () => {
      const res = await withLoading(call(startMfaSetup, { json: {} }));
      if (res.kind !== 'ok') setError(refusalText(res, [], m.account_mfa_failed()).form);
      return res.kind === 'ok';
    });
  const cancelSetup = () =>
    change(async () => {
      const res = await withLoading(call(disableMfa, { json: {} }));
      if (res.kind !== 'ok') setError(refusalText(res, [], m.account_mfa_failed()).form);
      return res.kind === 'ok';
    });

  return (
    <section className="card form two-factor" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.account_mfa_title()}</h2>
      {state.kind === 'loading' && <p className="muted">{m.account_mfa_loading()}</p>}
      {state.kind === 'failed' && <LoadFailed text={state.offline ? m.account_mfa_offline() : m.account_mfa_load_failed()} onRetry={() => void load()} />}
      {state.kind === 'codes' && (
        <RecoveryCodes
          codes={state.codes}
          onDone={() => {
            setState({ kind: 'loading' });
            void load();
          }}
        />
      )}
      {state.kind === 'ready' && state.config.Enabled && (
        <>
          <p className="two-factor-status" role="status">
            <span className="pill pill-ready">{m.account_mfa_on_badge()}</span> {m.account_mfa_on({ when: formatDateTime(state.config.EnabledAtUtc ?? '') })}{' '}
            {m.account_mfa_codes_left({ count: state.config.RecoveryCodesLeft })}
          </p>
          <Regenerate
            busy={busy}
            onDone={(codes) => {
              showToast({ type: 'success', title: m.account_mfa_regenerated() });
              setState({ kind: 'codes', codes });
            }}
          />
          <TurnOff
            busy={busy}
            onDone={() => {
              showToast({ type: 'success', title: m.account_mfa_turned_off() });
              setState({ kind: 'loading' });
              void load();
            }}
          />
        </>
      )}
      {state.kind === 'ready' && !state.config.Enabled && state.config.Setup === null && (
        <>
          <p>{m.account_mfa_intro()}</p>
          <p className="two-factor-status">
            <span className="pill">{m.account_mfa_off_badge()}</span> {m.account_mfa_off()}
          </p>
          <div className="form-actions">
            <button type="button" className="button primary" disabled={busy} aria-busy={busy} onClick={() => void startSetup()}>
              {m.account_mfa_turn_on()}
            </button>
          </div>
        </>
      )}
      {state.kind === 'ready' && !state.config.Enabled && state.config.Setup !== null && (
        <SetUp
          setup={state.config.Setup}
          busy={busy}
          onCancel={() => void cancelSetup()}
          onConfirmed={(codes) => {
            showToast({ type: 'success', title: m.account_mfa_turned_on() });
            setState({ kind: 'codes', codes });
          }}
        />
      )}
      {error && (
        <p role="alert" className="alert alert-danger">
          {error}
        </p>
      )}
    </section>
  );
}

/** The pending key: as a QR code and as text, and the code that confirms it. */
function SetUp({ setup, busy, onCancel, onConfirmed }: { setup: NonNullable<MfaConfig['Setup']>; busy: boolean; onCancel: () => void; onConfirmed: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ Code?: string; form?: string }>({});
  const [sending, setSending] = useState(false);
  const confirm = async () => {
    const invalid = validateMfaCode(code);
    setErrors(invalid ? { Code: formatFormError(invalid) } : {});
    if (invalid) return;
    setSending(true);
    const res = await withLoading(call(confirmMfa, { json: { Code: code } }));
    setSending(false);
    if (res.kind === 'ok') onConfirmed(res.data.RecoveryCodes);
    else setErrors(refusalText(res, ['Code'] as const, m.account_mfa_failed()));
  };
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void confirm();
      }}
    >
      <p>{m.account_mfa_scan()}</p>
      <div className="two-factor-setup">
        <QrCode text={setup.Uri} label={m.account_mfa_qr_label()} />
        <div className="two-factor-key">
          <Field label={m.account_mfa_key()} hint={m.account_mfa_key_hint()}>
            <textarea readOnly rows={2} value={setup.Secret.replace(/(.{4})(?=.)/g, '$1 ')} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <Field label={m.account_mfa_code()} error={errors.Code}>
            <input inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
        </div>
      </div>
      {errors.form && (
        <p role="alert" className="alert alert-danger">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" disabled={busy || sending} onClick={onCancel}>
          {m.account_mfa_cancel()}
        </button>
        <button type="submit" className="button primary" disabled={busy || sending} aria-busy={sending}>
          {m.account_mfa_confirm()}
        </button>
      </div>
    </form>
  );
}

/** The QR code of the otpauth:// URI, drawn as SVG (one path of dark modules, a quiet zone of 4). */
function QrCode({ text, label }: { text: string; label: string }) {
  const { path, size } = useMemo(() => {
    const qr = encode(text, { ecc: 'M', border: 4 });
    let d = '';
    qr.data.forEach((row, y) => row.forEach((dark, x) => (d += dark ? `M${x} ${y}h1v1h-1z` : '')));
    return { path: d, size: qr.size };
  }, [text]);
  return (
    <svg className="two-factor-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The recovery codes, shown this once: the server keeps only their hashes. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  const area = useRef<HTMLTextAreaElement>(null);
  const copy = async () => {
    const copied = await copyText(text, area.current as unknown as HTMLInputElement);
    showToast(copied ? { type: 'success', title: m.account_mfa_copied() } : { type: 'danger', title: m.account_mfa_copy_failed() });
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${m.account_mfa_codes_file_heading()}\n\n${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'castaway-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="two-factor-codes">
      <p className="alert alert-warning" role="note">
        <strong>{m.account_mfa_codes_once()}</strong>
      </p>
      <Field label={m.account_mfa_codes_label()}>
        <textarea ref={area} readOnly rows={codes.length} value={text} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
      </Field>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => void copy()}>
          {m.account_mfa_copy()}
        </button>
        <button type="button" className="button" onClick={download}>
          {m.account_mfa_download()}
        </button>
        <button type="button" className="button primary" onClick={onDone}>
          {m.account_mfa_done()}
        </button>
      </div>
    </div>
  );
}

/** New recovery codes in place of every old one, with a code of the app, in a dialog. The server
 * makes them, so offline the dialog says the network is needed and sends nothing. */
function Regenerate({ busy, onDone }: { busy: boolean; onDone: (codes: string[]) => void }) {
  const online = useOnline();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ Code?: string; form?: string }>({});
  const [sending, setSending] = useState(false);
  const close = () => {
    setOpen(false);
    setCode('');
    setErrors({});
  };
  const submit = async () => {
    const invalid = validateMfaCode(code);
    setErrors(invalid ? { Code: formatFormError(invalid) } : {});
    if (invalid) return;
    setSending(true);
    const res = await withLoading(call(regenerateRecoveryCodes, { json: { Code: code } }));
    setSending(false);
    if (res.kind !== 'ok') {
      setErrors(refusalText(res, ['Code'] as const, m.account_mfa_failed()));
      return;
    }
    close();
    onDone(res.data.RecoveryCodes);
  };
  return (
    <>
      <div className="form-actions">
        <button type="button" className="button" disabled={busy} onClick={() => setOpen(true)}>
          {m.account_mfa_regenerate()}
        </button>
      </div>
      <Dialog
        open={open}
        onClose={close}
        width="compactMedium"
        closable={!sending}
        title={m.account_mfa_regenerate()}
        description={m.account_mfa_regenerate_intro()}
        footer={
          <>
            <button type="button" className="button" disabled={sending} onClick={close}>
              {m.account_mfa_cancel()}
            </button>
            <button type="submit" form={formId} className="button primary" disabled={sending || !online} aria-busy={sending}>
              {m.account_mfa_regenerate_confirm()}
            </button>
          </>
        }
      >
        <form
          id={formId}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {!online && (
            <p className="alert alert-warning" role="status">
              {m.account_mfa_regenerate_offline()}
            </p>
          )}
          <Field label={m.account_mfa_code()} error={errors.Code}>
            <input inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
          </Field>
          {errors.form && (
            <p role="alert" className="alert alert-danger">
              {errors.form}
            </p>
          )}
        </form>
      </Dialog>
    </>
  );
}

/** Turning it off: a code of the app, or the password instead. */
function TurnOff({ busy, onDone }: { busy: boolean; onDone: () => void }) {
  const [withPassword, setWithPassword] = useState(false);
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ Code?: string; CurrentPassword?: string; form?: string }>({});
  const [sending, setSending] = useState(false);
  const submit = async () => {
    const invalid = withPassword ? validateRequired(value, 'domain_password_current_required') : validateMfaCode(value);
    setErrors(invalid ? { [withPassword ? 'CurrentPassword' : 'Code']: formatFormError(invalid) } : {});
    if (invalid) return;
    setSending(true);
    const res = await withLoading(call(disableMfa, { json: withPassword ? { CurrentPassword: value } : { Code: value } }));
    setSending(false);
    if (res.kind === 'ok') onDone();
    else setErrors(refusalText(res, ['Code', 'CurrentPassword'] as const, m.account_mfa_failed()));
  };
  const toggle = () => {
    setWithPassword((p) => !p);
    setValue('');
    setErrors({});
  };
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p>{m.account_mfa_off_proof()}</p>
      {withPassword ? (
        <Field label={m.account_mfa_password()} error={errors.CurrentPassword}>
          <input type="password" autoComplete="current-password" value={value} onChange={(e) => setValue(e.target.value)} />
        </Field>
      ) : (
        <Field label={m.account_mfa_code()} error={errors.Code}>
          <input inputMode="numeric" autoComplete="one-time-code" value={value} onChange={(e) => setValue(e.target.value)} />
        </Field>
      )}
      <button type="button" className="button link-button" onClick={toggle}>
        {withPassword ? m.account_mfa_use_code() : m.account_mfa_use_password()}
      </button>
      {errors.form && (
        <p role="alert" className="alert alert-danger">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button danger-outline" disabled={busy || sending} aria-busy={sending}>
          {m.account_mfa_turn_off()}
        </button>
      </div>
    </form>
  );
}
