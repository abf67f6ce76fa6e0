// The frame every account settings form shares (AccountScreen.tsx, ApiKeys.tsx), and what a
// refused account change says.
import { useId, type ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import { fieldErrorTexts } from '../../domain/messages.ts';
import type { ApiResult } from '../../lib/api.ts';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';

/** What a refused account change says: each 400 at its field (`fields`), else one line for the form
 * (offline: that the change needs the network). */
export function refusalText<F extends string>(res: ApiResult<unknown>, fields: readonly F[], failed: string): Partial<Record<F | 'form', string>> {
  if (res.kind === 'badRequest') return fieldErrorTexts(res.body.Errors, fields);
  // Password and address changes are checked by the server (the current password): offline they
  // cannot be kept for later, so the form says the network is needed rather than that it failed.
  const form = mailUnknownHostText(res) ?? (res.kind === 'status' && res.status === 429 ? m.account_too_many() : res.kind === 'error' && !navigator.onLine ? m.account_change_offline() : failed);
  return { form } as Partial<Record<F | 'form', string>>;
}

/** The frame of an account settings form: its heading, fields, the form's own error, its action
 * and, while there is something to put back (`onReset`), Reset. */
export function SettingsForm({ title, error, busy, disabled, submitLabel, onSubmit, onReset, children }: { title: string; error: string | undefined; busy: boolean; disabled: boolean; submitLabel: string; onSubmit: () => Promise<void>; onReset?: (() => void) | undefined; children: ReactNode }) {
  const headingId = useId();
  return (
    <form
      className="card form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      <h2 id={headingId}>{title}</h2>
      {children}
      {error && (
        <p role="alert" className="alert alert-danger">
          {error}
        </p>
      )}
      <div className="form-actions">
        {onReset && (
          <button type="button" className="button" disabled={busy} onClick={onReset}>
            {m.app_form_reset()}
          </button>
        )}
        <button type="submit" className="button primary" disabled={disabled || busy} aria-busy={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** What a section says when its server-only state could not be loaded, with Try again. */
export function LoadFailed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div className="alert alert-warning" role="status">
      <p>{text}</p>
      <button type="button" className="button" onClick={onRetry}>
        {m.app_try_again()}
      </button>
    </div>
  );
}
