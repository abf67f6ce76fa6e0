// Organization settings, Measurement tab: the organization's measurement URL prefixes (OP3, Podtrac,
// Chartable and the like), put in front of every enclosure of its public feeds. The rule of a
// prefix, and how the enclosure is appended, are src/domain/measurement.ts: each field says what is
// wrong as it is typed, and the preview shows what an episode's address becomes. Kept on the
// organization's row and saved on the device through organization.setMeasurementPrefixes, offline
// too: the tab says when the change waits to be sent, shows the server's refusal at the prefix it
// names, and points to the sync page when it crossed a change made elsewhere. Changing them needs
// manage-organization-settings access (section 6); audit access reads them.
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { organizationFlags } from '../../domain/access.ts';
import { formatFormError } from '../../domain/messages.ts';
import { settingsAccess } from '../../domain/settings.ts';
import {
  exampleEnclosureUrl,
  MEASUREMENT_PREFIXES_MAX,
  measuredUrl,
  measurementPrefixesOf,
  validateMeasurementPrefix,
  validateMeasurementPrefixList,
} from '../../domain/measurement.ts';
import { organizationSetMeasurementPrefixes } from '../../mutations/settings.ts';
import { setOrganizationMeasurementPrefixes } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { useIdParams } from '../../lib/params.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { useRow } from '../../lib/rows.ts';
import { useQueuedSetting, type QueuedSetting } from '../../lib/normalization.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { Field } from '../../ui/Field.tsx';
import './measurement.css';
import { QueuedSettingNote } from '../../ui/QueuedSettingNote.tsx';

export function MeasurementSettings() {
  const { organizationId } = useIdParams('organizationId');
  const row = useRow('organizations', organizationId);
  const queued = useQueuedSetting('organizations', organizationId, organizationSetMeasurementPrefixes.name);
  if (row.state !== 'ok') return <p className="muted">{m.settings_normalization_not_here()}</p>;
  const current = measurementPrefixesOf(row.row);
  // A change the server refused comes back into the fields, its reasons at the prefixes they name.
  const refused = queued.refused.at(-1);
  const sent = refused ? measurementPrefixesOf(refused.mutation.args) : null;
  // Keyed by the saved value and the last refusal: a change arriving from elsewhere starts the form afresh.
  return <MeasurementForm key={`${current.join(' ')}|${refused?.id ?? ''}`} organizationId={organizationId} current={current} sent={sent} queued={queued} />;
}

/** The prefixes as typed: blank fields are not prefixes (a new field, or one emptied). */
const typed = (values: readonly string[]) => values.map((v) => v.trim()).filter((v) => v !== '');

function MeasurementForm(props: { organizationId: string; current: readonly string[]; sent: readonly string[] | null; queued: QueuedSetting }) {
  const { organizationId, current, sent, queued } = props;
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  const mayChange = settingsAccess('Organization', organizationFlags(entries)).write;
  const start = sent ?? current;
  const [values, setValues] = useState<string[]>(start.length > 0 ? [...start] : ['']);

  const prefixes = typed(values);
  const errors = values.map((v) => (v.trim() === '' ? null : validateMeasurementPrefix(v.trim())));
  const listError = validateMeasurementPrefixList(prefixes);
  const valid = errors.every((e) => e === null) && listError === null;
  const changed = prefixes.join(' ') !== current.join(' ');
  // The server's refusal of this device's last change, at the prefix it names (while it reads as sent),
  // else (no field: access taken away meanwhile) above the fields.
  const refusedAt = new Map<string, string>();
  for (const e of queued.refused.at(-1)?.errors ?? []) refusedAt.set(e.Field, refusedFieldText(e, 'organizations'));
  const refusedWhole = queued.refusal !== undefined && ![...refusedAt.keys()].some((f) => f.startsWith('MeasurementPrefixes')) ? queued.refusal : undefined;
  const example = exampleEnclosureUrl(window.location.origin);

  const set = (i: number, value: string) => setValues(values.map((v, j) => (j === i ? value : v)));
  const remove = (i: number) => setValues(values.length === 1 ? [''] : values.filter((_, j) => j !== i));

  const save = async () => {
    if (!valid) return;
    if (!(await withLoading(savedLocally(setOrganizationMeasurementPrefixes(organizationId, prefixes))))) return;
    // A refused change is answered by this one.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    showSavedToast(m.settings_measurement_saved());
  };

  return (
    <form
      className="card form measurement"
      aria-labelledby="measurement-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="measurement-title">{m.settings_measurement_title()}</h2>
      <p className="muted">{m.settings_measurement_intro()}</p>
      {!mayChange && <p className="alert alert-info">{m.settings_measurement_read_only()}</p>}
      {refusedWhole && <p className="alert alert-danger">{m.settings_measurement_refused({ reason: refusedWhole })}</p>}
      <div className="measurement-prefixes">
        {values.map((value, i) => {
          const error = errors[i];
          const asSent = sent !== null && value.trim() === sent[i];
          const message = error ? formatFormError(error) : asSent ? refusedAt.get(`MeasurementPrefixes.${i}`) : undefined;
          const label = values.length === 1 ? m.settings_measurement_field() : m.settings_measurement_field_n({ n: i + 1 });
          return (
            <div className="measurement-prefix" key={i}>
              <Field label={label} error={message} {...(i === 0 ? { hint: m.settings_measurement_hint() } : {})}>
                <input
                  type="url"
                  inputMode="url"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="https://op3.dev/e/"
                  value={value}
                  disabled={!mayChange}
                  onChange={(e) => set(i, e.target.value)}
                />
              </Field>
              {mayChange && (value !== '' || values.length > 1) && (
                <button type="button" className="button danger-outline" aria-label={`${m.settings_measurement_remove()}: ${label}`} onClick={() => remove(i)}>
                  {m.settings_measurement_remove()}
                </button>
              )}
            </div>
          );
        })}
      </div>
      {(listError ?? refusedAt.get('MeasurementPrefixes')) && (
        <p className="field-error" role="alert">
          {listError ? formatFormError(listError) : refusedAt.get('MeasurementPrefixes')}
        </p>
      )}
      {mayChange && values.length < MEASUREMENT_PREFIXES_MAX && (
        <p>
          <button type="button" className="button small" onClick={() => setValues([...values, ''])}>
            {m.settings_measurement_add()}
          </button>
        </p>
      )}
      <div className="measurement-preview" aria-live="polite">
        <h3>{m.settings_measurement_preview_title()}</h3>
        {prefixes.length === 0 ? (
          <p className="muted">{m.settings_measurement_preview_none()}</p>
        ) : valid ? (
          <dl>
            <dt>{m.settings_measurement_preview_enclosure()}</dt>
            <dd>
              <code>{example}</code>
            </dd>
            <dt>{m.settings_measurement_preview_measured()}</dt>
            <dd>
              <code data-testid="measured-example">{measuredUrl(example, prefixes)}</code>
            </dd>
          </dl>
        ) : (
          <p className="muted">{m.settings_measurement_preview_invalid()}</p>
        )}
      </div>
      <QueuedSettingNote queued={queued} organizationId={organizationId} />
      {mayChange && (
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={!changed || !valid}>
            {m.app_form_apply()}
          </button>
        </div>
      )}
    </form>
  );
}
