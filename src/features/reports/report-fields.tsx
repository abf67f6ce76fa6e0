// Fields both report forms ask (running a report, the scheduled-publish report): where it runs,
// and its local date range with its time zone.
//
// The time zone is one of the reference time zones (GET /v1/reference-data/time-zones, kept on
// the device by src/lib/reference-data.ts); before the list was ever fetched (offline on a new
// device) the device's own zone and UTC are offered, and the server checks the name.
import { m } from '../../paraglide/messages.js';
import { DEFAULT_ANALYTICS_TIME_ZONE } from '../../domain/analytics.ts';
import { useTimeZones } from '../../lib/reference-data.ts';
import { Field } from '../../ui/Field.tsx';

export type Place = { Id: string; Name: string };

/** What Field gives its control (an id, and the error and hint it is described by). */
type ControlProps = { id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };

/** The device's IANA time zone (UTC when the browser will not say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_ANALYTICS_TIME_ZONE;
  } catch {
    return DEFAULT_ANALYTICS_TIME_ZONE;
  }
}

export function TimeZoneSelect({ value, onChange, ...control }: { value: string; onChange: (value: string) => void } & ControlProps) {
  const zones = useTimeZones();
  const options = zones
    ? zones.map((z) => ({ id: z.IanaId, label: z.DisplayName }))
    : [...new Set([value, browserTimeZone(), DEFAULT_ANALYTICS_TIME_ZONE])].map((id) => ({ id, label: id }));
  if (!options.some((o) => o.id === value)) options.unshift({ id: value, label: value });
  return (
    <select {...control} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/**
 * Where a report runs: the organization (as `organizationValue`, when offered), a network
 * ('network:<id>') or a program ('program:<id>'); 'Choose…' (value '') while nothing is chosen.
 */
export function PlaceSelect({
  value,
  onChange,
  organizationValue,
  networks,
  programs,
  ...control
}: { value: string; onChange: (value: string) => void; organizationValue: string | null; networks: readonly Place[]; programs: readonly Place[] } & ControlProps) {
  return (
    <select {...control} value={value} onChange={(e) => onChange(e.target.value)}>
      {value === '' && organizationValue !== '' && <option value="">{m.reports_level_choose()}</option>}
      {organizationValue !== null && <option value={organizationValue}>{m.reports_level_organization()}</option>}
      {networks.length > 0 && (
        <optgroup label={m.reports_level_networks()}>
          {networks.map((n) => (
            <option key={n.Id} value={`network:${n.Id}`}>
              {n.Name}
            </option>
          ))}
        </optgroup>
      )}
      {programs.length > 0 && (
        <optgroup label={m.reports_level_programs()}>
          {programs.map((p) => (
            <option key={p.Id} value={`program:${p.Id}`}>
              {p.Name}
            </option>
          ))}
        </optgroup>
      )}
    </select>
  );
}

type RangeField = 'startDate' | 'endDate' | 'timeZoneIanaId';

/** From, to (included) and the time zone they are local to, each with its message. */
export function RangeFields({
  value,
  errors,
  onChange,
}: {
  value: Record<RangeField, string>;
  errors: Partial<Record<RangeField, string | undefined>>;
  onChange: (field: RangeField, value: string) => void;
}) {
  return (
    <div className="field-row">
      <Field label={m.reports_start_date()} error={errors.startDate}>
        <input type="date" value={value.startDate} onChange={(e) => onChange('startDate', e.target.value)} />
      </Field>
      <Field label={m.reports_end_date()} error={errors.endDate}>
        <input type="date" value={value.endDate} onChange={(e) => onChange('endDate', e.target.value)} />
      </Field>
      <Field label={m.reports_time_zone()} error={errors.timeZoneIanaId}>
        <TimeZoneSelect value={value.timeZoneIanaId} onChange={(v) => onChange('timeZoneIanaId', v)} />
      </Field>
    </div>
  );
}
