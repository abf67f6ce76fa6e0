// /{organizationId}/programs/{programId}/clips/{clipId} — the clip: its metadata form (validated
// with src/domain, 'Reset' only when changed, 'Apply'), its State / PublishState / Visibility as
// section 4 shows them, the processing problem and its dismissal. Reads and writes the local store.
import { lazy, Suspense, useMemo, useState } from 'react';
import {
  clipLabel,
  clipStateDisplay,
  holdsClipSlug,
  CLIP_STATE_LABEL,
  isPublishPending,
  normaliseTitle,
  normalizeClip,
  seasonEpisodeLabel,
  visibilityNeeds,
  visibleProcessingProblem,
  VISIBILITIES,
} from '../../domain/clip.ts';
import { clipFieldErrors, clipSlugToCheck, normaliseClipPatch, type ClipChange } from '../../domain/clip-rules.ts';
import { formatFormError, domainMessage } from '../../domain/messages.ts';
import { processingProblemText } from '../../media/messages.ts';
import { slugServerError } from '../../domain/server-errors.ts';
import { slugFromTitle } from '../../domain/slugs.ts';
import { parseInteger, splitLines } from '../../domain/validators.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { m } from '../../paraglide/messages.js';
import { deleteClip, dismissProcessingProblem, saveClipCut, updateClip } from '../../db/writes.ts';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { mutationDef } from '../../mutations/registry.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { RefusedChangeAlert } from '../../ui/RefusedChangeAlert.tsx';
import { asClip, asProgram, useRow } from '../../lib/rows.ts';
import { usePlanIncludes, useProgramFlags, useSession } from '../../lib/session.ts';
import { conflictOrigin } from '../../lib/conflict-origin.ts';
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
import { ArtworkPicker } from '../../ui/ArtworkPicker.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { PublishPanel } from './PublishPanel.tsx';
import { ClipTranscript } from './ClipTranscript.tsx';
import { ClipLoudness } from './ClipLoudness.tsx';
import { ClipBrandSafety } from './ClipBrandSafety.tsx';
import { ClipHeadlinerVideos } from './ClipHeadlinerVideos.tsx';
import { ClipChapters } from './ClipChapters.tsx';
import { ClipAdMarkers } from './ClipAdMarkers.tsx';
import type { Clip } from '../../protocol/entities.ts';
import type { CutEdit } from '../../protocol/media.ts';
import { getClipOriginalAudio } from '../../protocol/api/media.ts';
import { routeUrl } from '../../lib/api.ts';
import { episodeMarkers } from './episode-markers.ts';

// The audio helper's waveform and cut editor (decoders, canvas): loaded only on a clip with audio.
const ClipAudioPanel = lazy(() => import('../../ui/audio/ClipAudioPanel.tsx').then((mod) => ({ default: mod.ClipAudioPanel })));
// The uploads helper's resumable upload (tus-js-client): a file picked offline is kept and sent later.
const ClipUpload = lazy(() => import('./ClipUpload.tsx').then((mod) => ({ default: mod.ClipUpload })));

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

/** The other clips of the program on this device that hold a slug, as a test of a slug (the
 * server makes the final check; this one spares a round trip and works offline against what was
 * synced). */
async function slugsHeldLocally(clip: Clip): Promise<(slug: string) => boolean> {
  const others = await db.clips.where('ProgramId').equals(clip.ProgramId).toArray();
  return (slug) => others.some((other) => holdsClipSlug(other, clip, slug));
}

/** A datetime-local value (local time) as an ISO instant; text that is no date stays as it is,
 * for the rules to refuse. */
function fromLocalInput(value: string): string | null {
  if (value === '') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}

const text = (s: string): string | null => (s.trim() === '' ? null : s);

/** The changed fields as the change to save (wire values), normalised as the server stores them. */
function toPatch(changed: Partial<FormValues>): Record<string, unknown> & ClipChange {
  const patch: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(changed)) {
    const key = k as keyof FormValues;
    if (key === 'MemberDownloadsAdFree' || key === 'Visibility') patch[key] = raw;
    else if (key === 'Season' || key === 'Episode') patch[key] = raw === '' ? null : parseInteger(raw as string);
    else if (key === 'Tags') patch[key] = splitLines(raw as string);
    else if (key === 'VisibleAtUtc') patch[key] = fromLocalInput(raw as string);
    else patch[key] = text(raw as string);
  }
  return normaliseClipPatch(patch);
}

/** What the rules read: the change, with Season and Episode as typed (text that is no number is
 * refused as such, not dropped). */
function toRuleChange(changed: Partial<FormValues>): ClipChange {
  const change: ClipChange = toPatch(changed);
  if (changed.Season !== undefined) change.Season = changed.Season;
  if (changed.Episode !== undefined) change.Episode = changed.Episode;
  return change;
}

/** What a refused change of this clip tried: the fields it would have set, or null for a change
 * that sets none (a delete, an audio or cut action). */
function refusedFields(item: NeedsAttentionEntry): Record<string, unknown> | null {
  const def = mutationDef(item.mutation.name);
  if (def === undefined || def.entity !== 'clips') return null;
  if (def.kind === 'update') return def.fields(item.mutation.args);
  const fields = def.kind === 'create' ? item.mutation.args['fields'] : undefined;
  return typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : null;
}

/** At a form field: the server's reason for refusing it (in the user's language), and the value
 * the refused change tried to give it ('' for none); the latest refused change wins. */
type Refusal = { message?: string; tried?: string };

function refusalsByField(items: readonly NeedsAttentionEntry[], clip: Clip): Partial<Record<keyof FormValues, Refusal>> {
  const out: Partial<Record<keyof FormValues, Refusal>> = {};
  for (const item of items) {
    const fields = refusedFields(item) ?? {};
    const tried = toFormValues({ ...clip, ...fields } as Clip);
    for (const k of Object.keys(fields)) {
      const value = isFormField(k, tried) ? tried[k] : undefined;
      if (typeof value === 'string') out[k as keyof FormValues] = { tried: shownValue(k as keyof FormValues, value) };
    }
    for (const fe of item.errors) {
      if (isFormField(fe.Field, tried)) out[fe.Field] = { ...(fields[fe.Field] === undefined ? {} : out[fe.Field]), message: refusedFieldText(fe, 'clips') };
    }
  }
  return out;
}

/** A form value as the user reads it ('' for none). */
function shownValue(field: keyof FormValues, value: string): string {
  if (value === '') return '';
  if (field === 'Visibility' || field === 'ScheduledVisibility') return visibilityLabel(value);
  if (field === 'VisibleAtUtc') return formatDateTime(fromLocalInput(value) ?? value);
  return value;
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
  /** The slug this screen made from the title, while the Slug field still holds it. */
  const [proposedSlug, setProposedSlug] = useState<string | null>(null);
  useUnsavedGuard('form', form.dirty);
  const v = form.values;
  const refused = useLiveQuery(() => db.needsAttention.where('entityId').equals(clip.Id).sortBy('createdAt'), [clip.Id]) ?? [];
  const refusals = refusalsByField(refused, clip);
  // This form's own error (a rule, or a refused value put back by Edit again) first, else the
  // server's reason for refusing the field, until the user types another value there.
  const refusalAt = (k: keyof FormValues): Refusal | undefined => (k in form.changed ? undefined : refusals[k]);
  const err = (k: keyof FormValues) => {
    const e = errors[k];
    if (e === undefined) return refusalAt(k)?.message;
    return typeof e === 'string' ? e : formatFormError(e);
  };
  const hintText = (k: keyof FormValues): string | undefined => {
    if (k === 'Slug' && proposedSlug !== null && v.Slug === proposedSlug) return m.app_clip_slug_from_title();
    const tried = refusalAt(k)?.tried;
    if (tried === undefined) return undefined;
    return tried === '' ? m.app_clip_refused_value_empty() : m.app_clip_refused_value({ value: tried });
  };
  /** A field's error and hint as Field takes them. */
  const at = (k: keyof FormValues, ownHint?: string) => {
    const h = hintText(k) ?? ownHint;
    return { error: err(k), ...(h === undefined ? {} : { hint: h }) };
  };
  /** A visibility that needs a slug (section 4), chosen while the Slug field is empty, fills it
   * from the title (section 5's normaliser; a slug of the program in use gets the next number),
   * for the user to see and change before Apply. */
  const chooseVisibility = async (visibility: string) => {
    form.set('Visibility', visibility);
    const untouchedProposal = proposedSlug !== null && v.Slug === proposedSlug;
    if (!visibilityNeeds(visibility, 'Slug')) {
      // Back to Private: the slug made for the other visibility goes, so it is not saved unasked.
      if (untouchedProposal) form.set('Slug', baseline.Slug);
      setProposedSlug(null);
      return;
    }
    if (v.Slug.trim() !== '') return;
    const slug = slugFromTitle(normaliseTitle(v.Title), await slugsHeldLocally(clip));
    if (slug === null) return;
    form.set('Slug', slug);
    setProposedSlug(slug);
  };
  const programHref = `/${organizationId}/programs/${programId}`;

  const apply = async () => {
    // The rules the server runs (src/domain/clip-rules.ts), before anything is queued.
    const change = toRuleChange(form.changed);
    const e: Errors = clipFieldErrors(clip, change, { isNew: false });
    const slug = clipSlugToCheck(clip, change, { isNew: false });
    if (!e.Slug && slug !== null && (await slugsHeldLocally(clip))(slug)) e.Slug = slugServerError('SlugExists', 'clip')!;
    setErrors(e);
    if (Object.keys(e).length > 0) {
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    // A local write: the loading bar's 100 ms delay keeps it hidden unless IndexedDB makes us wait.
    // When it fails the form keeps its values, so Apply can be pressed again once the cause is gone.
    if (!(await withLoading(savedLocally(updateClip(clip.Id, toPatch(form.changed)))))) return;
    // A refused change whose every field this one sets again is answered by it.
    const answered = refused.filter((item) => {
      const fields = [...Object.keys(refusedFields(item) ?? {}), ...item.errors.map((fe) => fe.Field)];
      return fields.length > 0 && fields.every((f) => f in form.changed);
    });
    for (const item of answered) void savedLocally(dismissNeedsAttention(item.id));
    form.reset();
    setProposedSlug(null);
    showToast({ type: 'success', title: m.app_form_saved() });
  };

  const bind = (k: Exclude<keyof FormValues, 'MemberDownloadsAdFree'>) => ({
    value: v[k],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => form.set(k, e.target.value),
  });
  const se = seasonEpisodeLabel(clip);
  // Whose edit the clip's open conflicts are against: the user's own on another device is worded so.
  const userId = useSession()?.session?.User?.Id;
  const conflictWith = useLiveQuery(async () => conflictOrigin(await db.conflicts.where('entityId').equals(clip.Id).toArray(), userId), [clip.Id, userId]) ?? 'none';
  const inConflict = conflictWith !== 'none';
  // Analytics of a clip need analytics access on its program (the clip's content access is given here).
  const program = useRow('programs', programId);
  const flaggedForAnalytics = useProgramFlags(organizationId, program.state === 'ok' ? asProgram(program.row) : null)?.HasAnalyticsAccess ?? false;
  // Section 6: and the organization's plan includes playlist-download-analytics.
  const analytics = usePlanIncludes(organizationId, 'playlist-download-analytics') && flaggedForAnalytics;
  /** Puts a refused change's values back in the form, with the server's reasons at their fields,
   * so the user corrects it here and applies again (the item leaves the needs-attention list). */
  const editAgain = async (item: NeedsAttentionEntry) => {
    const body = refusedFields(item) ?? {};
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
          <>
            {analytics && <Link href={`${programHref}/clips/${clip.Id}/analytics`} className="button">{m.analytics_tab()}</Link>}
            <button type="button" className="button danger-outline" onClick={() => setConfirmDelete(true)}>
              {m.app_clip_delete()}
            </button>
          </>
        }
      />
      {inConflict && (
        <p role="alert" className="alert alert-warning">
          {conflictWith === 'own' ? m.conflicts_clip_own_edit() : m.app_clip_in_conflict()} <Link href={`/${organizationId}/sync`}>{m.app_clip_resolve_conflict()}</Link>
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
          <Field label={m.app_clip_field_title()} {...at('Title')}>
            <input {...bind('Title')} />
          </Field>
          <Field label={m.app_clip_field_description()} {...at('Description')}>
            <textarea rows={5} {...bind('Description')} />
          </Field>
          <Field label={m.app_clip_field_short_summary()} {...at('ShortSummary')}>
            <textarea rows={2} {...bind('ShortSummary')} />
          </Field>
          <div className="field-row">
            <Field label={m.app_clip_field_season()} {...at('Season')}>
              <input inputMode="numeric" {...bind('Season')} />
            </Field>
            <Field label={m.app_clip_field_episode()} {...at('Episode')}>
              <input inputMode="numeric" {...bind('Episode')} />
            </Field>
            <Field label={m.app_clip_field_episode_type()} {...at('EpisodeType')}>
              <select {...bind('EpisodeType')}>
                <option value="">{m.app_clip_none()}</option>
                <option value="Full">{m.app_episode_type_full()}</option>
                <option value="Trailer">{m.app_episode_type_trailer()}</option>
                <option value="Bonus">{m.app_episode_type_bonus()}</option>
              </select>
            </Field>
          </div>
          <Field label={m.app_clip_field_tags()} {...at('Tags', m.app_clip_field_tags_hint())}>
            <textarea rows={3} {...bind('Tags')} />
          </Field>
          <div className="field-row">
            <Field label={m.app_clip_field_content_rating()} {...at('ContentRating')}>
              <select {...bind('ContentRating')}>
                <option value="">{m.app_clip_none()}</option>
                <option value="Clean">{m.app_rating_clean()}</option>
                <option value="Explicit">{m.app_rating_explicit()}</option>
              </select>
            </Field>
            <Field label={m.app_clip_field_slug()} {...at('Slug')}>
              <input autoCapitalize="off" spellCheck={false} {...bind('Slug')} />
            </Field>
          </div>
          <div className="field-row">
            <Field label={m.app_clip_field_visibility()} {...at('Visibility')}>
              <select value={v.Visibility} onChange={(e) => void chooseVisibility(e.target.value)}>
                {VISIBILITIES.map((x) => (
                  <option key={x} value={x}>{visibilityLabel(x)}</option>
                ))}
              </select>
            </Field>
            <Field label={m.app_clip_field_scheduled_visibility()} {...at('ScheduledVisibility')}>
              <select {...bind('ScheduledVisibility')}>
                <option value="">{m.app_clip_none()}</option>
                {VISIBILITIES.map((x) => (
                  <option key={x} value={x}>{visibilityLabel(x)}</option>
                ))}
              </select>
            </Field>
            <Field label={m.app_clip_field_visible_at()} {...at('VisibleAtUtc')}>
              <input type="datetime-local" {...bind('VisibleAtUtc')} />
            </Field>
          </div>
          <div className="field-row">
            <Field label={m.app_clip_field_external_id()} {...at('ExternalId')}>
              <input {...bind('ExternalId')} />
            </Field>
            <Field label={m.app_clip_field_rss_link_override()} {...at('RssLinkOverride')}>
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
                  setProposedSlug(null);
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
              // The cut editor works on the ORIGINAL upload: a saved cut's regions are on its
              // timeline, while the clip's own audio URL serves the published (cut) version. The
              // original's waveform is decoded on the device (cached by the published version's
              // URL, which changes with every new upload or cut).
              audio={{ key: `${clip.Id}|${clip.Urls.AudioPrivateUrl ?? ''}`, urls: { AudioPrivateUrl: routeUrl(getClipOriginalAudio, { params: { clipId: clip.Id } }) } }}
              savedCut={{ clipId: clip.Id, pending: (clip as Clip & { PendingCut?: unknown }).PendingCut }}
              onSaveCut={(edit) => void saveCut(clip.Id, edit)}
              // Its chapters and mid-rolls, read only, where they fall under the cut being edited.
              outputMarkers={episodeMarkers(clip)}
            />
          </Suspense>
        )}
      </section>
      <PublishPanel clip={clip} />
      <ClipTranscript clipId={clip.Id} fileName={clip.Slug ?? clip.Id} audioUrl={clip.Urls.AudioPrivateUrl} audioOffsetSeconds={clip.PublishedIntroSeconds ?? 0} />
      <ClipAdMarkers clip={clip} />
      <ClipChapters clip={clip} organizationId={organizationId} />
      <ClipLoudness clipId={clip.Id} />
      <ClipBrandSafety clipId={clip.Id} />
      <ClipHeadlinerVideos clipId={clip.Id} />
      <section className="card">
        <ArtworkPicker kind="clip" ownerId={clip.Id} organizationId={organizationId} imageUrl={clip.Urls.ImagePublicUrl} />
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

/** A change of this clip the server refused (needs attention), shown where it was made: why and
 * which fields (each refused field also says it at the field, with the value tried), and what to
 * do: correct it here (Edit again), send it again once the cause is gone (Try again), or leave the
 * server's values (Discard). */
function RefusedChange({ item, onEditAgain }: { item: NeedsAttentionEntry; onEditAgain: () => void }) {
  if (mutationDef(item.mutation.name)?.kind !== 'update') return null; // creates and deletes: the sync details say more
  return (
    <RefusedChangeAlert item={item} title={m.app_clip_refused()}>
      <button type="button" className="button primary" onClick={onEditAgain}>{m.app_clip_refused_edit_again()}</button>
    </RefusedChangeAlert>
  );
}
