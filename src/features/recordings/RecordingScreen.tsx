// /{organizationId}/programs/{programId}/recordings/{recordingId} — state per section 4, title,
// description, rating, reviewed; its audio (RecordingAudio: waveform, playback, cut editor, clips
// made from it); annotations added and deleted (all through the local store), and drawn on the
// waveform as markers that seek the player (one live query feeds the list and the waveform).
import { useMemo, useState } from 'react';
import { formatFormError } from '../../domain/messages.ts';
import { validateInteger, validateTitle } from '../../domain/validators.ts';
import { formatTimeEntry, parseTimeEntry, validateTimeEntry, validateTimeWithin } from '../../domain/time.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { addAnnotation, deleteAnnotation, updateRecording } from '../../db/writes.ts';
import { asAnnotation, asRecording, live, useRow } from '../../lib/rows.ts';
import { formatDateTime, formatSeconds, formatTime, recordingStateLabel } from '../../lib/labels.ts';
import { useEditState } from '../../lib/form.ts';
import { Link } from '../../lib/router.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { showToast } from '../../lib/toast.ts';
import { withLoading } from '../../lib/loading.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { useIdParams } from '../../lib/params.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { RecordingAudio } from './RecordingAudio.tsx';
import { RecordingTranscript } from './RecordingTranscript.tsx';
import type { Annotation, Recording } from '../../protocol/entities.ts';

const RATING_MAX = 5;

export function RecordingScreen() {
  const { organizationId, programId, recordingId } = useIdParams('organizationId', 'programId', 'recordingId');
  const row = useRow('recordings', recordingId);
  if (row.state === 'missing') return <NotFoundPage kind="recording" />;
  if (row.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const rec = asRecording(row.row);
  if (rec.ProgramId !== programId) return <NotFoundPage kind="recording" />;
  const programHref = `/${organizationId}/programs/${programId}`;
  return <RecordingEditor key={rec.Id} recording={rec} programHref={programHref} />;
}

function RecordingEditor({ recording, programHref }: { recording: Recording; programHref: string }) {
  const back = `${programHref}?tab=recordings`;
  const baseline = useMemo(
    () => ({ Title: recording.Title ?? '', Description: recording.Description ?? '', Rating: recording.Rating === null ? '' : String(recording.Rating), Reviewed: recording.Reviewed }),
    [recording],
  );
  const form = useEditState(baseline);
  const annotations = useLiveQuery(async () => live((await db.annotations.where('RecordingId').equals(recording.Id).toArray()).map(asAnnotation)).sort((a, b) => a.OffsetSeconds - b.OffsetSeconds), [recording.Id]);
  const [errors, setErrors] = useState<{ Title?: FormError; Rating?: FormError }>({});
  useUnsavedGuard('form', form.dirty);
  const v = form.values;

  const apply = async () => {
    const e: typeof errors = {};
    const t = validateTitle(v.Title, { required: false });
    if (t) e.Title = t;
    const r = validateInteger(v.Rating, { required: false, min: 0, max: RATING_MAX });
    if (r) e.Rating = r;
    setErrors(e);
    if (e.Title || e.Rating) return;
    const patch: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(form.changed)) {
      if (k === 'Rating') patch[k] = val === '' ? null : Number(val);
      else if (k === 'Reviewed') patch[k] = val;
      else patch[k] = typeof val === 'string' && val.trim() === '' ? null : val;
    }
    // On failure the form keeps its values (see ClipScreen).
    if (!(await withLoading(savedLocally(updateRecording(recording.Id, patch))))) return;
    form.reset();
    showToast({ type: 'success', title: m.app_form_saved() });
  };

  return (
    <>
      <PageHeader eyebrow={recordingStateLabel(recording)} title={recording.Title ?? m.app_program_recordings()} link={<Link href={back}>{m.app_back()}</Link>} />
      <div className="clip-layout">
        <form
          className="card form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void apply();
          }}
        >
          <Field label={m.app_recording_field_title()} error={errors.Title ? formatFormError(errors.Title) : undefined}>
            <input value={v.Title} onChange={(e) => form.set('Title', e.target.value)} />
          </Field>
          <Field label={m.app_recording_field_description()}>
            <textarea rows={4} value={v.Description} onChange={(e) => form.set('Description', e.target.value)} />
          </Field>
          <Field label={m.app_recording_field_rating()} error={errors.Rating ? formatFormError(errors.Rating) : undefined}>
            <select value={v.Rating} onChange={(e) => form.set('Rating', e.target.value)}>
              <option value="">{m.app_clip_none()}</option>
              {Array.from({ length: RATING_MAX }, (_, i) => (
                <option key={i + 1} value={String(i + 1)}>{'★'.repeat(i + 1)}</option>
              ))}
            </select>
          </Field>
          <CheckboxField label={m.app_recording_field_reviewed()} checked={v.Reviewed} onChange={(c) => form.set('Reviewed', c)} />
          <div className="form-actions">
            {form.dirty && (
              <button type="button" className="button" onClick={() => { form.reset(); setErrors({}); }}>
                {m.app_form_reset()}
              </button>
            )}
            <button type="submit" className="button primary" disabled={!form.dirty}>{m.app_form_apply()}</button>
          </div>
        </form>
        <aside className="card status-panel">
          <h2>{m.app_clip_status()}</h2>
          <dl className="status-list">
            <dt>{m.app_clip_state_label()}</dt>
            <dd><span className="pill">{recordingStateLabel(recording)}</span></dd>
            <dt>{m.app_clip_duration()}</dt>
            <dd>{formatSeconds(recording.DurationSeconds)}</dd>
          </dl>
          {recording.CaptureStartUtc && (
            <p className="muted">{m.app_recording_captured({ start: formatDateTime(recording.CaptureStartUtc), end: recording.CaptureEndUtc ? formatTime(recording.CaptureEndUtc) : '…' })}</p>
          )}
          {recording.CaptureStartUtc && (
            <p>
              <Link href={`${programHref}/recordings/memos/${new Date(recording.CaptureStartUtc).toISOString().slice(0, 10)}`}>{m.media_memo_link()}</Link>
            </p>
          )}
        </aside>
      </div>
      <RecordingAudio recording={recording} programHref={programHref} annotations={annotations} />
      <Annotations recordingId={recording.Id} lengthSeconds={recording.DurationSeconds} annotations={annotations} />
      <RecordingTranscript recording={recording} />
    </>
  );
}

function Annotations({ recordingId, lengthSeconds, annotations }: { recordingId: string; lengthSeconds: number | null | undefined; annotations: readonly Annotation[] | undefined }) {
  const [time, setTime] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<{ time?: string; text?: string }>({});
  const add = async () => {
    const entered = validateTimeEntry(time, { required: true });
    const parsed = entered ? null : parseTimeEntry(time);
    const timeError = entered ?? (parsed === null ? null : validateTimeWithin(parsed, lengthSeconds));
    const offset = timeError ? null : parsed;
    const e: typeof errors = {};
    if (timeError) e.time = formatFormError(timeError);
    if (!text.trim()) e.text = formatFormError({ type: 'required' });
    setErrors(e);
    if (e.time || e.text || offset === null) return;
    if (!(await withLoading(savedLocally(addAnnotation(recordingId, { OffsetSeconds: offset, Text: text.trim(), DurationSeconds: null }))))) return;
    setTime('');
    setText('');
  };
  return (
    <section className="card" aria-labelledby="annotations">
      <h2 id="annotations">{m.app_recording_annotations()}</h2>
      {annotations && annotations.length > 0 ? (
        <ul className="annotation-list">
          {annotations.map((a) => (
            <li key={a.Id}>
              {/* The form the time field takes, so what is listed can be typed back. */}
              <span className="mono">{formatTimeEntry(a.OffsetSeconds)}</span>
              <span className="annotation-text">{a.Text}</span>
              <button type="button" className="icon-button" aria-label={m.app_recording_annotation_delete({ time: formatTimeEntry(a.OffsetSeconds) })} onClick={() => void savedLocally(deleteAnnotation(recordingId, a.Id))}>
                <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path d="M5 7h14M10 11v6M14 11v6M6 7l1 12h10l1-12M9 7V4h6v3" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></svg>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">{m.app_recording_no_annotations()}</p>
      )}
      <form
        className="annotation-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <Field label={m.app_recording_annotation_time()} error={errors.time} className="narrow">
          <input value={time} inputMode="numeric" placeholder="00:00:00" onChange={(e) => setTime(e.target.value)} />
        </Field>
        <Field label={m.app_recording_annotation_text()} error={errors.text} className="grow">
          <input value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
        <button type="submit" className="button">{m.app_recording_annotation_add()}</button>
      </form>
    </section>
  );
}
