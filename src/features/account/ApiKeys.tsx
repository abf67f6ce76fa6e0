// The account's API keys (section 7, /internal/api-keys; the rules: sync-server/api/api-keys.ts):
// the user's own keys in the organization they act in, with when each was made and last used; a
// new key made with a name, its secret shown here once with Copy (the server never answers it
// again); a key revoked after DELETE is typed. Keys live on the server only, so offline the section
// says that they need the network, and lists them again when the network is back.
//
//   loading ──ok──> listed ──create──> listed + the new secret (until "I have copied it")
//      │                   └─revoke (DELETE typed)──> listed again
//      └─fails──> failed (offline: says so) ──online / Try again──> loading
import { useCallback, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { formatFormError } from '../../domain/messages.ts';
import { apiKeyCreateFormErrors, createApiKey, listApiKeys, revokeApiKey, type ApiKey, type ApiKeyWithSecret } from '../../protocol/api/api-keys.ts';
import { call } from '../../lib/api.ts';
import { useEditState } from '../../lib/form.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { SecretOnce } from '../../ui/SecretOnce.tsx';
import { LoadFailed, refusalText, SettingsForm } from './settings-form.tsx';
import { useLoadWhenOnline } from '../../lib/load-when-online.ts';
import './api-keys.css';

type Listing = { kind: 'loading' } | { kind: 'listed'; keys: ApiKey[] } | { kind: 'failed'; offline: boolean };

const NO_NAME = { Name: '' };

export function ApiKeysSection() {
  const [listing, setListing] = useState<Listing>({ kind: 'loading' });
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const form = useEditState(NO_NAME);
  const [errors, setErrors] = useState<{ Name?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  useUnsavedGuard('form', form.dirty);

  const load = useCallback(async () => {
    const res = await call(listApiKeys);
    setListing(res.kind === 'ok' ? { kind: 'listed', keys: res.data } : { kind: 'failed', offline: res.kind === 'error' && !navigator.onLine });
  }, []);
  useLoadWhenOnline(load);

  const create = async () => {
    const found = apiKeyCreateFormErrors({ Name: form.values.Name });
    setErrors(found.Name ? { Name: formatFormError(found.Name) } : {});
    if (found.Name) return;
    setBusy(true);
    const res = await withLoading(call(createApiKey, { json: { Name: form.values.Name.trim() } }));
    setBusy(false);
    if (res.kind === 'ok') {
      form.reset();
      setCreated(res.data);
      setListing((l) => (l.kind === 'listed' ? { kind: 'listed', keys: [res.data, ...l.keys] } : l));
      void load();
      return;
    }
    setErrors(refusalText(res, ['Name'] as const, m.account_api_keys_create_failed()));
  };

  return (
    <SettingsForm title={m.account_api_keys_title()} error={errors.form} busy={busy} disabled={!form.dirty} submitLabel={m.account_api_keys_create()} onSubmit={create}>
      <p>{m.account_api_keys_intro()}</p>
      {created && <NewKey secret={created.Key} onDone={() => setCreated(null)} />}
      {listing.kind === 'listed' &&
        (listing.keys.length === 0 ? (
          <p className="muted">{m.account_api_keys_none()}</p>
        ) : (
          <ul className="api-keys" aria-label={m.account_api_keys_title()}>
            {listing.keys.map((k) => (
              <KeyItem key={k.Id} apiKey={k} onRevoke={() => setRevoking(k)} />
            ))}
          </ul>
        ))}
      {listing.kind === 'failed' && <LoadFailed text={listing.offline ? m.account_api_keys_offline() : m.account_api_keys_load_failed()} onRetry={() => void load()} />}
      <Field label={m.account_api_keys_name()} hint={m.account_api_keys_name_hint()} error={errors.Name}>
        <input autoComplete="off" value={form.values.Name} onChange={(e) => form.set('Name', e.target.value)} />
      </Field>
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        danger
        prompt
        title={m.account_api_keys_revoke_title()}
        description={m.account_api_keys_revoke_description({ name: revoking?.Name ?? '' })}
        actionLabel={m.account_api_keys_revoke()}
        successToast={m.account_api_keys_revoked()}
        failureDescription={m.account_api_keys_revoke_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.account_api_keys_revoke_failed())}
        onConfirm={async () => {
          if (!revoking) return;
          const res = await call(revokeApiKey, { params: { apiKeyId: revoking.Id } });
          // Not found: already revoked (in another tab), which is what was asked.
          if (res.kind !== 'ok' && res.kind !== 'notFound') throw new Error(refusalText(res, [], m.account_api_keys_revoke_failed()).form);
        }}
        onDone={() => void load()}
      />
    </SettingsForm>
  );
}

function KeyItem({ apiKey: k, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  const nameId = `api-key-${k.Id}`;
  return (
    <li className="api-key">
      <div>
        <strong id={nameId}>{k.Name}</strong>
        <p className="muted">
          {m.account_api_keys_created({ when: formatDateTime(k.CreatedAtUtc) })} · {k.LastUsedAtUtc ? m.account_api_keys_last_used({ when: formatDateTime(k.LastUsedAtUtc) }) : m.account_api_keys_never_used()}
        </p>
      </div>
      <button type="button" className="button danger-outline" onClick={onRevoke} aria-describedby={nameId}>
        {m.account_api_keys_revoke()}
      </button>
    </li>
  );
}

/** The new key's secret, shown this once: the server keeps only its hash. */
function NewKey({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div className="api-key-new">
      <SecretOnce
        secret={secret}
        words={{ once: m.account_api_keys_secret_once(), label: m.account_api_keys_secret_label(), copy: m.account_api_keys_copy(), copied: m.account_api_keys_copied(), copyFailed: m.account_api_keys_copy_failed() }}
      />
      <div className="form-actions">
        <button type="button" className="button" onClick={onDone}>
          {m.account_api_keys_done()}
        </button>
      </div>
    </div>
  );
}
