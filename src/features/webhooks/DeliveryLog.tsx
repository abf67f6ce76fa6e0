// One webhook and its delivery log: newest first, filtered by event type and status (kept in the
// URL: delivery-filter.ts), a page at a time; each delivery opens to show what was sent, what came
// back and when, and can be sent again. While it is on screen and online the log is read again
// every few seconds, so a delivery made meanwhile (a change, a test, a re-send) shows up by itself.
import { useCallback, useEffect, useId, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { WEBHOOK_LOG_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../../domain/webhooks.ts';
import * as routes from '../../protocol/api/webhooks.ts';
import type { Webhook, WebhookEvent } from '../../protocol/api/webhooks.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { showToast } from '../../lib/toast.ts';
import type { Access } from './access.ts';
import { refusalText } from './calls.ts';
import { deliverySubject, pretty } from './delivery-body.ts';
import { deliveryQuery, withFilter, type DeliveryView } from './delivery-filter.ts';
import { answerLabel, EVENT_STATUSES, STATUS_PILL, statusLabel } from './labels.ts';
import { WebhookCard } from './WebhookCard.tsx';
import { Field } from '../../ui/Field.tsx';

const PAGE_SIZE = 20;
/** How often the open log is read again. */
const REFRESH_MS = 3000;

type Load<T> = { kind: 'loading' } | { kind: 'failed'; text: string; gone?: boolean } | { kind: 'ready'; value: T };
type LogPage = { items: WebhookEvent[]; hasNext: boolean };

export function DeliveryLog({ organizationId, view, access, online, onView }: { organizationId: string; view: DeliveryView<WebhookEvent['Status']>; access: Access; online: boolean; onView: (view: DeliveryView | null) => void }) {
  const [webhook, setWebhook] = useState<Load<Webhook>>({ kind: 'loading' });
  const [reload, setReload] = useState(0);
  const refresh = useCallback(() => setReload((n) => n + 1), []);

  useEffect(() => {
    if (!online) return;
    let stale = false;
    void call(routes.getWebhook, { params: { webhookId: view.webhookId } }).then((res) => {
      if (stale) return;
      if (res.kind === 'ok') setWebhook({ kind: 'ready', value: res.data });
      else setWebhook((current) => (current.kind === 'ready' && res.kind === 'error' ? current : { kind: 'failed', text: refusalText(res, m.webhooks_load_failed()), gone: res.kind === 'notFound' }));
    });
    return () => {
      stale = true;
    };
  }, [view.webhookId, online, reload]);

  const back = (
    <p>
      <a
        href={`/${organizationId}/settings?section=webhooks`}
        onClick={(e) => {
          e.preventDefault();
          onView(null);
        }}
      >
        ← {m.webhooks_back()}
      </a>
    </p>
  );
  if (!online) {
    return (
      <>
        {back}
        <p className="alert alert-info" role="status">
          {m.webhooks_offline()}
        </p>
      </>
    );
  }
  if (webhook.kind === 'loading') return <>{back}<p className="muted">{m.webhooks_loading()}</p></>;
  if (webhook.kind === 'failed') {
    return (
      <>
        {back}
        <div className="alert alert-danger" role="alert">
          <p>{webhook.text}</p>
          {!webhook.gone && (
            <button type="button" className="button" onClick={refresh}>
              {m.webhooks_retry()}
            </button>
          )}
        </div>
      </>
    );
  }
  const w = webhook.value;
  const level = access.levels.find((l) => l.networkId === w.NetworkId);
  return (
    <>
      {back}
      <WebhookCard as="div" headingLevel={3} webhook={w} levelName={level?.name ?? ''} writable={level?.write ?? false} onChanged={refresh} onDeleted={() => onView(null)} />
      <Deliveries view={view} writable={level?.write ?? false} onView={onView} reloadWebhook={refresh} />
    </>
  );
}

function Deliveries({ view, writable, onView, reloadWebhook }: { view: DeliveryView<WebhookEvent['Status']>; writable: boolean; onView: (view: DeliveryView) => void; reloadWebhook: () => void }) {
  const [log, setLog] = useState<Load<LogPage>>({ kind: 'loading' });
  const [reload, setReload] = useState(0);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const headingId = useId();
  const { webhookId, eventType, status, page } = view;

  useEffect(() => {
    let stale = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Read now, then again every REFRESH_MS while the page is in view (a hidden tab skips its turns).
    const read = async () => {
      if (document.visibilityState === 'visible' || timer === undefined) {
        const res = await call(routes.listWebhookEvents, { params: { webhookId }, query: deliveryQuery({ webhookId, eventType, status, page }, PAGE_SIZE) });
        if (stale) return;
        if (res.kind === 'ok') setLog({ kind: 'ready', value: { items: res.data.Items, hasNext: res.data.HasNext } });
        // A failed re-read keeps the deliveries on screen; only a first read that fails says so.
        else setLog((current) => (current.kind === 'ready' ? current : { kind: 'failed', text: refusalText(res, m.webhooks_log_failed()) }));
      }
      timer = setTimeout(() => void read(), REFRESH_MS);
    };
    void read();
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [webhookId, eventType, status, page, reload]);

  const filtered = eventType !== null || status !== null;
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section className="card webhook-log" aria-labelledby={headingId}>
      <div className="card-heading">
        <h3 id={headingId}>{m.webhooks_deliveries()}</h3>
        <button type="button" className="button small" onClick={() => setReload((n) => n + 1)}>
          {m.webhooks_refresh()}
        </button>
      </div>
      <p className="muted">{m.webhooks_log_intro()}</p>
      <div className="webhook-log-filters">
        <Field label={m.webhooks_filter_event()}>
          <select value={eventType ?? ''} onChange={(e) => onView(withFilter(view, { eventType: e.target.value || null }))}>
            <option value="">{m.webhooks_filter_any_event()}</option>
            {WEBHOOK_LOG_EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
        <Field label={m.webhooks_filter_status()}>
          <select value={status ?? ''} onChange={(e) => onView(withFilter(view, { status: (e.target.value || null) as WebhookEvent['Status'] | null }))}>
            <option value="">{m.webhooks_filter_any_status()}</option>
            {EVENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {log.kind === 'loading' && <p className="muted">{m.webhooks_log_loading()}</p>}
      {log.kind === 'failed' && (
        <p className="alert alert-danger" role="alert">
          {log.text}
        </p>
      )}
      {log.kind === 'ready' && log.value.items.length === 0 && <p className="empty">{filtered || page > 1 ? m.webhooks_log_none_match() : m.webhooks_log_none()}</p>}
      {log.kind === 'ready' && log.value.items.length > 0 && (
        <ul className="webhook-deliveries" aria-labelledby={headingId}>
          {log.value.items.map((event) => (
            <Delivery
              key={event.Id}
              event={event}
              open={open.has(event.Id)}
              onToggle={() => toggle(event.Id)}
              writable={writable}
              onResent={() => {
                setReload((n) => n + 1);
                reloadWebhook();
              }}
            />
          ))}
        </ul>
      )}
      {log.kind === 'ready' && (page > 1 || log.value.hasNext) && (
        <nav className="webhook-paging" aria-label={m.webhooks_paging()}>
          <button type="button" className="button" disabled={page <= 1} onClick={() => onView({ ...view, page: page - 1 })}>
            {m.webhooks_previous()}
          </button>
          <span className="muted">{m.webhooks_page({ page: String(page) })}</span>
          <button type="button" className="button" disabled={!log.value.hasNext} onClick={() => onView({ ...view, page: page + 1 })}>
            {m.webhooks_next()}
          </button>
        </nav>
      )}
    </section>
  );
}

function Delivery({ event: e, open, onToggle, writable, onResent }: { event: WebhookEvent; open: boolean; onToggle: () => void; writable: boolean; onResent: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const detailsId = useId();
  const resend = async () => {
    setError(null);
    setBusy(true);
    const res = await withLoading(call(routes.resendWebhookEvent, { params: { webhookId: e.WebhookId, webhookEventId: e.Id } }));
    setBusy(false);
    if (res.kind !== 'ok') {
      setError(refusalText(res, m.webhooks_resend_failed()));
      return;
    }
    showToast({ type: 'success', title: m.webhooks_resent() });
    onResent();
  };
  const time = (at: string | null) => (at ? formatDateTime(at) : '–');
  const subject = deliverySubject(e.RequestBody) ?? (e.EventType === WEBHOOK_TEST_EVENT ? m.webhooks_event_test() : null);
  return (
    <li className={`webhook-delivery${open ? ' is-open' : ''}`}>
      <button type="button" className="webhook-delivery-summary" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
        <span className={`pill ${STATUS_PILL[e.Status]}`}>{statusLabel(e.Status)}</span>
        <code className="webhook-event">{e.EventType}</code>
        {subject && <span className="webhook-delivery-subject">{subject}</span>}
        <span className="webhook-delivery-time">{formatDateTime(e.CreatedAtUtc)}</span>
        <span className="webhook-delivery-answer">{e.Attempts === 0 ? m.webhooks_not_tried() : answerLabel(e.ResponseStatus)}</span>
      </button>
      {open && (
        <div id={detailsId} className="webhook-delivery-details">
          <dl className="webhook-facts">
            <div>
              <dt>{m.webhooks_detail_id()}</dt>
              <dd>
                <code>{e.Id}</code>
              </dd>
            </div>
            {e.EntityId && (
              <div>
                <dt>{m.webhooks_detail_entity()}</dt>
                <dd>
                  <code>{e.EntityId}</code>
                </dd>
              </div>
            )}
            <div>
              <dt>{m.webhooks_detail_attempts()}</dt>
              <dd>{e.Attempts}</dd>
            </div>
            <div>
              <dt>{m.webhooks_detail_created()}</dt>
              <dd>{time(e.CreatedAtUtc)}</dd>
            </div>
            <div>
              <dt>{m.webhooks_detail_last_attempt()}</dt>
              <dd>{time(e.LastAttemptAtUtc)}</dd>
            </div>
            {e.NextAttemptAtUtc && (
              <div>
                <dt>{m.webhooks_detail_next_attempt()}</dt>
                <dd>{time(e.NextAttemptAtUtc)}</dd>
              </div>
            )}
            <div>
              <dt>{m.webhooks_detail_response_status()}</dt>
              <dd>{e.ResponseStatus ?? '–'}</dd>
            </div>
            {e.DurationMs !== null && (
              <div>
                <dt>{m.webhooks_detail_duration()}</dt>
                <dd>{m.webhooks_duration_ms({ ms: String(Math.round(e.DurationMs)) })}</dd>
              </div>
            )}
          </dl>
          {e.Error && (
            <div className="webhook-body">
              <h4>{m.webhooks_detail_error()}</h4>
              <pre>{e.Error}</pre>
            </div>
          )}
          <div className="webhook-body">
            <h4>{m.webhooks_detail_request_body()}</h4>
            <pre tabIndex={0}>{pretty(e.RequestBody)}</pre>
          </div>
          <div className="webhook-body">
            <h4>{m.webhooks_detail_response_body()}</h4>
            {e.ResponseBody ? <pre tabIndex={0}>{pretty(e.ResponseBody)}</pre> : <p className="muted">{m.webhooks_detail_no_body()}</p>}
          </div>
          {writable && (
            <div className="form-actions">
              <button type="button" className="button" disabled={busy} aria-busy={busy} onClick={() => void resend()}>
                {m.webhooks_resend()}
              </button>
            </div>
          )}
          {error && (
            <p className="alert alert-danger" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
