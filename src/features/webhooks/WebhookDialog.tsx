// Add or change a webhook: its level (when adding: the organization or one of the networks the
// user manages), address, description, event types (grouped by kind, each kind with a box that
// chooses all of it) and whether it is on. Checked here by the domain's rules first, then by the
// server, whose 400 is shown at the fields it names. A new webhook's secret is shown once, after.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { formatFormError } from '../../domain/messages.ts';
import { validateWebhookDescription, validateWebhookEventTypes, validateWebhookUrl, WEBHOOK_DESCRIPTION_MAX_LENGTH } from '../../domain/webhooks.ts';
import * as routes from '../../protocol/api/webhooks.ts';
import type { Webhook, WebhookCreate, WebhookPatch } from '../../protocol/api/webhooks.ts';
import { call } from '../../lib/api.ts';
import { withLoading } from '../../lib/loading.ts';
import { showToast } from '../../lib/toast.ts';
import { Dialog, useDialogVeto } from '../../ui/Dialog.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import type { Level } from './access.ts';
import { createAt } from './calls.ts';
import { errorsOfRefusal, type WebhookErrors } from './form-errors.ts';
import { groupEventTypes, groupSelection, toggleGroup, toggleType, type EventGroup } from './event-types.ts';
import { changeLabel, entityLabel } from './labels.ts';
import { DoneButton, SecretContent } from './SecretDialog.tsx';

type Values = { networkId: string | null; Url: string; Description: string; EventTypes: string[]; Enabled: boolean };

/** The domain's checks of the form (the server runs the same, and more: its loopback setting). */
function checked(v: Values): WebhookErrors {
  const out: WebhookErrors = {};
  const url = validateWebhookUrl(v.Url.trim(), { allowLoopback: true });
  if (url) out.Url = formatFormError(url);
  const description = validateWebhookDescription(v.Description);
  if (description) out.Description = formatFormError(description);
  const types = validateWebhookEventTypes(v.EventTypes);
  if (types) out.EventTypes = types.type === 'required' ? m.webhooks_events_required() : formatFormError(types);
  return out;
}

export function WebhookDialog({ webhook, levels, onClose, onSaved }: { webhook?: Webhook; levels: readonly Level[]; onClose: () => void; onSaved: () => void }) {
  const initial: Values = {
    networkId: webhook ? webhook.NetworkId : (levels[0]?.networkId ?? null),
    Url: webhook?.Url ?? '',
    Description: webhook?.Description ?? '',
    EventTypes: webhook ? [...webhook.EventTypes] : [],
    Enabled: webhook?.Enabled ?? true,
  };
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<WebhookErrors>({});
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  /** Bumped by each refused submit: the first invalid field takes the focus once it is rendered
   * (enabled again and marked), not before. */
  const [refusals, setRefusals] = useState(0);
  const formId = useId();
  const form = useRef<HTMLFormElement>(null);
  const dirty = JSON.stringify(values) !== JSON.stringify(initial);
  useDialogVeto(dirty && !busy && secret === null);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    let found = checked(values);
    if (Object.keys(found).length === 0) {
      setBusy(true);
      const description = values.Description.trim() === '' ? null : values.Description;
      if (webhook) {
        const json: WebhookPatch = { Url: values.Url.trim(), Description: description, EventTypes: values.EventTypes as WebhookPatch['EventTypes'], Enabled: values.Enabled };
        const res = await withLoading(call(routes.updateWebhook, { params: { webhookId: webhook.Id }, json }));
        setBusy(false);
        if (res.kind === 'ok') {
          showToast({ type: 'success', title: m.webhooks_saved() });
          onSaved();
          onClose();
          return;
        }
        found = errorsOfRefusal(res, m.webhooks_save_failed());
      } else {
        const json: WebhookCreate = { Url: values.Url.trim(), Description: description, EventTypes: values.EventTypes as WebhookCreate['EventTypes'], Enabled: values.Enabled };
        const res = await withLoading(createAt(values.networkId, json));
        setBusy(false);
        if (res.kind === 'ok') {
          onSaved();
          setSecret(res.data.Secret);
          return;
        }
        found = errorsOfRefusal(res, m.webhooks_create_failed());
      }
    }
    setErrors(found);
    setRefusals((n) => n + 1);
  };
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]:not(fieldset), .webhook-event-groups.has-error input')?.focus();
  }, [refusals]);

  if (secret !== null) {
    return (
      <Dialog open onClose={onClose} role="alertdialog" width="narrow" title={m.webhooks_secret_created_title()} description={m.webhooks_secret_text()} footer={<DoneButton onClose={onClose} />}>
        <SecretContent secret={secret} />
      </Dialog>
    );
  }
  const level = levels.find((l) => l.networkId === values.networkId);
  const levelName = (l: Level | undefined) => (l && l.networkId !== null ? m.webhooks_level_network({ name: l.name }) : m.webhooks_level_organization());
  return (
    <Dialog
      open
      onClose={onClose}
      width="narrow"
      closable={!busy}
      title={webhook ? m.webhooks_edit_title() : m.webhooks_add_title()}
      footer={
        <>
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {m.webhooks_cancel()}
          </button>
          <button type="submit" form={formId} className="button primary" disabled={busy} aria-busy={busy}>
            {webhook ? m.webhooks_save() : m.webhooks_create()}
          </button>
        </>
      }
    >
      <form id={formId} ref={form} className="webhook-form" noValidate onSubmit={(e) => void submit(e)}>
        {webhook || levels.length <= 1 ? (
          <p className="webhook-level-fixed">
            <span className="field-label">{m.webhooks_field_level()}</span> {levelName(webhook ? { networkId: webhook.NetworkId, name: levels[0]?.name ?? '', write: true } : level)}
          </p>
        ) : (
          <Field label={m.webhooks_field_level()} hint={m.webhooks_field_level_hint()} error={errors.Level}>
            <select value={values.networkId ?? ''} disabled={busy} onChange={(e) => set('networkId', e.target.value === '' ? null : e.target.value)}>
              {levels.map((l) => (
                <option key={l.networkId ?? ''} value={l.networkId ?? ''}>
                  {levelName(l)}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label={m.webhooks_field_url()} hint={m.webhooks_field_url_hint()} error={errors.Url}>
          <input type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://example.com/webhooks" value={values.Url} disabled={busy} onChange={(e) => set('Url', e.target.value)} autoFocus={!webhook} />
        </Field>
        <Field label={m.webhooks_field_description()} error={errors.Description}>
          <textarea rows={2} maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH} value={values.Description} disabled={busy} onChange={(e) => set('Description', e.target.value)} />
        </Field>
        <EventTypesField chosen={values.EventTypes} disabled={busy} error={errors.EventTypes} onChange={(types) => set('EventTypes', types)} />
        <CheckboxField label={m.webhooks_field_enabled()} checked={values.Enabled} onChange={(on) => set('Enabled', on)} />
        {errors.form && (
          <p className="alert alert-danger" role="alert">
            {errors.form}
          </p>
        )}
      </form>
    </Dialog>
  );
}

function EventTypesField({ chosen, disabled, error, onChange }: { chosen: string[]; disabled: boolean; error: string | undefined; onChange: (types: string[]) => void }) {
  const errorId = useId();
  const set = new Set(chosen);
  return (
    <fieldset className={`webhook-event-groups${error ? ' has-error' : ''}`} aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="field-label">{m.webhooks_field_events()}</legend>
      <div className="webhook-event-grid">
        {groupEventTypes().map((group) => (
          <EventGroupField key={group.entity ?? 'other'} group={group} chosen={chosen} set={set} disabled={disabled} onChange={onChange} />
        ))}
      </div>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function EventGroupField({ group, chosen, set, disabled, onChange }: { group: EventGroup; chosen: string[]; set: ReadonlySet<string>; disabled: boolean; onChange: (types: string[]) => void }) {
  const selection = groupSelection(group, set);
  const label = entityLabel(group.entity);
  return (
    <fieldset className="webhook-event-group">
      <legend className="visually-hidden">{label}</legend>
      <label className="choice webhook-select-all">
        <input
          type="checkbox"
          checked={selection === 'all'}
          disabled={disabled}
          ref={(el) => {
            if (el) el.indeterminate = selection === 'some';
          }}
          aria-checked={selection === 'some' ? 'mixed' : selection === 'all'}
          onChange={() => onChange(toggleGroup(group, chosen))}
        />
        <span>{m.webhooks_events_all_of({ group: label })}</span>
      </label>
      {group.types.map((type) => (
        <label key={type} className="choice webhook-event-choice">
          <input type="checkbox" checked={set.has(type)} disabled={disabled} onChange={(e) => onChange(toggleType(type, e.target.checked, chosen))} />
          <span>
            <span>{changeLabel(type)}</span>
            <code>{type}</code>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
