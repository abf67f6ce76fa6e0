// /{organizationId}/billing: Billing & features (issue 33; section 6: admins only), for the
// organization acted in. Server-held staff state, like the other staff tools: it needs the network
// and says so offline. Rules and prices: src/domain/billing.ts; the calls: src/protocol/api/billing.ts.
//
//   load: billing, this month's measured usage, each metered add-on's cap and notices, the invoices
//   plan & add-ons ──Save──> PATCH /internal/billing ──> load again (allowances, features, amounts)
//   a cap ──Save cap──> PATCH …/add-on/{type}/restrictions
//   notices ──Save notices──> PUT /internal/subscription/add-on/{type}/notification-settings
//   an invoice ──Open──> its document, made by the server, in a new tab
// A refused field shows the server's reason at that field.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { getLocale } from '../../paraglide/runtime.js';
import { ADD_ON_TYPES, formatCents, isMeteredAddOn, METERED_ADD_ON_TYPES, type AddOnType, type Feature, type MeteredAddOnType } from '../../domain/billing.ts';
import { ADD_ON_LABEL, FEATURE_LABEL } from '../../domain/billing-words.ts';
import { domainFieldErrorText } from '../../domain/messages.ts';
import type { BadRequestBody } from '../../protocol/errors.ts';
import {
  getAddOnRestrictions,
  getBilling,
  getBillingUsage,
  getNotificationSettings,
  invoiceDocument,
  listInvoices,
  patchAddOnRestrictions,
  patchBilling,
  putNotificationSettings,
  type AddOnRestrictions,
  type Billing,
  type BillingUsage,
  type Invoice,
  type NotificationSettings,
} from '../../protocol/api/billing.ts';
import { call, organizationHeaders, routeUrl, type ApiResult } from '../../lib/api.ts';
import { withLoading } from '../../lib/loading.ts';
import { formatStorage } from '../../lib/sync-labels.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import './billing.css';

type Loaded = {
  billing: Billing;
  usage: BillingUsage;
  invoices: Invoice[];
  restrictions: Record<MeteredAddOnType, AddOnRestrictions>;
  notices: Record<MeteredAddOnType, NotificationSettings>;
};
type State = { kind: 'loading' } | { kind: 'failed'; status: number | null } | { kind: 'ready'; data: Loaded };

const MEASURE_WORDS = {
  StoredAudioHours: () => m.billing_measure_stored_audio_hours(),
  Downloads: () => m.billing_measure_downloads(),
  Seats: () => m.billing_measure_seats(),
  TranscriptionMinutes: () => m.billing_measure_transcription_minutes(),
} as const;

const money = (cents: number) => formatCents(cents, getLocale());
const number = (n: number) => new Intl.NumberFormat(getLocale(), { maximumFractionDigits: 2 }).format(n);
const addOnName = (type: AddOnType) => ADD_ON_LABEL[type]();
const featureName = (f: Feature) => FEATURE_LABEL[f]();

/** The 400's errors by field, in the interface language where the catalogue knows the words. */
function errorsByField(body: BadRequestBody): Record<string, string> {
  return Object.fromEntries(body.Errors.map((e) => [e.Field, domainFieldErrorText(e) ?? e.Message]));
}

function must<T>(result: ApiResult<T>): T {
  if (result.kind === 'ok') return result.data;
  throw Object.assign(new Error('load failed'), { status: 'status' in result ? result.status : null });
}

async function loadAll(): Promise<Loaded> {
  const [billing, usage, invoices] = await Promise.all([call(getBilling), call(getBillingUsage), call(listInvoices)]);
  const restrictions = await Promise.all(METERED_ADD_ON_TYPES.map(async (t) => [t, must(await call(getAddOnRestrictions, { params: { addOnType: t } }))] as const));
  const notices = await Promise.all(METERED_ADD_ON_TYPES.map(async (t) => [t, must(await call(getNotificationSettings, { params: { addOnType: t } }))] as const));
  return {
    billing: must(billing),
    usage: must(usage),
    invoices: must(invoices).Items,
    restrictions: Object.fromEntries(restrictions) as Record<MeteredAddOnType, AddOnRestrictions>,
    notices: Object.fromEntries(notices) as Record<MeteredAddOnType, NotificationSettings>,
  };
}

export function BillingScreen() {
  const online = useOnline();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const load = useCallback(async () => {
    try {
      setState({ kind: 'ready', data: await withLoading(loadAll()) });
    } catch (err) {
      setState({ kind: 'failed', status: (err as { status?: number | null }).status ?? null });
    }
  }, []);
  // Offline nothing is asked: the server holds billing. Back online, it loads again.
  useEffect(() => {
    if (online) void load();
  }, [load, online]);

  return (
    <>
      <PageHeader title={m.billing_title()} />
      {!online && (
        <p className="muted" role="status">
          {m.billing_offline()}
        </p>
      )}
      {state.kind === 'loading' && online && <p className="muted">{m.billing_loading()}</p>}
      {state.kind === 'failed' && online && (
        <div role="alert">
          <p>{state.status === 403 ? m.billing_forbidden() : m.billing_load_failed()}</p>
          {state.status !== 403 && (
            <button type="button" className="button" onClick={() => void load()}>
              {m.billing_retry()}
            </button>
          )}
        </div>
      )}
      {state.kind === 'ready' && <BillingPanels data={state.data} online={online} reload={load} />}
    </>
  );
}

function BillingPanels({ data, online, reload }: { data: Loaded; online: boolean; reload: () => Promise<void> }) {
  const { billing, usage, invoices } = data;
  return (
    <>
      <p className="muted">{m.billing_intro({ organization: billing.OrganizationName })}</p>
      <PlanForm billing={billing} online={online} reload={reload} />
      <section aria-labelledby="billing-usage" className="card" style={{ marginTop: '1rem' }}>
        <h2 id="billing-usage">{m.billing_usage_heading({ period: usage.Period.Id })}</h2>
        <div style={{ overflowX: 'auto' }}>
          <table className="billing-table" aria-labelledby="billing-usage">
            <thead>
              <tr>
                <th scope="col">{m.billing_usage_measure()}</th>
                <th scope="col">{m.billing_usage_used()}</th>
                <th scope="col">{m.billing_usage_allowance()}</th>
                <th scope="col">{m.billing_usage_percent()}</th>
              </tr>
            </thead>
            <tbody>
              {usage.Measures.map((u) => (
                <tr key={u.Measure}>
                  <th scope="row">{MEASURE_WORDS[u.Measure]()}</th>
                  <td>{number(u.Used)}</td>
                  <td>{number(u.Allowance)}</td>
                  <td>
                    {u.Percent === null ? '—' : `${number(u.Percent)} %`}
                    {u.CapReached && (
                      <>
                        {' '}
                        <span className="pill">{m.billing_usage_cap_reached()}</span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="muted">{m.billing_usage_bytes({ size: formatStorage(usage.StoredAudioBytes) })}</p>
      </section>
      <section aria-labelledby="billing-caps" className="card" style={{ marginTop: '1rem' }}>
        <h2 id="billing-caps">{m.billing_restrictions_heading()}</h2>
        {METERED_ADD_ON_TYPES.map((t) => (
          <RestrictionForm key={t} type={t} current={data.restrictions[t]} online={online} reload={reload} />
        ))}
      </section>
      <section aria-labelledby="billing-notices" className="card" style={{ marginTop: '1rem' }}>
        <h2 id="billing-notices">{m.billing_notices_heading()}</h2>
        {METERED_ADD_ON_TYPES.map((t) => (
          <NoticeForm key={t} type={t} current={data.notices[t]} online={online} />
        ))}
      </section>
      <section aria-labelledby="billing-invoices" className="card" style={{ marginTop: '1rem' }}>
        <h2 id="billing-invoices">{m.billing_invoices_heading()}</h2>
        <ul className="plain-list">
          {invoices.map((inv) => (
            <InvoiceRow key={inv.Id} invoice={inv} online={online} />
          ))}
        </ul>
      </section>
    </>
  );
}

function PlanForm({ billing, online, reload }: { billing: Billing; online: boolean; reload: () => Promise<void> }) {
  const [plan, setPlan] = useState(billing.Plan);
  const [quantities, setQuantities] = useState<Record<string, string>>(() => Object.fromEntries(billing.AddOns.map((a) => [a.Type, String(a.Quantity)])));
  const [name, setName] = useState(billing.BillingContactName ?? '');
  const [email, setEmail] = useState(billing.BillingContactEmail ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    // A quantity that is not a number is sent as typed (NaN is no JSON): the server names the field.
    const addOns = Object.fromEntries(ADD_ON_TYPES.map((t) => [t, Number(quantities[t] ?? '0')])) as Record<AddOnType, number>;
    const res = await withLoading(call(patchBilling, { json: { Plan: plan, AddOns: addOns, BillingContactName: name, BillingContactEmail: email } }));
    setBusy(false);
    if (res.kind === 'ok') {
      setErrors({});
      setMessage(m.billing_saved());
      await reload();
    } else if (res.kind === 'badRequest') {
      setErrors(errorsByField(res.body));
      setMessage(m.billing_save_failed());
    } else setMessage(online ? m.billing_load_failed() : m.billing_offline());
  };

  return (
    <form noValidate className="card" onSubmit={(e) => void submit(e)} aria-labelledby="billing-plan">
      <h2 id="billing-plan">{m.billing_plan_heading()}</h2>
      <fieldset style={{ border: 'none', padding: 0 }}>
        <legend className="visually-hidden">{m.billing_plan_heading()}</legend>
        {billing.Plans.map((p) => (
          <label key={p.Id} style={{ display: 'block' }}>
            <input type="radio" name="billing-plan" value={p.Id} checked={plan === p.Id} onChange={() => setPlan(p.Id)} /> {m.billing_plan_option({ plan: p.Id, price: money(p.MonthlyPriceCents) })}
          </label>
        ))}
      </fieldset>
      {errors['Plan'] && <p className="field-error">{errors['Plan']}</p>}
      <h3>{m.billing_features_heading()}</h3>
      <p>{billing.Features.length > 0 ? billing.Features.map(featureName).join(', ') : m.billing_no_features()}</p>
      <h3>{m.billing_addons_heading()}</h3>
      {billing.AddOns.map((a) =>
        isMeteredAddOn(a.Type) ? (
          <Field
            key={a.Type}
            label={m.billing_addon_packs({ addOn: addOnName(a.Type) })}
            hint={m.billing_addon_pack_hint({ units: number(a.UnitsPerPack ?? 0), measure: a.Measure ? MEASURE_WORDS[a.Measure]() : '', price: money(a.PriceCents) })}
            error={errors[`AddOns.${a.Type}`]}
          >
            <input type="number" inputMode="numeric" min={0} max={a.MaxQuantity} value={quantities[a.Type] ?? '0'} onChange={(e) => setQuantities({ ...quantities, [a.Type]: e.target.value })} />
          </Field>
        ) : (
          <div key={a.Type}>
            <CheckboxField label={`${addOnName(a.Type)} — ${m.billing_addon_feature_hint({ price: money(a.PriceCents) })}`} checked={quantities[a.Type] === '1'} onChange={(on) => setQuantities({ ...quantities, [a.Type]: on ? '1' : '0' })} />
            {errors[`AddOns.${a.Type}`] && <p className="field-error">{errors[`AddOns.${a.Type}`]}</p>}
          </div>
        ),
      )}
      <h3>{m.billing_contact_heading()}</h3>
      <Field label={m.billing_contact_name()} error={errors['BillingContactName']}>
        <input type="text" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={m.billing_contact_email()} error={errors['BillingContactEmail']}>
        <input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <button type="submit" className="button primary" disabled={busy || !online} aria-busy={busy}>
        {m.billing_save()}
      </button>
      {message && <p role="status">{message}</p>}
    </form>
  );
}

function RestrictionForm({ type, current, online, reload }: { type: MeteredAddOnType; current: AddOnRestrictions; online: boolean; reload: () => Promise<void> }) {
  const [value, setValue] = useState(current.MaxOverage === null ? '' : String(current.MaxOverage));
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    const text = value.trim();
    const res = await withLoading(call(patchAddOnRestrictions, { params: { addOnType: type }, json: { MaxOverage: text === '' ? null : Number(text) } }));
    if (res.kind === 'ok') {
      setError(null);
      setMessage(m.billing_restriction_saved());
      await reload();
    } else if (res.kind === 'badRequest') setError(errorsByField(res.body)['MaxOverage'] ?? m.billing_save_failed());
    else setError(online ? m.billing_load_failed() : m.billing_offline());
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} style={{ marginBottom: '1rem' }} data-add-on={type}>
      <Field label={m.billing_restriction_label({ addOn: addOnName(type) })} hint={m.billing_restriction_hint()} error={error}>
        <input type="number" inputMode="numeric" min={0} value={value} onChange={(e) => setValue(e.target.value)} />
      </Field>
      <button type="submit" className="button" disabled={!online} aria-label={`${m.billing_restriction_save()}: ${addOnName(type)}`}>
        {m.billing_restriction_save()}
      </button>
      {message && <p role="status">{message}</p>}
    </form>
  );
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function NoticeForm({ type, current, online }: { type: MeteredAddOnType; current: NotificationSettings; online: boolean }) {
  const [thresholds, setThresholds] = useState(current.Thresholds.join(', '));
  const [recipients, setRecipients] = useState(current.Recipients.join(', '));
  const [contact, setContact] = useState(current.NotifyBillingContact);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    const res = await withLoading(call(putNotificationSettings, { params: { addOnType: type }, json: { Thresholds: splitList(thresholds).map(Number), Recipients: splitList(recipients), NotifyBillingContact: contact } }));
    if (res.kind === 'ok') {
      setErrors({});
      setThresholds(res.data.Thresholds.join(', '));
      setMessage(m.billing_notice_saved());
    } else if (res.kind === 'badRequest') {
      // Errors at Thresholds[2] or Recipients[0] belong to the list's one field.
      const byField = errorsByField(res.body);
      const at = (name: string) => Object.entries(byField).find(([f]) => f === name || f.startsWith(`${name}[`))?.[1];
      setErrors({ Thresholds: at('Thresholds') ?? '', Recipients: at('Recipients') ?? '' });
      setMessage(m.billing_save_failed());
    } else setMessage(online ? m.billing_load_failed() : m.billing_offline());
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} style={{ marginBottom: '1rem' }} data-notices={type}>
      <Field label={m.billing_notice_thresholds({ addOn: addOnName(type) })} hint={m.billing_notice_list_hint()} error={errors['Thresholds'] || null}>
        <input type="text" inputMode="numeric" value={thresholds} onChange={(e) => setThresholds(e.target.value)} />
      </Field>
      <Field label={m.billing_notice_recipients({ addOn: addOnName(type) })} hint={m.billing_notice_list_hint()} error={errors['Recipients'] || null}>
        <input type="text" inputMode="email" value={recipients} onChange={(e) => setRecipients(e.target.value)} />
      </Field>
      <CheckboxField label={m.billing_notice_contact()} checked={contact} onChange={setContact} />
      <button type="submit" className="button" disabled={!online} aria-label={`${m.billing_notice_save()}: ${addOnName(type)}`}>
        {m.billing_notice_save()}
      </button>
      {message && <p role="status">{message}</p>}
    </form>
  );
}

function InvoiceRow({ invoice, online }: { invoice: Invoice; online: boolean }) {
  const [error, setError] = useState<string | null>(null);
  // The document is the server's (made from the measured usage); it is fetched with the session and
  // the organization header, then shown in a tab of its own.
  const open = async () => {
    setError(null);
    const tab = window.open('', '_blank');
    try {
      const res = await fetch(routeUrl(invoiceDocument, { params: { invoiceId: invoice.Id } }), { headers: organizationHeaders(), credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      const url = URL.createObjectURL(new Blob([await res.text()], { type: 'text/html' }));
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch {
      tab?.close();
      setError(online ? m.billing_load_failed() : m.billing_offline());
    }
  };
  return (
    <li style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1rem', alignItems: 'baseline', marginBottom: '0.75rem' }}>
      <strong>{invoice.Id}</strong>
      <span className="muted">{invoice.Status === 'Open' ? m.billing_invoice_status_open() : m.billing_invoice_status_closed()}</span>
      <span>
        {m.billing_invoice_total()}: {money(invoice.TotalCents)}
      </span>
      <button type="button" className="button" onClick={() => void open()} disabled={!online}>
        {m.billing_invoice_open({ period: invoice.Id })}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
