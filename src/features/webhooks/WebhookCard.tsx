// One webhook: where it sends, what, whether it is on, how its last delivery went, and what the
// user may do with it. A webhook the server turned off for failing says so first, with when and
// why, and offers to turn it on again. Used in the list and at the top of its delivery log.
import { useState, type ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Webhook } from '../../protocol/api/webhooks.ts';
import * as routes from '../../protocol/api/webhooks.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { showToast } from '../../lib/toast.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { refusalText } from './calls.ts';
import { summarizeEventTypes } from './event-types.ts';
import { answerLabel, entityLabel } from './labels.ts';
import { RotateSecretDialog } from './RotateSecretDialog.tsx';
import { WebhookDialog } from './WebhookDialog.tsx';

type Props = {
  webhook: Webhook;
  /** The level's name, for the edit dialog ("Network: News"); empty for the organization. */
  levelName?: string;
  writable: boolean;
  onChanged: () => void;
  /** The list's card links to the log; the log's own card does not. */
  onOpen?: () => void;
  onDeleted?: () => void;
  as?: 'li' | 'div';
  /** Its URL's heading: 4 under a level's heading in the list, 3 atop its log. */
  headingLevel?: 3 | 4;
};

export function WebhookCard({ webhook: w, levelName = '', writable, onChanged, onOpen, onDeleted, as = 'li', headingLevel = 4 }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<'edit' | 'rotate' | 'delete' | null>(null);
  const titleId = `webhook-${w.Id}`;

  /** A call from a button on this card: its refusal is said on the card. */
  const act = async (run: () => Promise<ApiResult<unknown>>, done: string, fallback: string) => {
    setError(null);
    setBusy(true);
    const res = await withLoading(run());
    setBusy(false);
    if (res.kind !== 'ok') {
      setError(refusalText(res, fallback));
      return;
    }
    showToast({ type: 'success', title: done });
    onChanged();
  };
  const enable = () => act(() => call(routes.updateWebhook, { params: { webhookId: w.Id }, json: { Enabled: true } }), m.webhooks_enabled_done(), m.webhooks_save_failed());
  const test = () => act(() => call(routes.sendWebhookTest, { params: { webhookId: w.Id } }), m.webhooks_test_queued(), m.webhooks_test_failed());

  const Tag = as;
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const state = w.Enabled ? 'enabled' : w.DisabledReason === 'Failing' ? 'failing' : 'disabled';
  return (
    <Tag className={`webhook-card${state === 'failing' ? ' is-failing' : ''}`} aria-labelledby={titleId}>
      <div className="webhook-head">
        <Heading id={titleId} className="webhook-url">
          {w.Url}
        </Heading>
        <span className={`pill ${state === 'enabled' ? 'pill-ready' : state === 'failing' ? 'pill-error' : ''}`}>
          {state === 'enabled' ? m.webhooks_state_enabled() : state === 'failing' ? m.webhooks_state_failing() : m.webhooks_state_disabled()}
        </span>
      </div>
      {w.Description && <p className="webhook-description">{w.Description}</p>}
      {state === 'failing' && (
        <div className="alert alert-danger webhook-failing" role="status">
          <p>
            <strong>{m.webhooks_failing_title()}</strong>
          </p>
          <p>
            {m.webhooks_failing_text({
              since: formatDateTime(w.FailingSinceUtc ?? w.DisabledAtUtc ?? w.ModifiedAtUtc),
              when: formatDateTime(w.DisabledAtUtc ?? w.ModifiedAtUtc),
            })}{' '}
            {w.LastResponseStatus === null ? m.webhooks_failing_no_answer() : m.webhooks_failing_last_answer({ status: String(w.LastResponseStatus) })}
          </p>
          {writable && (
            <button type="button" className="button primary" disabled={busy} onClick={() => void enable()}>
              {m.webhooks_enable_again()}
            </button>
          )}
        </div>
      )}
      {state === 'disabled' && w.DisabledAtUtc && <p className="muted">{m.webhooks_disabled_at({ when: formatDateTime(w.DisabledAtUtc) })}</p>}
      <dl className="webhook-facts">
        <div>
          <dt>{m.webhooks_events()}</dt>
          <dd>
            <EventSummary types={w.EventTypes} />
          </dd>
        </div>
        <div>
          <dt>{m.webhooks_last_delivery()}</dt>
          <dd>
            {w.LastDeliveryAtUtc ? m.webhooks_last_delivery_value({ time: formatDateTime(w.LastDeliveryAtUtc), answer: answerLabel(w.LastResponseStatus) }) : m.webhooks_no_deliveries()}
            {w.FailingSinceUtc && state !== 'failing' && <span className="webhook-warning">{m.webhooks_failing_since({ since: formatDateTime(w.FailingSinceUtc) })}</span>}
          </dd>
        </div>
      </dl>
      <div className="form-actions webhook-actions">
        {onOpen && (
          <button type="button" className="button" onClick={onOpen} aria-describedby={titleId}>
            {m.webhooks_deliveries()}
          </button>
        )}
        {writable && (
          <>
            <button type="button" className="button" disabled={busy} onClick={() => void test()} aria-describedby={titleId}>
              {m.webhooks_test()}
            </button>
            <button type="button" className="button" onClick={() => setDialog('edit')} aria-describedby={titleId}>
              {m.webhooks_edit()}
            </button>
            <button type="button" className="button" onClick={() => setDialog('rotate')} aria-describedby={titleId}>
              {m.webhooks_rotate()}
            </button>
            <button type="button" className="button danger-outline" onClick={() => setDialog('delete')} aria-describedby={titleId}>
              {m.webhooks_delete()}
            </button>
          </>
        )}
      </div>
      {error && (
        <p className="alert alert-danger" role="alert">
          {error}
        </p>
      )}
      {dialog === 'edit' && <WebhookDialog webhook={w} levels={[{ networkId: w.NetworkId, name: levelName, write: true }]} onClose={() => setDialog(null)} onSaved={onChanged} />}
      {dialog === 'rotate' && <RotateSecretDialog webhookId={w.Id} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={dialog === 'delete'}
        onClose={() => setDialog(null)}
        danger
        prompt
        title={m.webhooks_delete_title()}
        description={m.webhooks_delete_description({ url: w.Url })}
        actionLabel={m.webhooks_delete()}
        successToast={m.webhooks_deleted()}
        failureDescription={m.webhooks_delete_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.webhooks_delete_failed())}
        onConfirm={async () => {
          const res = await call(routes.deleteWebhook, { params: { webhookId: w.Id } });
          if (res.kind !== 'ok') throw new Error(refusalText(res, m.webhooks_delete_failed()));
        }}
        onDone={onDeleted ?? onChanged}
      />
    </Tag>
  );
}

/** The webhook's event types in a line: whole kinds as "Clips: all events", the rest by name. */
export function EventSummary({ types }: { types: readonly string[] }) {
  const parts: ReactNode[] = summarizeEventTypes(types).map((part) =>
    part.kind === 'all' ? (
      <span key={part.entity} className="webhook-event-all">
        {m.webhooks_events_all_of({ group: entityLabel(part.entity) })}
      </span>
    ) : (
      part.types.map((t) => (
        <code key={t} className="webhook-event">
          {t}
        </code>
      ))
    ),
  );
  return <span className="webhook-events">{parts}</span>;
}
