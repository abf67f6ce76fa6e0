// The normalization field of the organization's and a program's settings forms (shared UI: the
// rules are src/domain/settings.ts, the words and the outbox state src/lib/normalization.ts).
import { m } from '../paraglide/messages.js';
import type { NormalizationPreset } from '../protocol/reference.ts';
import { normalizationLabel, type QueuedSetting } from '../lib/normalization.ts';
import { Field } from './Field.tsx';
import { QueuedSettingNote } from './QueuedSettingNote.tsx';

/**
 * The normalization field of a settings form: a select of off, each preset, and a chosen Id the
 * device does not know (its reference list missing or older than the server's), with the server's
 * refusal at the field, and below it whether the change waits to be sent or crossed another one.
 * `value`: '' for off, else the preset's Id.
 */
export function NormalizationField(props: {
  organizationId: string;
  presets: readonly NormalizationPreset[] | null;
  queued: QueuedSetting;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const { presets, queued, value } = props;
  const chosen = value === '' ? null : value;
  return (
    <>
      <Field label={m.settings_normalization_field()} error={queued.refusal}>
        <select value={value} disabled={props.disabled} onChange={(e) => props.onChange(e.target.value)}>
          <option value="">{normalizationLabel(null, presets)}</option>
          {(presets ?? []).map((p) => (
            <option key={p.Id} value={p.Id}>{normalizationLabel(p.Id, presets)}</option>
          ))}
          {chosen !== null && !presets?.some((p) => p.Id === chosen) && <option value={chosen}>{normalizationLabel(chosen, presets)}</option>}
        </select>
      </Field>
      <QueuedSettingNote queued={queued} organizationId={props.organizationId} />
    </>
  );
}
