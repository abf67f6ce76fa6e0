// The program's recording settings on its settings page: keep recordings for ever, or delete them
// after a number of days (src/domain/settings.ts validateRetentionDays; the server's retention job
// deletes them hourly). Beside the field, what that retention would delete now: asked of the server
// (GET …/settings/recording-deletion-estimate?days=N) when online, else counted from the recordings
// on this device by the same rule (estimateDeletion), and the page says which. Saved on the device
// through program.setRecordingSettings, so it works offline: waiting, refused (at the field) and
// conflicting changes are shown as for normalization. Changing it needs content and manage-settings
// access on the program (section 6).
import { useEffect, useId, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../../paraglide/messages.js';
import { estimateDeletion, RETENTION_DAYS_MAX, RETENTION_DAYS_MIN, validateRetentionDays, type DeletionEstimate } from '../../domain/settings.ts';
import { programSetRecordingSettings } from '../../mutations/settings.ts';
import { programRecordingDeletionEstimate } from '../../protocol/api/settings.ts';
import { setProgramRecordingRetention } from '../../db/writes.ts';
import { db } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { useQueuedSetting } from '../../lib/normalization.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { Field } from '../../ui/Field.tsx';
import type { Program } from '../../protocol/entities.ts';
import { QueuedSettingNote } from '../../ui/QueuedSettingNote.tsx';

type Props = { program: Program; organizationId: string; editable: boolean };

export function ProgramRecording(props: Props) {
  const saved = props.program.DeleteRecordingsAfterDays ?? null;
  // Keyed by the saved value: a change saved here or arriving from elsewhere starts the form afresh.
  return <RecordingCard key={String(saved)} {...props} saved={saved} />;
}

/** "3 h 20 min", "45 min". */
function durationText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  return h > 0 ? m.settings_recording_hours_minutes({ hours: h, minutes: minutes % 60 }) : m.settings_recording_minutes({ minutes });
}

function estimateText(estimate: DeletionEstimate): string {
  if (estimate.Count === 0 || estimate.OldestCreatedAtUtc === null) return m.settings_recording_estimate_none();
  const locale = getLocale();
  return m.settings_recording_estimate({
    count: estimate.Count,
    countText: new Intl.NumberFormat(locale).format(estimate.Count),
    duration: durationText(estimate.TotalDurationSeconds),
    date: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(estimate.OldestCreatedAtUtc)),
  });
}

/** What a retention of `days` would delete now: the server's count online, this device's offline. */
function useDeletionEstimate(programId: string, days: number | null): { estimate: DeletionEstimate; from: 'server' | 'device' } | null {
  const online = useOnline();
  const [server, setServer] = useState<{ days: number; estimate: DeletionEstimate } | null>(null);
  const local = useLiveQuery(
    async () => (days === null ? null : estimateDeletion(
            (await db.recordings.where('ProgramId').equals(programId).toArray()).map((r) => ({
              CreatedAtUtc: String(r['CreatedAtUtc']),
              Deleted: r['Deleted'] === true,
              DurationSeconds: typeof r['DurationSeconds'] === 'number' ? r['DurationSeconds'] : null,
            })),
            days,
            new Date(),
          )),
    [programId, days],
  );
  useEffect(() => {
    if (!online || days === null) return;
    const abort = new AbortController();
    // A short pause while the number is typed, one call for the number that stays.
    const timer = setTimeout(() => {
      void call(programRecordingDeletionEstimate, { params: { programId }, query: { days: String(days) }, signal: abort.signal }).then((result) => {
        if (result.kind === 'ok') setServer({ days, estimate: result.data });
      });
    }, 300);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [online, programId, days]);
  if (days === null) return null;
  if (online && server?.days === days) return { estimate: server.estimate, from: 'server' };
  return local ? { estimate: local, from: 'device' } : null;
}

function RecordingCard({ program, organizationId, editable, saved }: Props & { saved: number | null }) {
  const id = useId();
  const queued = useQueuedSetting('programs', program.Id, programSetRecordingSettings.name);
  const [keep, setKeep] = useState(saved === null);
  const [text, setText] = useState(saved === null ? '30' : String(saved));
  const [touched, setTouched] = useState(false);
  const days = keep ? null : /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  const error = days === null ? null : validateRetentionDays(days);
  const chosen = error ? null : days;
  const estimate = useDeletionEstimate(program.Id, error ? null : chosen);
  const localError = touched && error ? m.settings_recording_days_hint({ min: RETENTION_DAYS_MIN, max: RETENTION_DAYS_MAX }) : undefined;

  const save = async () => {
    setTouched(true);
    if (error) return;
    if (!(await withLoading(savedLocally(setProgramRecordingRetention(program.Id, chosen))))) return;
    // A refused change is answered by this one.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    showSavedToast(m.settings_recording_saved());
  };

  return (
    <form
      className="card form"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id={`${id}-title`}>{m.settings_recording_title()}</h2>
      <p className="muted">{m.settings_recording_intro()}</p>
      {!editable && <p className="muted">{m.settings_recording_read_only()}</p>}
      <fieldset className="field choice-group">
        <legend>{m.settings_recording_field()}</legend>
        <label className="choice">
          <input type="radio" name={`${id}-retention`} checked={keep} disabled={!editable} onChange={() => setKeep(true)} />
          <span className="choice-label">{m.settings_recording_keep_forever()}</span>
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-retention`} checked={!keep} disabled={!editable} onChange={() => setKeep(false)} />
          <span className="choice-label">{m.settings_recording_delete_after()}</span>
        </label>
      </fieldset>
      {!keep && (
        <Field label={m.settings_recording_days()} error={localError ?? queued.refusal} hint={m.settings_recording_days_hint({ min: RETENTION_DAYS_MIN, max: RETENTION_DAYS_MAX })}>
          <input type="number" inputMode="numeric" min={RETENTION_DAYS_MIN} max={RETENTION_DAYS_MAX} step={1} value={text} disabled={!editable} onChange={(e) => setText(e.target.value)} onBlur={() => setTouched(true)} />
        </Field>
      )}
      {keep && queued.refusal && <p className="field-error">{queued.refusal}</p>}
      {estimate && (
        <p role="status" data-testid="recording-deletion-estimate">
          {estimateText(estimate.estimate)}{' '}
          <span className="muted">{estimate.from === 'server' ? m.settings_recording_estimate_online() : m.settings_recording_estimate_offline()}</span>
        </p>
      )}
      <QueuedSettingNote queued={queued} organizationId={organizationId} />
      {editable && (
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={chosen === saved && !error}>
            {m.app_form_apply()}
          </button>
        </div>
      )}
    </form>
  );
}
