// What the normalization fields of the organization's and a program's settings share: the words for
// a choice (a preset of the reference list, or off), and the state of this device's change of it
// through the outbox (waiting to be sent, refused by the server with its reasons, in conflict with
// a change made elsewhere), so that no offline edit fails silently.
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../paraglide/messages.js';
import { db, type NeedsAttentionEntry } from '../db/db.ts';
import type { SyncEntity } from '../protocol/sync.ts';
import type { NormalizationPreset } from '../protocol/reference.ts';
import type { NormalizationChoice } from '../domain/settings.ts';
import { attentionReason, refusedFieldText } from './sync-labels.ts';

/** "Podcast (-16 LUFS, -1 dBTP)", "Off", or the Id when the device has no reference list. */
export function normalizationLabel(presetId: string | null, presets: readonly NormalizationPreset[] | null): string {
  if (presetId === null) return m.settings_normalization_off();
  const preset = presets?.find((p) => p.Id === presetId);
  return preset ? m.settings_normalization_preset({ name: preset.Name, loudness: preset.IntegratedLoudness, peak: preset.TruePeak }) : m.settings_normalization_unknown_preset({ id: presetId });
}

/** A program's Normalization as a conflict shows it: none (absent or null) is not "(empty)" but
 * the organization's choice, which the program inherits (effectiveNormalization). */
export function programNormalizationLabel(value: unknown, presets: readonly NormalizationPreset[] | null): string | null {
  if (value === null || value === undefined) return m.settings_normalization_inherits();
  return isNormalizationChoice(value) ? normalizationLabel(value.PresetId, presets) : null;
}

/** Whether a row's field value is a normalization choice ({ PresetId }), as a conflict shows it. */
export function isNormalizationChoice(value: unknown): value is NormalizationChoice {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && 'PresetId' in value;
}

export type QueuedSetting = {
  /** Sent to the outbox, not yet answered. */
  pending: boolean;
  /** Refused by the server: its changes, and the reason to show at the field. */
  refused: NeedsAttentionEntry[];
  refusal: string | undefined;
  /** Another change of the setting crossed this one: the sync page resolves it. */
  conflict: boolean;
};

/** The state of this device's changes of one row made through the mutation `name`. */
export function useQueuedSetting(entity: SyncEntity, entityId: string, name: string): QueuedSetting {
  const state = useLiveQuery(async () => {
    const [outbox, refused, conflicts] = await Promise.all([
      db.outbox.where('entityId').equals(entityId).filter((e) => e.name === name).count(),
      db.needsAttention.where('entityId').equals(entityId).filter((e) => e.mutation.name === name).sortBy('createdAt'),
      db.conflicts.where('entityId').equals(entityId).filter((e) => e.mutation.name === name).count(),
    ]);
    return { pending: outbox > 0, refused, conflict: conflicts > 0 };
  }, [entityId, name]);
  const refused = state?.refused ?? [];
  const last = refused[refused.length - 1];
  const error = last?.errors[0];
  return {
    pending: state?.pending ?? false,
    refused,
    refusal: last ? (error ? refusedFieldText(error, entity) : attentionReason(last.httpStatus)) : undefined,
    conflict: state?.conflict ?? false,
  };
}
