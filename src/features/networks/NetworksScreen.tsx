// /{organizationId}/networks — the organization's networks (a network groups programs), each with
// its programs. A user with HasManageOrganizationSettingsAccess (section 6) creates, renames and
// deletes them (network.create / update / delete, saved on the device first, offline too); others
// see the list only. A change the server refused after it synced is shown at the network it was
// made on, with its reasons; Edit again puts the refused name back in the dialog with them.
// `people`: what src/app shows under each network for its user managers (the users feature's).
import { useId, useState, type ReactNode } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { formatFormError } from '../../domain/messages.ts';
import { mayManageNetworks } from '../../domain/structure-access.ts';
import { validateName } from '../../domain/validators.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { m } from '../../paraglide/messages.js';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { dismissNeedsAttention, retryNeedsAttention } from '../../db/conflicts.ts';
import { createNetwork, deleteNetwork, updateNetwork } from '../../db/writes.ts';
import { useNetworks, usePrograms } from '../../lib/rows.ts';
import { useIdParams } from '../../lib/params.ts';
import { Link } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { attentionReason, refusedFieldText } from '../../lib/sync-labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { localWriteFailureText, reportLocalWriteFailure, savedLocally } from '../../lib/local-write.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Dialog, useDialogVeto } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { RefusedErrorList } from '../../ui/RefusedErrorList.tsx';
import type { Network } from '../../protocol/entities.ts';

/** The name dialog: a new network (no id) or a rename; `error` a refused name's reason. */
type NameDialog = { networkId: string | null; name: string; error?: string };

export function NetworksScreen({ people }: { people?: (network: Network) => ReactNode } = {}) {
  const { organizationId } = useIdParams('organizationId');
  const networks = useNetworks(organizationId);
  const programs = usePrograms(organizationId) ?? [];
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  const manage = mayManageNetworks(entries);
  const [dialog, setDialog] = useState<NameDialog | null>(null);
  const [deleting, setDeleting] = useState<Network | null>(null);
  const refused = useLiveQuery(async () => (await db.needsAttention.toArray()).filter((a) => a.entity === 'networks').sort((a, b) => a.createdAt - b.createdAt), []) ?? [];
  const editAgain = (item: NeedsAttentionEntry) => {
    const fields = (item.mutation.args['fields'] ?? {}) as { Name?: string | null };
    const networkId = item.mutation.name === 'network.create' ? null : item.entityId;
    const error = item.errors.find((fe) => fe.Field === 'Name');
    setDialog({ networkId, name: fields.Name ?? '', ...(error ? { error: refusedFieldText(error, 'networks') } : {}) });
    void savedLocally(dismissNeedsAttention(item.id));
  };
  return (
    <>
      <PageHeader
        title={m.structure_networks_title()}
        link={<Link href={`/${organizationId}/programs`}>{m.structure_back_to_programs()}</Link>}
        actions={
          manage && (
            <button type="button" className="button primary" onClick={() => setDialog({ networkId: null, name: '' })}>
              {m.structure_new_network()}
            </button>
          )
        }
      />
      {refused.map((item) => (
        <div key={item.id} role="alert" className="alert alert-danger">
          <p>
            <strong>{m.structure_save_failed()}</strong> {attentionReason(item.httpStatus)}
          </p>
          <RefusedErrorList item={item} />
          <div className="form-actions">
            <button type="button" className="button" onClick={() => void savedLocally(dismissNeedsAttention(item.id))}>{m.structure_discard()}</button>
            <button type="button" className="button" onClick={() => void savedLocally(retryNeedsAttention(item.id))}>{m.app_attention_retry()}</button>
            {item.mutation.name !== 'network.delete' && (
              <button type="button" className="button primary" onClick={() => editAgain(item)}>{m.structure_edit_again()}</button>
            )}
          </div>
        </div>
      ))}
      {networks === undefined ? (
        <p className="muted">{m.app_loading()}</p>
      ) : networks.length === 0 ? (
        <p className="empty">{m.structure_networks_empty()}</p>
      ) : (
        <ul className="card-list network-list">
          {networks.map((n) => {
            const own = programs.filter((p) => p.NetworkId === n.Id);
            return (
              <li key={n.Id} className="card network-card">
                <div className="network-head">
                  <span className="avatar" aria-hidden="true">{n.Name.slice(0, 1).toUpperCase()}</span>
                  <h2 className="card-title">{n.Name}</h2>
                  <span className="muted">{m.structure_network_programs({ count: own.length })}</span>
                  {manage && (
                    <span className="network-actions">
                      <button type="button" className="button" aria-label={`${m.structure_network_rename()}: ${n.Name}`} onClick={() => setDialog({ networkId: n.Id, name: n.Name })}>
                        {m.structure_network_rename()}
                      </button>
                      <button type="button" className="button danger-outline" aria-label={`${m.structure_network_delete()}: ${n.Name}`} onClick={() => setDeleting(n)}>
                        {m.structure_network_delete()}
                      </button>
                    </span>
                  )}
                </div>
                {own.length > 0 && (
                  <ul className="network-programs">
                    {own.map((p) => (
                      <li key={p.Id}>
                        <Link href={`/${organizationId}/programs/${p.Id}`}>{p.Name}</Link>
                      </li>
                    ))}
                  </ul>
                )}
                {people?.(n)}
              </li>
            );
          })}
        </ul>
      )}
      {dialog && <NetworkNameDialog start={dialog} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        danger
        prompt
        title={m.structure_network_delete_title()}
        description={m.structure_network_delete_text({ name: deleting?.Name ?? '' })}
        actionLabel={m.app_dialog_delete()}
        onConfirm={() => (deleting ? deleteNetwork(deleting.Id) : undefined)}
        successToast={m.structure_network_deleted()}
        failureDescription={m.structure_network_delete_failed()}
        failureReason={localWriteFailureText}
      />
    </>
  );
}

function NetworkNameDialog({ start, onClose }: { start: NameDialog; onClose: () => void }) {
  const formId = useId();
  const [name, setName] = useState(start.name);
  const [error, setError] = useState<FormError | string | null>(start.error ?? null);
  const [busy, setBusy] = useState(false);
  useDialogVeto(name !== start.name && !busy);
  const submit = async () => {
    const rule = validateName(name);
    setError(rule);
    if (rule || busy) return;
    setBusy(true);
    const fields = { Name: name.trim() };
    const work: Promise<unknown> = start.networkId === null ? createNetwork(fields) : updateNetwork(start.networkId, fields);
    await withLoading(work).then(
      () => {
        showSavedToast(m.structure_saved());
        onClose();
      },
      (failure: unknown) => {
        setBusy(false);
        reportLocalWriteFailure(failure, start.networkId === null ? m.structure_network_create_failed() : m.structure_save_failed());
      },
    );
  };
  return (
    <Dialog
      open
      onClose={onClose}
      width="compactNarrow"
      title={start.networkId === null ? m.structure_new_network() : m.structure_network_rename_title()}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>{m.app_dialog_cancel()}</button>
          <button type="submit" form={formId} className="button primary">{start.networkId === null ? m.structure_create() : m.structure_save()}</button>
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
        <Field label={m.structure_field_name()} error={error === null ? null : typeof error === 'string' ? error : formatFormError(error)}>
          <input value={name} onChange={(e) => setName(e.target.value)} autoFocus autoComplete="off" />
        </Field>
      </form>
    </Dialog>
  );
}
