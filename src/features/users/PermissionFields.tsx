// The permission editor's fields (section 6), shared by a user's permissions dialog and the invite
// dialog: the scope as a radio group, then the seven flags once (Organization scope) or per network
// or program picked from this device's store (Network and Program scope); none has no flags. Each
// error shows at its field: the picker of a repeated or missing object, the flag given outside its
// scope, the list's own rule above the rows.
import { useId, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { PermissionFlagName } from '../../domain/permissions.ts';
import { FLAGS, newRow, SCOPES, type Draft, type DraftRow, type Flags, type Scope } from './permission-draft.ts';

type Named = { Id: string; Name: string };

export const FLAG_LABEL: Record<PermissionFlagName, () => string> = {
  HasAnalyticsAccess: () => m.users_flag_analytics(),
  HasAuditAccess: () => m.users_flag_audit(),
  HasContentAccess: () => m.users_flag_content(),
  HasCreateProgramAccess: () => m.users_flag_create_program(),
  HasManageOrganizationSettingsAccess: () => m.users_flag_manage_organization_settings(),
  HasManageSettingsAccess: () => m.users_flag_manage_settings(),
  HasManageUserAccess: () => m.users_flag_manage_users(),
};

export const SCOPE_LABEL: Record<Scope, () => string> = {
  Organization: () => m.users_scope_organization(),
  Network: () => m.users_scope_network(),
  Program: () => m.users_scope_program(),
  none: () => m.users_scope_none(),
};

/** A draft being edited, whether it was touched, and the server's last refusal by draft key
 * (cleared at the next edit: it was about what is no longer there). */
export function useEditedDraft(initial: () => Draft) {
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const touch = () => {
    setTouched(true);
    setServer({});
  };
  const change = (next: Draft) => {
    setDraft(next);
    touch();
  };
  return { draft, change, touched, touch, server, setServer };
}

export function PermissionFields({ draft, onChange, errors, networks, programs, disabled }: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  /** Error texts by draft key ('form', `${i}.ObjectId`, `${i}.Permissions.${flag}`). */
  errors: Record<string, string>;
  networks: readonly Named[];
  programs: readonly Named[];
  disabled: boolean;
}) {
  const scopeName = useId();
  const objects = draft.scope === 'Network' ? networks : programs;
  const setRow = (key: number, row: Partial<DraftRow>) => onChange({ ...draft, rows: draft.rows.map((r) => (r.key === key ? { ...r, ...row } : r)) });
  const setScope = (scope: Scope) => onChange({ ...draft, scope, rows: scope === draft.scope ? draft.rows : scope === 'Network' || scope === 'Program' ? [newRow()] : [] });
  return (
    <div className="permission-fields">
      <fieldset className="field scope-field" disabled={disabled}>
        <legend>{m.users_scope()}</legend>
        <div className="scope-options">
          {SCOPES.map((s) => (
            <label key={s} className="radio">
              <input type="radio" name={scopeName} value={s} checked={draft.scope === s} onChange={() => setScope(s)} />
              {SCOPE_LABEL[s]()}
            </label>
          ))}
        </div>
        <p className="field-hint">{m.users_scope_hint()}</p>
      </fieldset>
      {errors.form && (
        <p role="alert" className="field-error">
          {errors.form}
        </p>
      )}
      {draft.scope === 'Organization' && (
        <FlagSet legend={m.users_flags_organization()} flags={draft.organizationFlags} errorAt={(f) => errors[`0.Permissions.${f}`]} disabled={disabled} onChange={(organizationFlags) => onChange({ ...draft, organizationFlags })} />
      )}
      {(draft.scope === 'Network' || draft.scope === 'Program') && (
        <>
          {draft.rows.map((row, i) => (
            <div key={row.key} className="permission-row">
              <ObjectPicker
                label={draft.scope === 'Network' ? m.users_network() : m.users_program()}
                value={row.objectId}
                objects={objects}
                error={errors[`${i}.ObjectId`]}
                disabled={disabled}
                onChange={(objectId) => setRow(row.key, { objectId })}
              />
              <FlagSet legend={m.users_flags_for({ name: objects.find((o) => o.Id === row.objectId)?.Name ?? '…' })} flags={row.flags} errorAt={(f) => errors[`${i}.Permissions.${f}`]} disabled={disabled} onChange={(flags) => setRow(row.key, { flags })} />
              <button type="button" className="button" disabled={disabled} onClick={() => onChange({ ...draft, rows: draft.rows.filter((r) => r.key !== row.key) })}>
                {draft.scope === 'Network' ? m.users_remove_network() : m.users_remove_program()}
              </button>
            </div>
          ))}
          {objects.length === 0 && <p className="muted">{draft.scope === 'Network' ? m.users_no_networks() : m.users_no_programs()}</p>}
          <button type="button" className="button" disabled={disabled || objects.length === 0} onClick={() => onChange({ ...draft, rows: [...draft.rows, newRow()] })}>
            {draft.scope === 'Network' ? m.users_add_network() : m.users_add_program()}
          </button>
        </>
      )}
      {draft.scope === 'none' && <p className="muted">{m.users_scope_none_hint()}</p>}
    </div>
  );
}

function ObjectPicker({ label, value, objects, error, disabled, onChange }: { label: string; value: string; objects: readonly Named[]; error: string | undefined; disabled: boolean; onChange: (id: string) => void }) {
  const id = useId();
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(e) => onChange(e.target.value)}>
        <option value="">{m.users_choose()}</option>
        {objects.map((o) => (
          <option key={o.Id} value={o.Id}>
            {o.Name}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function FlagSet({ legend, flags, errorAt, disabled, onChange }: { legend: string; flags: Flags; errorAt: (flag: PermissionFlagName) => string | undefined; disabled: boolean; onChange: (flags: Flags) => void }) {
  const id = useId();
  return (
    <fieldset className="flag-set" disabled={disabled}>
      <legend>{legend}</legend>
      {FLAGS.map((f) => {
        const error = errorAt(f);
        return (
          <div key={f} className={`field checkbox${error ? ' has-error' : ''}`}>
            <input
              id={`${id}-${f}`}
              type="checkbox"
              checked={flags[f] === true}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-${f}-error` : undefined}
              onChange={(e) => onChange({ ...flags, [f]: e.target.checked })}
            />
            <label htmlFor={`${id}-${f}`}>{FLAG_LABEL[f]()}</label>
            {error && (
              <p id={`${id}-${f}-error`} className="field-error">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
