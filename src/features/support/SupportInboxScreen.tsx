// /admin/support: the support inbox (issue 33: "Contact support reaches someone"), for admin and
// support users. The enquiries sent with Contact support, newest first, open ones by default; each
// is marked handled (or open again) where it is shown. Server-only state, like the other staff
// tools: it needs the network and says so offline, and loads again when the network comes back.
//   GET /internal/support/enquiries?state&page&pageSize · PATCH …/{enquiryId} { Handled }
import { useCallback, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { listSupportEnquiries, updateSupportEnquiry, type SupportEnquiry, type SupportEnquiryState } from '../../protocol/api/support.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ServerPagesStatus, useServerPages } from '../../ui/ServerPages.tsx';

const PAGE_SIZE = 25;
type Filter = SupportEnquiryState | 'All';

export function SupportInboxScreen() {
  const [filter, setFilter] = useState<Filter>('Open');

  const fetchPage = useCallback(
    async (page: number) => {
      const query = filter === 'All' ? { page: String(page), pageSize: String(PAGE_SIZE) } : { page: String(page), pageSize: String(PAGE_SIZE), state: filter };
      return withLoading(call(listSupportEnquiries, { query }));
    },
    [filter],
  );
  const failure = (status: number | null) => (status === 403 ? m.app_support_forbidden() : navigator.onLine ? m.app_support_load_failed() : m.app_support_offline());
  const { state, load, more, replace } = useServerPages(fetchPage, failure);

  return (
    <>
      <PageHeader title={m.app_support_title()} />
      <p className="muted">{m.app_support_intro()}</p>
      <fieldset className="support-filter" style={{ border: 'none', padding: 0, display: 'flex', gap: '1rem', flexWrap: 'wrap' }}>
        <legend className="visually-hidden">{m.app_support_filter()}</legend>
        {(
          [
            ['Open', m.app_support_filter_open()],
            ['Handled', m.app_support_filter_handled()],
            ['All', m.app_support_filter_all()],
          ] as const
        ).map(([value, label]) => (
          <label key={value}>
            <input type="radio" name="support-filter" value={value} checked={filter === value} onChange={() => setFilter(value)} /> {label}
          </label>
        ))}
      </fieldset>
      <ServerPagesStatus state={state} empty={m.app_support_empty()} retry={() => void load()} />
      {state.kind === 'ready' && state.items.length > 0 && (
        <ul className="plain-list" aria-label={m.app_support_title()}>
          {state.items.map((e) => (
            <EnquiryCard key={e.Id} enquiry={e} onChanged={replace} />
          ))}
        </ul>
      )}
      {state.kind === 'ready' && state.hasNext && (
        <button type="button" className="button" onClick={() => void more()}>
          {m.app_support_more()}
        </button>
      )}
    </>
  );
}

function EnquiryCard({ enquiry: e, onChanged }: { enquiry: SupportEnquiry; onChanged: (next: SupportEnquiry) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const handled = e.State === 'Handled';
  const toggle = async () => {
    setBusy(true);
    setError(null);
    const res = await withLoading(call(updateSupportEnquiry, { params: { enquiryId: e.Id }, json: { Handled: !handled } }));
    setBusy(false);
    if (res.kind === 'ok') onChanged(res.data);
    else setError(navigator.onLine ? m.app_support_update_failed() : m.app_support_offline());
  };
  const from = m.app_support_from({ name: e.Enquiry.ContactName ?? '', email: e.Enquiry.ContactEmail ?? '' });
  const details = [e.Enquiry.AdditionalInfo, e.Enquiry.BrowserLocale, e.Enquiry.ClientVersion].filter((x): x is string => typeof x === 'string' && x !== '');
  return (
    <li className="card" aria-label={from} style={{ marginBottom: '1rem' }}>
      <p style={{ display: 'flex', justifyContent: 'space-between', gap: '1rem', flexWrap: 'wrap', margin: 0 }}>
        <strong>{from}</strong>
        <span className="muted">
          <span className={`pill${handled ? ' pill-ready' : ''}`}>{handled ? m.app_support_state_handled() : m.app_support_state_open()}</span> {formatDateTime(e.CreatedAtUtc)}
        </span>
      </p>
      <p className="muted" style={{ margin: '0.25rem 0' }}>
        {[e.UserEmail && e.UserEmail !== e.Enquiry.ContactEmail ? m.app_support_account({ email: e.UserEmail }) : null, e.OrganizationName ? m.app_support_organization({ name: e.OrganizationName }) : null, e.Enquiry.SourceUrl ? m.app_support_page({ url: e.Enquiry.SourceUrl }) : null]
          .filter(Boolean)
          .join(' · ')}
      </p>
      <p style={{ whiteSpace: 'pre-wrap' }}>{e.Enquiry.ContactEnquiry}</p>
      {details.length > 0 && (
        <details>
          <summary>{m.app_support_details()}</summary>
          <pre style={{ whiteSpace: 'pre-wrap' }}>{details.join('\n\n')}</pre>
        </details>
      )}
      {handled && e.HandledAtUtc && <p className="muted">{m.app_support_handled_by({ name: e.HandledByName ?? '', when: formatDateTime(e.HandledAtUtc) })}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="button" disabled={busy} aria-busy={busy} onClick={() => void toggle()}>
        {handled ? m.app_support_reopen() : m.app_support_mark_handled()}
      </button>
    </li>
  );
}
