// Publishing on the clip screen: Publish / Unpublish (the named mutations clip.publish and
// clip.unpublish, queued on the device, so they work offline: the row shows Publishing or
// Unpublishing at once and the server's state once it has synced), what keeps the clip from being
// published (src/domain/publishing.ts, the same rules the server applies) at the field it is about,
// why the last publishing did not happen (the row's PublishProblem), the public links made absolute
// against this origin with a Copy button, and the scheduled visibility: a date and time in a time
// zone chosen from the reference time zones, the device's own shown as the default, never silently.
// A publish, unpublish or schedule the server refused after it synced (the sync worker's
// needsAttention entries of this clip) is said beside the control that made it, in the server's
// words; doing it again here answers it.
import { useId, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { absoluteUrl } from '../../domain/public-urls.ts';
import { isPublishPending, VISIBILITIES } from '../../domain/clip.ts';
import { mayUnpublish, publishRequirements, utcToZonedDateTime, zonedDateTimeToUtc, type PublishErrors } from '../../domain/publishing.ts';
import type { Clip } from '../../protocol/entities.ts';
import { m } from '../../paraglide/messages.js';
import { publishClip, unpublishClip, updateClip } from '../../db/writes.ts';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { clipPublish, clipUnpublish } from '../../mutations/publishing.ts';
import { clipUpdate } from '../../mutations/content.ts';
import { attentionReason, refusedFieldText } from '../../lib/sync-labels.ts';
import { RefusedErrorList } from '../../ui/RefusedErrorList.tsx';
import { RefusedChangeAlert } from '../../ui/RefusedChangeAlert.tsx';
import { formatDateTime, publishStateLabel, visibilityLabel } from '../../lib/labels.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { showToast } from '../../lib/toast.ts';
import { copyText } from '../../lib/clipboard.ts';
import { useTimeZones } from '../../lib/reference-data.ts';

const ERROR_TEXT: Record<keyof PublishErrors, () => string> = {
  Visibility: () => m.publishing_error_visibility(),
  State: () => m.publishing_error_state(),
  Slug: () => m.publishing_error_slug(),
  ScheduledVisibility: () => m.publishing_error_schedule(),
  VisibleAtUtc: () => m.publishing_error_schedule(),
};

const PROBLEM_TEXT: Record<string, () => string> = {
  AudioMissing: () => m.publishing_problem_audio_missing(),
  NotReady: () => m.publishing_problem_not_ready(),
  Private: () => m.publishing_problem_private(),
  NoSlug: () => m.publishing_problem_no_slug(),
  Deleted: () => m.publishing_problem_deleted(),
  Failed: () => m.publishing_problem_failed(),
};

const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

// ── Refused changes ──────────────────────────────────────────────────────────────────────────
const SCHEDULE_FIELDS = ['ScheduledVisibility', 'VisibleAtUtc'] as const;
type ScheduleField = (typeof SCHEDULE_FIELDS)[number];

const isPublishAction = (item: NeedsAttentionEntry) => item.mutation.name === clipPublish.name || item.mutation.name === clipUnpublish.name;

const isScheduleField = (field: string) => (SCHEDULE_FIELDS as readonly string[]).includes(field);

/** The fields a refused clip.update set and the server named (none for another mutation). */
function touchedFields(item: NeedsAttentionEntry): string[] {
  if (item.mutation.name !== clipUpdate.name) return [];
  const fields = clipUpdate.fields(item.mutation.args as Parameters<typeof clipUpdate.fields>[0]);
  return [...Object.keys(fields), ...item.errors.map((e) => e.Field)];
}

/** A refused clip.update that set the schedule (it may have set other fields too). */
const isScheduleEdit = (item: NeedsAttentionEntry) => touchedFields(item).some(isScheduleField);

/** One that set nothing but the schedule: saving the schedule again answers all of it. */
const isOnlySchedule = (item: NeedsAttentionEntry) => touchedFields(item).every(isScheduleField);

/** This clip's refused changes, oldest first, as the sync worker recorded them. */
function useRefused(clipId: string): NeedsAttentionEntry[] {
  return useLiveQuery(() => db.needsAttention.where('entityId').equals(clipId).sortBy('createdAt'), [clipId]) ?? [];
}

/** The server's words for one refused schedule field (the latest refusal naming it), or null. */
function refusedScheduleText(items: readonly NeedsAttentionEntry[], field: ScheduleField): string | null {
  for (const item of [...items].reverse()) {
    const error = item.errors.find((e) => e.Field === field);
    if (error) return refusedFieldText(error, 'clips');
  }
  return null;
}

async function copyLink(url: string): Promise<void> {
  const done = await copyText(url);
  showToast(done ? { type: 'success', title: m.publishing_copied() } : { type: 'danger', title: m.publishing_copy_failed(), description: url });
}

function PublicLink({ label, path }: { label: string; path: string }) {
  const id = useId();
  const url = absoluteUrl(path, location.origin);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copyLink(url)} aria-label={`${m.publishing_copy()}: ${label}`}>
          {m.publishing_copy()}
        </button>
      </div>
    </div>
  );
}

function Schedule({ clip, refused }: { clip: Clip; refused: readonly NeedsAttentionEntry[] }) {
  const zones = useTimeZones();
  const [zone, setZone] = useState(deviceZone);
  const [visibility, setVisibility] = useState<string>(clip.ScheduledVisibility ?? '');
  const [at, setAt] = useState(() => (clip.VisibleAtUtc ? utcToZonedDateTime(clip.VisibleAtUtc, zone) : ''));
  const [error, setError] = useState<string | null>(null);
  const ids = { visibility: useId(), at: useId(), zone: useId(), error: useId(), refusedVisibility: useId(), refused: useId() };
  const listed = zones ?? [];
  const hasDevice = listed.some((z) => z.IanaId === zone);
  // The server's reasons at the fields it named; a refusal naming neither is said at Save.
  const refusedVisibility = refusedScheduleText(refused, 'ScheduledVisibility');
  const refusedAt = refusedScheduleText(refused, 'VisibleAtUtc');
  const refusedOther = refusedVisibility === null && refusedAt === null ? refused.at(-1) : undefined;
  const atError = error ?? refusedAt;
  /** A schedule saved again (or cleared) answers the refused ones that set nothing else (the
   * others stay for the clip form, where their other fields are). */
  const answerRefused = () => {
    for (const item of refused.filter(isOnlySchedule)) void savedLocally(dismissNeedsAttention(item.id));
  };

  const save = async () => {
    const utc = at === '' ? null : zonedDateTimeToUtc(at, zone);
    if ((visibility === '') !== (utc === null)) {
      setError(m.publishing_error_schedule());
      return;
    }
    setError(null);
    if (await savedLocally(updateClip(clip.Id, { ScheduledVisibility: visibility === '' ? null : visibility, VisibleAtUtc: utc }))) {
      answerRefused();
      showToast({ type: 'success', title: m.publishing_schedule_saved() });
    }
  };
  const clear = async () => {
    setVisibility('');
    setAt('');
    setError(null);
    if (await savedLocally(updateClip(clip.Id, { ScheduledVisibility: null, VisibleAtUtc: null }))) answerRefused();
  };

  return (
    <fieldset className="publish-schedule">
      <legend>{m.publishing_schedule()}</legend>
      {clip.ScheduledVisibility && clip.VisibleAtUtc && (
        <p>{m.publishing_schedule_current({ visibility: visibilityLabel(clip.ScheduledVisibility), time: formatDateTime(clip.VisibleAtUtc), zone: deviceZone() })}</p>
      )}
      <div className={`field${refusedVisibility ? ' has-error' : ''}`}>
        <label htmlFor={ids.visibility}>{m.publishing_schedule_visibility()}</label>
        <select
          id={ids.visibility}
          value={visibility}
          onChange={(e) => setVisibility(e.target.value)}
          aria-invalid={refusedVisibility ? true : undefined}
          aria-describedby={refusedVisibility ? ids.refusedVisibility : undefined}
        >
          <option value="">{m.publishing_schedule_none()}</option>
          {VISIBILITIES.map((v) => (
            <option key={v} value={v}>{visibilityLabel(v)}</option>
          ))}
        </select>
        {refusedVisibility && <p id={ids.refusedVisibility} className="field-error">{m.clips_refused_schedule()} {refusedVisibility}</p>}
      </div>
      <div className={`field${atError ? ' has-error' : ''}`}>
        <label htmlFor={ids.at}>{m.publishing_schedule_at()}</label>
        <input id={ids.at} type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} aria-invalid={atError ? true : undefined} aria-describedby={atError ? ids.error : undefined} />
        {atError && <p id={ids.error} className="field-error">{error ?? `${m.clips_refused_schedule()} ${atError}`}</p>}
      </div>
      <div className="field">
        <label htmlFor={ids.zone}>{m.publishing_schedule_zone()}</label>
        <select id={ids.zone} value={zone} onChange={(e) => setZone(e.target.value)}>
          {!hasDevice && <option value={deviceZone()}>{m.publishing_schedule_zone_device({ zone: deviceZone() })}</option>}
          {listed.map((z) => (
            <option key={z.IanaId} value={z.IanaId}>
              {z.IanaId === deviceZone() ? m.publishing_schedule_zone_device({ zone: `${z.DisplayName} (UTC${z.UtcOffset})` }) : `${z.DisplayName} (UTC${z.UtcOffset})`}
            </option>
          ))}
        </select>
      </div>
      <div className="form-actions">
        {(clip.ScheduledVisibility || clip.VisibleAtUtc) && (
          <button type="button" className="button" onClick={() => void clear()}>{m.publishing_schedule_clear()}</button>
        )}
        <button type="button" className="button" onClick={() => void save()} aria-describedby={refusedOther ? ids.refused : undefined}>{m.publishing_schedule_save()}</button>
      </div>
      {refusedOther && (
        <div id={ids.refused} role="alert" className="alert alert-danger">
          <p>
            <strong>{m.clips_refused_schedule()}</strong> {attentionReason(refusedOther.httpStatus)}
          </p>
          <RefusedErrorList item={refusedOther} />
        </div>
      )}
    </fieldset>
  );
}

export function PublishPanel({ clip }: { clip: Clip }) {
  const [errors, setErrors] = useState<PublishErrors>({});
  const headingId = useId();
  const pending = isPublishPending(clip.PublishState);
  const published = mayUnpublish(clip.PublishState);
  const problem = clip.PublishProblem ? PROBLEM_TEXT[clip.PublishProblem] : undefined;
  const urls = clip.Urls;
  const firstError = useRef<HTMLLIElement>(null);
  const refused = useRefused(clip.Id);
  const refusedPublish = refused.filter(isPublishAction).at(-1);
  const refusedId = useId();
  /** Publishing or unpublishing again answers the refused ones. */
  const answerRefused = () => {
    for (const item of refused.filter(isPublishAction)) void savedLocally(dismissNeedsAttention(item.id));
  };

  const publish = async () => {
    const found = publishRequirements(clip);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      queueMicrotask(() => firstError.current?.focus());
      return;
    }
    if (await savedLocally(publishClip(clip.Id))) answerRefused();
  };
  const unpublish = async () => {
    if (await savedLocally(unpublishClip(clip.Id))) answerRefused();
  };
  const describedBy = refusedPublish ? refusedId : undefined;

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.publishing_heading()}</h2>
      <p role="status">
        {m.publishing_state({ state: publishStateLabel(clip.PublishState) })}
      </p>
      {problem && !pending && clip.PublishState === 'Unpublished' && (
        <p role="alert" className="alert alert-danger">
          <strong>{m.publishing_problem()}</strong> {problem()}
        </p>
      )}
      {Object.keys(errors).length > 0 && (
        <ul className="field-error" aria-live="polite">
          {(Object.keys(errors) as Array<keyof PublishErrors>).map((field, i) => (
            <li key={field} ref={i === 0 ? firstError : undefined} tabIndex={-1} data-field={field}>
              {ERROR_TEXT[field]()}
            </li>
          ))}
        </ul>
      )}
      <div className="form-actions">
        {published ? (
          <button type="button" className="button" disabled={clip.PublishState === 'Unpublishing'} aria-describedby={describedBy} onClick={() => void unpublish()}>
            {m.publishing_unpublish()}
          </button>
        ) : (
          <button type="button" className="button primary" disabled={clip.PublishState === 'Publishing'} aria-describedby={describedBy} onClick={() => void publish()}>
            {m.publishing_publish()}
          </button>
        )}
      </div>
      {refusedPublish && (
        <RefusedChangeAlert item={refusedPublish} id={refusedId} title={refusedPublish.mutation.name === clipUnpublish.name ? m.clips_refused_unpublish() : m.clips_refused_publish()} />
      )}
      {clip.PublishState === 'Published' && (urls.ShowPageUrl || urls.EmbedUrl || urls.AudioPublicUrl) && (
        <div aria-label={m.publishing_links()} role="group">
          <h3>{m.publishing_links()}</h3>
          {urls.ShowPageUrl && <PublicLink label={m.publishing_link_show_page()} path={urls.ShowPageUrl} />}
          {urls.EmbedUrl && <PublicLink label={m.publishing_link_embed()} path={urls.EmbedUrl} />}
          {urls.AudioPublicUrl && <PublicLink label={m.publishing_link_audio()} path={urls.AudioPublicUrl} />}
        </div>
      )}
      <Schedule clip={clip} refused={refused.filter(isScheduleEdit)} />
    </section>
  );
}
