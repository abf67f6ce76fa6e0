// /{organizationId}/programs/{programId}/clips/{clipId} — the clip: its metadata form (validated
// with src/domain, 'Reset' only when changed, 'Apply'), its State / PublishState / Visibility as
// section 4 shows them, the processing problem and its dismissal. Reads and writes the local store.
import { lazy, Suspense, useMemo, useState } from 'react';
import { clipLabel, clipStateDisplay, holdsClipSlug, CLIP_STATE_LABEL, isPublishPending, normalizeClip, seasonEpisodeLabel, visibleProcessingProblem } from '../../domain/clip.ts';
import { MAX_INT } from '../../domain/constants.ts';
import { formatFormError, domainMessage } from '../../domain/messages.ts';
import { processingProblemText } from '../../media/messages.ts';
import { slugServerError } from '../../domain/server-errors.ts';
import { parseInteger, splitLines, validateInteger, validateSlug, validateTitle, validateUrl } from '../../domain/validators.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { m } from '../../paraglide/messages.js';
import { deleteClip, dismissProcessingProblem, saveClipCut, updateClip } from '../../db/writes.ts';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { attentionReason, refusedFieldText } from '../../lib/sync-labels.ts';
import { RefusedErrorList } from '../../ui/RefusedErrorList.tsx';
import { asClip, useRow } from '../../lib/rows.ts';
import { formatDateTime, formatSeconds, publishStateLabel, visibilityLabel } from '../../lib/labels.ts';
import { useEditState } from '../../lib/form.ts';
import { Link, navigate } from '../../lib/router.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { showToast } from '../../lib/toast.ts';
import { withLoading } from '../../lib/loading.ts';
import { localWriteFailureText, reportLocalWriteFailure, savedLocally } from '../../lib/local-write.ts';
import { useIdParams } from '../../lib/params.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import type { Clip } from '../../protocol/entities.ts';
import type { CutEdit } from '../../protocol/media.ts';

// The audio helper's waveform and cut editor (decoders, canvas): loaded only on a clip with audio.
const ClipAudioPanel = lazy(() => import('../../ui/audio/ClipAudioPanel.tsx').then((mod) => ({ default: mod.ClipAudioPanel })));
// The uploads helper's resumable upload (tus-js-client): a file picked offline is kept and sent later.
const ClipUpload = lazy(() => import('./ClipUpload.tsx').then((mod) => ({ default: mod.ClipUpload })));

const VISIBILITIES = ['Private', 'Public', 'Unlisted', 'Restricted'] as const;

type FormValues = {
  Title: string;
  Description: string;
  ShortSummary: string;
  Season: string;
  Episode: string;
  EpisodeType: string;
  Tags: string;
  ContentRating: string;
  Slug: string;
  Visibility: string;
  ScheduledVisibility: string;
  VisibleAtUtc: string;
  ExternalId: string;
  RssLinkOverride: string;
  MemberDownloadsAdFree: boolean;
};

/** ISO UTC → the value of a datetime-local input (local time, minutes). */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function toFormValues(c: Clip): FormValues {
  return {
    Title: c.Title ?? '',
    Description: c.Description ?? '',
    ShortSummary: c.ShortSummary ?? '',
    Season: c.Season === null ? '' : String(c.Season),
    Episode: c.Episode === null ? '' : String(c.Episode),
    EpisodeType: c.EpisodeType ?? '',
    Tags: (c.Tags ?? []).join('\n'),
    ContentRating: c.ContentRating ?? '',
    Slug: c.Slug ?? '',
    Visibility: c.Visibility,
    ScheduledVisibility: c.ScheduledVisibility ?? '',
    VisibleAtUtc: toLocalInput(c.VisibleAtUtc),
    ExternalId: c.ExternalId ?? '',
    RssLinkOverride: c.RssLinkOverride ?? '',
    MemberDownloadsAdFree: c.MemberDownloadsAdFree,
  };
}

/** A field's error: from the domain's validators, or the words of a refused change's error
 * (sync-labels refusedFieldText). */
type Errors = Partial<Record<keyof FormValues, FormError | string>>;

const isFormField = (field: string, values: FormValues): field is keyof FormValues => Object.hasOwn(values, field);

/** Another clip of the program, on this device, already uses the slug (the server makes the final
 * check; this one spares a round trip and works offline against what was synced). */
async function slugTakenLocally(clip: Clip, slug: string): Promise<boolean> {
  if (slug === '' || slug === clip.Slug) return false;
  const holder = await db.clips.where('ProgramId').equals(clip.ProgramId).filter((other) => holdsClipSlug(other, clip, slug)).first();
  return holder !== undefined;
}

function validate(v: FormValues, saved: Clip): Errors {
  const e: Errors = {};
  const put = (k: keyof FormValues, err: FormError | null) => {
    if (err) e[k] = err;
  };
  // A clip may stay untitled ('Untitled clip'); a title that is given obeys the length rules.
  put('Title', validateTitle(v.Title, { required: false }));
  put('Season', validateInteger(v.Season, { required: false, min: 0, max: MAX_INT }));
  put('Episode', validateInteger(v.Episode, { required: false, min: 0, max: MAX_INT }));
  put('Slug', validateSlug(v.Slug, { savedSlug: saved.Slug, alwaysRequired: v.Visibility !== 'Private' && saved.Slug !== null }));
  put('RssLinkOverride', validateUrl(v.RssLinkOverride, { required: false }));
  // ScheduledVisibility and VisibleAtUtc: both set or both null (section 4).
  if (v.ScheduledVisibility && !v.VisibleAtUtc) e.VisibleAtUtc = { type: 'required' };
  if (!v.ScheduledVisibility && v.VisibleAtUtc) e.ScheduledVisibility = { type: 'required' };
  return e;
}

const text = (s: string): string | null => (s.trim() === '' ? null : s);

function toPatch(changed: Partial<FormValues>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(changed)) {
    const key = k as keyof FormValues;
    if (key === 'MemberDownloadsAdFree') patch[key] = raw;
    else if (key === 'Season' || key === 'Episode') patch[key] = raw === '' ? null : parseInteger(raw as string);
    else if (key === 'Tags') patch[key] = splitLines(raw as string);
    else if (key === 'VisibleAtUtc') patch[key] = raw ? new Date(raw as string).toISOString() : null;
    else if (key === 'Title') patch[key] = text(raw as string)?.trim() ?? null; // whitespace-only → null
    else if (key === 'Visibility') patch[key] = raw;
    else patch[key] = text(raw as string);
  }
  return patch;
}

export function ClipScreen() {
  const { organizationId, programId, clipId } = useIdParams('organizationId', 'programId', 'clipId');
  const row = useRow('clips', clipId);
  if (row.state === 'missing') return <NotFoundPage kind="clip" />;
  if (row.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const clip = asClip(row.row);
  if (clip.ProgramId !== programId) return <NotFoundPage kind="clip" />;
  return <ClipEditor key={clip.Id} clip={clip} organizationId={organizationId} programId={programId} />;
}

function ClipEditor({ clip, organizationId, programId }: { clip: Clip; organizationId: string; programId: string }) {
  const baseline = useMemo(() => toFormValues(clip), [clip]);
  const form = useEditState(baseline);
  const [errors, setErrors] = useState<Errors>({});
  const [confirmDelete, setConfirmDelete] = useState(false);
  useUnsavedGuard('form', form.dirty);
  const v = form.values;
  const err = (k: keyof FormValues) => {
    const e = errors[k];
    return e === undefined ? undefined : typeof e === 'string' ? e : formatFormError(e);
  };
  const programHref = `/${organizationId}/programs/${programId}`;

  const apply = async () => {
    const e: Errors = validate(v, clip);
    if (!e.Slug && 'Slug' in form.changed && (await slugTakenLocally(clip, v.Slug))) e.Slug = slugServerError('SlugExists', 'clip')!;
    setErrors(e);
    if (Object.keys(e).length > 0) {
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    // A local write: the loading bar's 100 ms delay keeps it hidden unless IndexedDB makes us wait.
    // When it fails the form keeps its values, so Apply can be pressed again once the cause is gone.
    if (!(await withLoading(savedLocally(updateClip(clip.Id, toPatch(form.changed)))))) return;
    form.reset();
    showToast({ type: 'success', title: m.app_form_saved() });
  };

  const bind = (k: Exclude<keyof FormValues, 'MemberDownloadsAdFree'>) => ({
    value: v[k],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => form.set(k, e.target.value),
  });
  const se = seasonEpisodeLabel(clip);
  const inConflict = (useLiveQuery(() => db.conflicts.where('entityId').equals(clip.Id).count(), [clip.Id]) ?? 0) > 0;
  const refused = useLiveQuery(() => db.needsAttention.where('entityId').equals(clip.Id).sortBy('createdAt'), [clip.Id]) ?? [];
  /** Puts a refused change's values back in the form, with the server's reasons at their fields,
   * so the user corrects it here and applies again (the item leaves the needs-attention list). */
  const editAgain = async (item: NeedsAttentionEntry) => {
    const body = item.mutation.body ?? {};
    const values = toFormValues({ ...clip, ...body } as Clip);
    for (const k of Object.keys(body)) if (isFormField(k, values)) form.set(k, values[k]);
    const e: Errors = {};
    for (const fe of item.errors) if (isFormField(fe.Field, values)) e[fe.Field] = refusedFieldText(fe, 'clips');
    setErrors(e);
    await savedLocally(dismissNeedsAttention(item.id));
  };

  return (
    <>
      <PageHeader
        eyebrow={se ?? undefined}
        title={clipLabel(clip)}
        link={<Link href={programHref}>{m.app_back()}</Link>}
        actions={
          <button type="button" className="button danger-outline" onClick={() => setConfirmDelete(true)}>
            {m.app_clip_delete()}
          </button>
        }
      />
      {inConflict && (
        <p role="alert" className="alert alert-warning">
          {m.app_clip_in_conflict()} <Link href={`/${organizationId}/sync`}>{m.app_clip_resolve_conflict()}</Link>
        </p>
      )}
      {refused.map((item) => (
        <RefusedChange key={item.id} item={item} onEditAgain={() => void editAgain(item)} />
      ))}
      <div className="clip-layout">
        <form
          className="card form"
          noValidate
          aria-label={m.app_clip_details()}
          onSubmit={(e) => {
            e.preventDefault();
            void apply();
          }}
        >
          <h2>{m.app_clip_details()}</h2>
          <Field label={m.app_clip_field_title()} error={err('Title')}>
            <input {...bind('Title')} />
          </Field>
          <Field label={m.app_clip_field_description()}>
            <textarea rows={5} {...bind('Description')} />
          </Field>
          <Field label={m.app_clip_field_short_summary()}>
            <textarea rows={2} {...bind('ShortSummary')} />
          </Field>
          <div className="field-row">
            <Field label={m.app_clip_field_season()} error={err('Season')}>
              <input inputMode="numeric" {...bind('Season')} />
            </Field>
            <Field label={m.app_clip_field_episode()} error={err('Episode')}>
              <input inputMode="numeric" {...bind('Episode')} />
            </Field>
            <Field label={m.app_clip_field_episode_type()}>
              <select {...bind('EpisodeType')}>
                <option value="">{m.app_clip_none()}</option>
                <option value="Full">{m.app_episode_type_full()}</option>
                <option value="Trailer">{m.app_episode_type_trailer()}</option>
                <option value="Bonus">{m.app_episode_type_bonus()}</option>
              </select>
            </Field>
          </div>
          <Field label={m.app_clip_field_tags()} hint={m.app_clip_field_tags_hint()}>
            <textarea rows={3} {...bind('Tags')} />
          </Field>
          <div className="field-row">
            <Field label={m.app_clip_field_content_rating()}>
              <select {...bind('ContentRating')}>
                <option value="">{m.app_clip_none()}</option>
                <option value="Clean">{m.app_rating_clean()}</option>
                <option value="Explicit">{m.app_rating_explicit()}</option>
              </select>
            </Field>
            <Field label={m.app_clip_field_slug()} error={err('Slug')}>
              <input autoCapitalize="off" spellCheck={false} {...bind('Slug')} />
            </Field>
          </div>
          <div className="field-row">
            <Field label={m.app_clip_field_visibility()}>
              <select {...bind('Visibility')}>
                {VISIBILITIES.map((x) => (
                  <option key={x} value={x}>{visibilityLabel(x)}</option>
                ))}
              </select>
            </Field>
            <Field label={m.app_clip_field_scheduled_visibility()} error={err('ScheduledVisibility')}>
              <select {...bind('ScheduledVisibility')}>
                <option value="">{m.app_clip_none()}</option>
                {VISIBILITIES.map((x) => (
                  <option key={x} value={x}>{visibilityLabel(x)}</option>
                ))}
              </select>
            </Field>
            <Field label={m.app_clip_field_visible_at()} error={err('VisibleAtUtc')}>
              <input type="datetime-local" {...bind('VisibleAtUtc')} />
            </Field>
          </div>
          <div className="field-row">
            <Field label={m.app_clip_field_external_id()}>
              <input {...bind('ExternalId')} />
            </Field>
            <Field label={m.app_clip_field_rss_link_override()} error={err('RssLinkOverride')}>
              <input type="url" {...bind('RssLinkOverride')} />
            </Field>
          </div>
          <CheckboxField label={m.app_clip_field_member_ad_free()} checked={v.MemberDownloadsAdFree} onChange={(c) => form.set('MemberDownloadsAdFree', c)} />
          <div className="form-actions sticky-actions">
            {form.dirty && (
              <button
                type="button"
                className="button"
                onClick={() => {
                  form.reset();
                  setErrors({});
                }}
              >
                {m.app_form_reset()}
              </button>
            )}
            <button type="submit" className="button primary" disabled={!form.dirty}>
              {m.app_form_apply()}
            </button>
          </div>
        </form>
        <ClipStatusPanel clip={clip} />
      </div>
      <section className="card" aria-labelledby="clip-audio">
        <h2 id="clip-audio">{m.app_clip_audio()}</h2>
        <Suspense fallback={null}>
          <ClipUpload organizationId={organizationId} clipId={clip.Id} />
        </Suspense>
        {(clip.Urls.AudioPrivateUrl || clip.Urls.WaveformHighResUrl) && (
          <Suspense fallback={<p className="muted">{m.app_loading()}</p>}>
            <ClipAudioPanel
              audio={{ key: clip.Id, durationSeconds: clip.DurationSeconds, urls: clip.Urls }}
              savedCut={{ clipId: clip.Id, pending: (clip as Clip & { PendingCut?: unknown }).PendingCut }}
              onSaveCut={(edit) => void saveCut(clip.Id, edit)}
            />
          </Suspense>
        )}
      </section>
      <ConfirmDialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        danger
        prompt
        title={m.app_clip_delete_title()}
        description={m.app_clip_delete_text({ title: clipLabel(clip) })}
        actionLabel={m.app_dialog_delete()}
        onConfirm={() => deleteClip(clip.Id)}
        successToast={m.app_clip_deleted()}
        failureDescription={m.app_clip_delete_failed()}
        failureReason={localWriteFailureText}
        onDone={() => navigate(programHref, { replace: true })}
      />
    </>
  );
}

/** The cut is queued through the outbox like every other edit, so a cut made offline is not lost;
 *  the server renders it from the original audio once it arrives. */
async function saveCut(clipId: string, edit: CutEdit): Promise<void> {
  try {
    await saveClipCut(clipId, { ...edit });
    showToast({ type: 'success', title: m.app_clip_cut_saved() });
  } catch (error) {
    reportLocalWriteFailure(error, m.app_clip_cut_failed());
  }
}

function ClipStatusPanel({ clip }: { clip: Clip }) {
  const normalised = normalizeClip({ ...clip, ...clip.Urls });
  const state = clipStateDisplay(clip.State);
  const problem = visibleProcessingProblem(clip);
  const pending = isPublishPending(clip.PublishState);
  return (
    <aside className="card status-panel" aria-labelledby="clip-status">
      <h2 id="clip-status">{m.app_clip_status()}</h2>
      <dl className="status-list">
        <dt>{m.app_clip_state_label()}</dt>
        <dd>
          {normalised.ok ? (
            state && <span className={`pill pill-${state}`}>{domainMessage(CLIP_STATE_LABEL[state])}</span>
          ) : (
            <span className="pill pill-error" title={normalised.field}>{m.app_state_data_error()}</span>
          )}
        </dd>
        <dt>{m.app_clip_publish_label()}</dt>
        <dd>
          <span className={pending ? 'pill pill-pending' : 'pill'}>{publishStateLabel(clip.PublishState)}</span>
        </dd>
        <dt>{m.app_clip_visibility_label()}</dt>
        <dd>
          {visibilityLabel(clip.Visibility)}
          {clip.ScheduledVisibility && clip.VisibleAtUtc && (
            <span className="muted"> → {visibilityLabel(clip.ScheduledVisibility)} · {formatDateTime(clip.VisibleAtUtc)}</span>
          )}
        </dd>
        <dt>{m.app_clip_duration()}</dt>
        <dd>{formatSeconds(clip.DurationSeconds)}</dd>
      </dl>
      {problem && (
        <div className="alert alert-warning" role="alert">
          <p>
            <strong>{m.app_clip_processing_problem()}:</strong> {processingProblemText(problem)}
          </p>
          <button type="button" className="button small" onClick={() => void savedLocally(dismissProcessingProblem(clip.Id))}>
            {m.app_clip_dismiss_problem()}
          </button>
        </div>
      )}
    </aside>
  );
}

/** A change of this clip the server refused (needs attention), shown where it was made: why, which
 * fields, and the way to correct it here; Discard leaves the server's values. */
function RefusedChange({ item, onEditAgain }: { item: NeedsAttentionEntry; onEditAgain: () => void }) {
  if (item.mutation.method !== 'PATCH') return null; // creates and deletes: the sync details say more
  return (
    <div role="alert" className="alert alert-danger">
      <p>
        <strong>{m.app_clip_refused()}</strong> {attentionReason(item.httpStatus)}
      </p>
      <RefusedErrorList item={item} />
      <div className="form-actions">
        <button type="button" className="button" onClick={() => void savedLocally(dismissNeedsAttention(item.id))}>{m.app_attention_dismiss()}</button>
        <button type="button" className="button primary" onClick={onEditAgain}>{m.app_clip_refused_edit_again()}</button>
      </div>
    </div>
  );
}
