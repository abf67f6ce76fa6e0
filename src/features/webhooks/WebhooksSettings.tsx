// The Webhooks section of Organization settings (issue 33): the organization's webhooks and each
// network's, a form to add or change one (its secret shown once), rotate its secret, delete it,
// send it a test event, and its delivery log (src/features/webhooks/DeliveryLog.tsx).
//
// Webhooks are server-held (their secrets sign every delivery), not synced rows: everything here
// is a call to the server (src/protocol/api/webhooks.ts), so it works online only. The last list
// loaded is kept in memory for this tab: offline the section shows it, read-only, with its time;
// with none, it says webhooks need the network. Every refusal is said where the user acted: at
// the form's field (a 400 names it), on the webhook's card, or in the dialog's toast.
//
//   list ──Deliveries──► log of one webhook (?webhook=<id>[&network=<id>]) ──All webhooks──► list
import { useCallback, useEffect, useMemo, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { useOnline } from '../../lib/connectivity.ts';
import { docsLink } from '../../lib/links.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { useIdParams } from '../../lib/params.ts';
import { navigate, useSearch } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { useNetworks } from '../../lib/rows.ts';
import { webhookAccess, type Access } from './access.ts';
import { listAll, networksOnServer, type LevelWebhooks } from './calls.ts';
import { deliveryViewSearch, readDeliveryView, type DeliveryView } from './delivery-filter.ts';
import { EVENT_STATUSES } from './labels.ts';
import { WebhookCard } from './WebhookCard.tsx';
import { WebhookDialog } from './WebhookDialog.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';
import './webhooks.css';

/** The last list each organization's section loaded in this tab, for offline. */
const lastLoaded = new Map<string, { at: number; levels: LevelWebhooks[] }>();

type ListState = { kind: 'loading' } | { kind: 'failed'; offline: boolean } | { kind: 'ready'; at: number; levels: LevelWebhooks[] };

export function WebhooksSettings() {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const search = new URLSearchParams(useSearch());
  const online = useOnline();
  const networks = useNetworkList(organizationId, online);
  const entries = useMemo(() => (session ? (organizationById(session, organizationId)?.UserPermissions ?? []) : []), [session, organizationId]);
  const access = useMemo(() => webhookAccess(entries, networks ?? []), [entries, networks]);
  const view = readDeliveryView(search, EVENT_STATUSES);
  const open = (next: DeliveryView | null) => navigate(`/${organizationId}/settings${deliveryViewSearch(search, next)}`);

  return (
    <section className="webhooks" aria-labelledby="webhooks-title">
      <div className="card-heading">
        <h2 id="webhooks-title">{m.webhooks_title()}</h2>
        <a href={docsLink('webhooks')} target="_blank" rel="noreferrer">
          {m.webhooks_docs()}
        </a>
      </div>
      <p className="muted">{m.webhooks_intro()}</p>
      {view ? (
        <DeliveryLog key={view.webhookId} organizationId={organizationId} view={view} access={access} online={online} onView={open} />
      ) : (
        <WebhookList organizationId={organizationId} access={access} online={online} networksKnown={networks !== undefined} onOpen={(w) => open({ webhookId: w.Id, eventType: null, status: null, page: 1 })} />
      )}
    </section>
  );
}

type NetworkRef = { Id: string; Name: string };

/** The networks webhooks may belong to: the server's list while online (this device may not have
 * downloaded the organization yet), else the device's own; undefined until known. */
function useNetworkList(organizationId: string, online: boolean): NetworkRef[] | undefined {
  const local = useNetworks(organizationId);
  const [remote, setRemote] = useState<{ organizationId: string; items: NetworkRef[] | null } | null>(null);
  useEffect(() => {
    if (!online) return;
    let stale = false;
    void networksOnServer().then((items) => {
      if (!stale) setRemote({ organizationId, items });
    });
    return () => {
      stale = true;
    };
  }, [organizationId, online]);
  const fromServer = remote?.organizationId === organizationId ? remote.items : undefined;
  // Online, the server's answer is waited for; one that failed falls back to the device's rows.
  if (online && fromServer === undefined) return undefined;
  return fromServer ?? local;
}

function WebhookList({ organizationId, access, online, networksKnown, onOpen }: { organizationId: string; access: Access; online: boolean; networksKnown: boolean; onOpen: (w: { Id: string }) => void }) {
  const kept = lastLoaded.get(organizationId);
  const [list, setList] = useState<ListState>(kept ? { kind: 'ready', ...kept } : { kind: 'loading' });
  const [reload, setReload] = useState(0);
  const [adding, setAdding] = useState(false);
  const refresh = useCallback(() => setReload((n) => n + 1), []);
  const networkKey = access.levels.map((l) => l.networkId ?? '').join(',');

  useEffect(() => {
    if (!online || !networksKnown) return;
    let stale = false;
    void listAll(access.levels).then((res) => {
      if (stale) return;
      if (res.kind === 'ok') {
        const loaded = { at: Date.now(), levels: res.levels };
        lastLoaded.set(organizationId, loaded);
        setList({ kind: 'ready', ...loaded });
      } else {
        setList((current) => (current.kind === 'ready' ? current : { kind: 'failed', offline: res.offline }));
      }
    });
    return () => {
      stale = true;
    };
    // access.levels is read through networkKey: a new array of the same levels is no new list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [organizationId, online, networksKnown, networkKey, reload]);

  const writable = access.levels.filter((l) => l.write);
  const all = list.kind === 'ready' ? list.levels.flatMap((l) => l.webhooks) : [];
  const shown = list.kind === 'ready' ? list.levels.filter((l) => l.webhooks.length > 0) : [];

  return (
    <>
      {!online && list.kind === 'ready' && (
        <p className="alert alert-info" role="status">
          {m.webhooks_offline_cached({ time: formatDateTime(list.at) })}
        </p>
      )}
      {!online && list.kind !== 'ready' && (
        <p className="alert alert-info" role="status">
          {m.webhooks_offline()}
        </p>
      )}
      {online && writable.length > 0 && (
        <div className="form-actions webhooks-actions">
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            {m.webhooks_add()}
          </button>
        </div>
      )}
      {online && writable.length === 0 && <p className="muted">{m.webhooks_read_only()}</p>}
      {online && list.kind === 'loading' && <p className="muted">{m.webhooks_loading()}</p>}
      {online && list.kind === 'failed' && (
        <div className="alert alert-danger" role="alert">
          <p>{list.offline ? m.webhooks_offline() : m.webhooks_load_failed()}</p>
          <button type="button" className="button" onClick={refresh}>
            {m.webhooks_retry()}
          </button>
        </div>
      )}
      {list.kind === 'ready' && all.length === 0 && <p className="empty">{m.webhooks_none()}</p>}
      {shown.map((level) => (
        <section key={level.level.networkId ?? 'organization'} className="webhook-level" aria-labelledby={`webhook-level-${level.level.networkId ?? 'organization'}`}>
          <h3 id={`webhook-level-${level.level.networkId ?? 'organization'}`}>{level.level.networkId ? m.webhooks_group_network({ name: level.level.name }) : m.webhooks_group_organization()}</h3>
          <ul className="webhook-list">
            {level.webhooks.map((w) => (
              <WebhookCard key={w.Id} webhook={w} levelName={level.level.name} writable={online && level.level.write} onChanged={refresh} {...(online ? { onOpen: () => onOpen(w) } : {})} />
            ))}
          </ul>
        </section>
      ))}
      {adding && (
        <WebhookDialog
          levels={writable}
          onClose={() => setAdding(false)}
          onSaved={() => {
            refresh();
          }}
        />
      )}
    </>
  );
}
