// /{organizationId}/sync — offline made visible: conflicts ('Conflict 1 of N', yours / theirs /
// base per field, keep mine / keep theirs, who changed it and when), the needs-attention list and
// the durability panel (persistent storage, quota, oldest unsynced edit, eviction warning).
import { useEffect, useState, type ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type ConflictEntry, type LocalRow, type NeedsAttentionEntry } from '../../db/db.ts';
import type { SyncEntity } from '../../protocol/sync.ts';
import { entityLabel, type EntityKind } from '../../domain/entities.ts';
import { clipLabel } from '../../domain/clip.ts';
import { dismissNeedsAttention, keepMine, keepTheirs, resolveFields, retryNeedsAttention } from '../../db/conflicts.ts';
import { storageEstimate } from '../../db/storage.ts';
import { oldestUnsyncedEdit } from '../../db/owner.ts';
import { useSession } from '../../lib/session.ts';
import { getLocale } from '../../lib/i18n.ts';
import { formatDateTime, relativeTime } from '../../lib/labels.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { attentionReason, fieldLabel, formatStorage } from '../../lib/sync-labels.ts';
import { RefusedErrorList } from '../../ui/RefusedErrorList.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useSyncStatus } from './useSyncStatus.ts';
import { conflictOrigin, fieldAuthor, isOwnChange, useUserName } from './conflict-authors.ts';
import { mutationFields, mutationKind } from '../../mutations/registry.ts';
import { isNormalizationChoice, normalizationLabel, programNormalizationLabel } from '../../lib/normalization.ts';
import { useNormalizationPresets } from '../../lib/reference-data.ts';
import type { NormalizationPreset } from '../../protocol/reference.ts';

export function SyncScreen() {
  return (
    <>
      <PageHeader title={m.app_sync_details()} />
      <Conflicts />
      <NeedsAttention />
      <DurabilityPanel />
    </>
  );
}

/** A value in words; a normalization choice by its preset's name (`presets`: the reference list kept on the device). */
function showValue(value: unknown, presets: readonly NormalizationPreset[] | null = null): string {
  if (isNormalizationChoice(value)) return normalizationLabel(value.PresetId, presets);
  if (value === undefined || value === null || value === '') return m.app_conflict_empty_value();
  if (typeof value === 'boolean') return value ? m.app_value_yes() : m.app_value_no();
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function Conflicts() {
  const conflicts = useLiveQuery(() => db.conflicts.orderBy('id').toArray(), []);
  const [index, setIndex] = useState(0);
  const list = (conflicts ?? []).slice().sort((a, b) => a.createdAt - b.createdAt);
  const i = Math.min(index, Math.max(0, list.length - 1));
  const c = list[i];
  return (
    <section className="card" aria-labelledby="conflicts-title">
      <h2 id="conflicts-title">{m.app_conflict_title()}</h2>
      {!c ? <p className="empty">{m.app_conflict_none()}</p> : <ConflictView key={c.id} conflict={c} index={i} count={list.length} onPrev={() => setIndex(i - 1)} onNext={() => setIndex(i + 1)} />}
    </section>
  );
}

type Choice = Record<string, 'mine' | 'theirs'>;
type ViewProps = { conflict: ConflictEntry; index: number; count: number; onPrev: () => void; onNext: () => void };

/**
 * One conflict: each field yours / theirs / before, and the ways out (keep mine, keep theirs,
 * or the choices made per field). A delete held over someone else's edit is resolved as an edit
 * is: delete it anyway, or keep it and take, field by field, their change or the value the field
 * had when the user deleted it ("yours": what the user last saw). While the choice is to delete,
 * the field choices are disabled: the fields go with the row.
 */
function ConflictView({ conflict, index, count, onPrev, onNext }: ViewProps) {
  const deleteOf = mutationKind(conflict.mutation) === 'delete' ? conflict.fields[0] : undefined;
  const changes = deleteOf?.theirChanges ?? [];
  const [choice, setChoice] = useState<Choice>(() =>
    deleteOf ? { Deleted: 'mine', ...Object.fromEntries(changes.map((t) => [t.field, 'theirs' as const])) } : Object.fromEntries(conflict.fields.map((f) => [f.field, 'mine' as const])),
  );
  const title = conflict.serverRow['Title'] ?? conflict.serverRow['Name'] ?? conflict.entityId;
  // One choice at a time: a second click would find the conflict already resolved.
  const [busy, setBusy] = useState(false);
  // Every field against the user's own edit on another device: "theirs" is that device, not a person.
  const own = conflictOrigin([conflict], useSession()?.session?.User?.Id) === 'own';
  const theirsLabel = own ? m.conflicts_other_device() : m.app_conflict_theirs();
  const deleting = deleteOf !== undefined && choice['Deleted'] === 'mine';
  const presets = useNormalizationPresets();
  // A program without a normalization of its own inherits the organization's: not "(empty)".
  const show = (field: string, value: unknown) => (conflict.entity === 'programs' && field === 'Normalization' ? programNormalizationLabel(value, presets) : null) ?? showValue(value, presets);
  const act = (choose: () => Promise<void>) => {
    setBusy(true);
    void savedLocally(choose()).finally(() => setBusy(false));
  };
  const radio = (field: string, side: 'mine' | 'theirs', label: string, disabled = false) => (
    <label className="choice">
      <input type="radio" name={`c-${field}`} disabled={disabled} checked={choice[field] === side} onChange={() => setChoice({ ...choice, [field]: side })} />
      <span>{label}</span>
    </label>
  );
  const row = (field: string, mine: ReactNode, theirs: ReactNode, base: unknown, muted = false) => (
    <tr key={field} className={muted ? 'muted' : undefined}>
      <th scope="row">{fieldLabel(field)}</th>
      <td data-label={m.app_conflict_yours()}>{mine}</td>
      <td data-label={theirsLabel}>{theirs}</td>
      <td className="muted" data-label={m.app_conflict_base()}>{show(field, base)}</td>
    </tr>
  );
  const rows = deleteOf
    ? [
        row('Deleted', radio('Deleted', 'mine', m.conflicts_delete_it()), <>{radio('Deleted', 'theirs', m.conflicts_keep_it())}<ChangedBy {...fieldAuthor(conflict, deleteOf)} /></>, false),
        ...changes.map((t) => row(t.field, radio(t.field, 'mine', show(t.field, t.base), deleting || t.base === undefined), radio(t.field, 'theirs', show(t.field, t.theirs), deleting), t.base, deleting)),
      ]
    : conflict.fields.map((f) => row(f.field, radio(f.field, 'mine', show(f.field, f.mine)), <>{radio(f.field, 'theirs', show(f.field, f.theirs))}<ChangedBy {...fieldAuthor(conflict, f)} /></>, f.base));
  return (
    <div className="conflict">
      <div className="conflict-head">
        <p className="conflict-position" aria-live="polite"><strong>{m.app_conflict_position({ index: index + 1, count })}</strong> · {showValue(title)}</p>
        {deleteOf && changes.length > 0 && <p className="muted">{m.conflicts_delete_intro()}</p>}
      </div>
      <div className="table-scroll">
        <table className="conflict-table">
          <thead>
            <tr>
              <th scope="col">{m.app_conflict_field()}</th>
              <th scope="col">{m.app_conflict_yours()}</th>
              <th scope="col">{theirsLabel}</th>
              <th scope="col">{m.app_conflict_base()}</th>
            </tr>
          </thead>
          <tbody>{rows}</tbody>
        </table>
      </div>
      <div className="form-actions">
        <button type="button" className="button" disabled={index === 0} onClick={onPrev}>{m.app_conflict_previous()}</button>
        <button type="button" className="button" disabled={index >= count - 1} onClick={onNext}>{m.app_conflict_next()}</button>
        <span className="spacer" />
        {(conflict.fields.length > 1 || changes.length > 0) && <button type="button" className="button" disabled={busy} onClick={() => act(() => resolveFields(conflict.id, choice))}>{m.app_conflict_apply_choices()}</button>}
        <button type="button" className="button" disabled={busy} onClick={() => act(() => keepTheirs(conflict.id))}>{own ? m.conflicts_keep_other_device() : m.app_conflict_keep_theirs()}</button>
        <button type="button" className="button primary" disabled={busy} onClick={() => act(() => keepMine(conflict.id))}>{m.app_conflict_keep_mine()}</button>
      </div>
    </div>
  );
}

/** "Changed by Pat Producer 5 minutes ago · <exact time>": who made the change a field is against;
 * the user's own change is hers on another device, not a second author with her name. */
function ChangedBy({ byId, atUtc }: { byId: string | null; atUtc: string | null }) {
  const session = useSession()?.session;
  const cachedName = useUserName(byId);
  const own = isOwnChange({ byId, atUtc }, session?.User?.Id);
  const atMs = atUtc === null ? NaN : Date.parse(atUtc);
  const when = Number.isNaN(atMs) ? '' : relativeTime(atMs, Date.now(), getLocale());
  const exactly = Number.isNaN(atMs) ? '' : formatDateTime(atMs);
  return (
    <p className="muted">
      {own ? m.conflicts_changed_by_you_elsewhere({ when }) : m.app_conflict_changed_by({ name: cachedName ?? m.app_conflict_someone(), when })}
      {atUtc !== null && exactly && <> · <time dateTime={atUtc}>{exactly}</time></>}
    </p>
  );
}

function NeedsAttention() {
  const items = useLiveQuery(async () => (await db.needsAttention.toArray()).sort((a, b) => a.createdAt - b.createdAt), []);
  return (
    <section className="card" aria-labelledby="attention-title">
      <h2 id="attention-title">{m.app_attention_title()}</h2>
      {!items || items.length === 0 ? (
        <p className="empty">{m.app_attention_none()}</p>
      ) : (
        <>
          <p className="muted">{m.app_attention_intro()}</p>
          <ul className="attention-list">
            {items.map((a) => (
              <AttentionItem key={a.id} item={a} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

const ENTITY_KIND: Partial<Record<SyncEntity, EntityKind>> = { clips: 'clip', playlists: 'playlist', programs: 'program', recordings: 'recording', networks: 'network', organizations: 'organization' };

/** What the refused change was, in words: "Changes to clip “Pilot”". */
function describeChange(item: NeedsAttentionEntry, row: LocalRow | undefined): string {
  const kind = ENTITY_KIND[item.entity];
  const entity = kind ? entityLabel(kind) : item.entity;
  const tried = mutationFields(item.mutation);
  const named = row?.['Title'] ?? row?.['Name'] ?? tried['Title'] ?? tried['Name'];
  const given = typeof named === 'string' && named.trim() !== '' ? named : null;
  // An untitled clip is 'Untitled clip' here as on its own screen (the specification's clip label).
  const title = given ?? (item.entity === 'clips' ? clipLabel({ Title: null }) : m.app_untitled());
  if (mutationKind(item.mutation) === 'create') return m.app_attention_change_create({ entity, title });
  if (mutationKind(item.mutation) === 'delete') return m.app_attention_change_delete({ entity, title });
  return m.app_attention_change_update({ entity, title });
}

function AttentionItem({ item }: { item: NeedsAttentionEntry }) {
  const row = useLiveQuery(() => db[item.entity].get(item.entityId), [item.entity, item.entityId]);
  const [busy, setBusy] = useState(false);
  const act = (fn: (id: string) => Promise<void>) => {
    setBusy(true);
    void savedLocally(fn(item.id)).finally(() => setBusy(false));
  };
  return (
    <li className="attention-item">
      <p>
        <strong>{describeChange(item, row)}</strong>
      </p>
      <p>{attentionReason(item.httpStatus)}</p>
      <RefusedErrorList item={item} />
      <div className="form-actions">
        <button type="button" className="button" disabled={busy} onClick={() => act(dismissNeedsAttention)}>{m.app_attention_dismiss()}</button>
        <button type="button" className="button primary" disabled={busy} onClick={() => act(retryNeedsAttention)}>{m.app_attention_retry()}</button>
      </div>
    </li>
  );
}

function DurabilityPanel() {
  const status = useSyncStatus();
  const [estimate, setEstimate] = useState<{ usage: number; quota: number; persisted: boolean } | null>(null);
  const oldest = useLiveQuery(() => oldestUnsyncedEdit(db), []);
  useEffect(() => {
    void storageEstimate().then(setEstimate);
  }, [status.pendingCount, status.storageFull]);
  const [asked, setAsked] = useState<'granted' | 'refused' | null>(null);
  const request = async () => {
    const granted = (await navigator.storage?.persist?.()) ?? false;
    setAsked(granted ? 'granted' : 'refused');
    setEstimate(await storageEstimate());
  };
  return (
    <section className="card" aria-labelledby="durability-title">
      <h2 id="durability-title">{m.app_durability_title()}</h2>
      {status.storageFull && <p className="alert alert-danger">{m.app_durability_storage_full()}</p>}
      <ul className="plain-list">
        <li>
          {estimate?.persisted ? (
            <span className="pill pill-ready">{m.app_durability_persistent()}</span>
          ) : (
            <span className="alert alert-warning inline">{m.app_durability_not_persistent()}</span>
          )}
        </li>
        {estimate && <li>{m.app_durability_quota({ used: formatStorage(estimate.usage), quota: formatStorage(estimate.quota) })}</li>}
        <li>{typeof oldest === 'number' ? m.app_durability_oldest({ age: relativeTime(oldest, Date.now(), getLocale()) }) : m.app_durability_no_pending()}</li>
      </ul>
      {estimate && !estimate.persisted && (
        <button type="button" className="button" onClick={() => void request()}>{m.app_durability_request()}</button>
      )}
      <p role="status" className={asked === 'refused' ? 'alert alert-warning' : asked === 'granted' ? 'alert alert-success' : 'visually-hidden'}>
        {asked === 'refused' ? m.app_durability_refused() : asked === 'granted' ? m.app_durability_granted_now() : ''}
      </p>
    </section>
  );
}
