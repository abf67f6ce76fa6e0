// Ad markers' server-held calls (issue 34; src/protocol/api/ad-markers.ts): the clip's suggestions
// (stored by PUT, made from its audio by the clip.suggest job when none are stored for its current
// audio), the clip-level override of the rules (the named mutation clip.overrideAdMarkerRules, as a
// push would run it) and the validation of markers against the rules (src/domain/ad-markers.ts,
// the rule the clip screen shows at each marker). Reading needs read access to the clip (or to the
// program, to validate); storing suggestions content access; overriding rules, content and
// manage-settings access (the run checks).
import type { Context } from 'hono';
import { adMarkerErrors, adMarkerRulesErrors, adMarkerViolations, effectiveAdMarkerRules, type AdMarker, type AdMarkerRules } from '../../src/domain/ad-markers.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { clipOverrideAdMarkerRules } from '../../src/mutations/ad-markers.ts';
import * as routes from '../../src/protocol/api/ad-markers.ts';
import type { BlobStore } from '../audio/blob-store.ts';
import { publishedAudio } from '../audio/published-media.ts';
import { requestSuggestions, type SuggestionKind } from '../audio/suggestions-job.ts';
import { getAuth } from '../auth.ts';
import { assertValid, badRequest, fieldError } from '../errors.ts';
import { runRest } from '../mutations/rest.ts';
import { loadRow, type WireRow } from '../rows.ts';
import { guard, readableContentRow, readsOnly } from './guard.ts';
import { guarded, resourceApp } from './route.ts';
import { episodeSecondsOf } from '../../src/domain/intro-outro.ts';

type SuggestionRow = { status: 'Ready' | 'Pending' | 'Failed'; items: unknown[]; made_by: 'Studio' | 'Api'; audio_etag: string | null; modified_at_utc: Date };

/** The stored suggestions of the kind, or the job asked to make them for the clip's current audio. */
async function suggestions(c: Context, blobs: BlobStore, kind: SuggestionKind) {
  const clip = c.var.row as WireRow;
  const store = c.get('deps').store;
  const [row] = await store.query<SuggestionRow>(`SELECT status, items, made_by, audio_etag, modified_at_utc FROM clip_suggestions WHERE clip_id = $1 AND kind = $2`, [clip.Id, kind]);
  const audio = await publishedAudio(blobs, clip.Id);
  const answer = (r: SuggestionRow) => ({ ClipId: clip.Id, Status: r.status, MadeBy: r.made_by, ModifiedAtUtc: r.modified_at_utc.toISOString(), Items: r.items });
  // What a PUT stored stands until the next PUT; what the studio made, until the audio changes.
  if (row && (row.made_by === 'Api' || (audio !== null && row.audio_etag === audio.etag))) return answer(row);
  if (!audio) return { ClipId: clip.Id, Status: 'NoAudio' as const, MadeBy: null, ModifiedAtUtc: null, Items: [] };
  await store.tx((q) => requestSuggestions(q, { clipId: clip.Id, organizationId: clip.OrganizationId }, kind, audio.etag));
  return { ClipId: clip.Id, Status: 'Pending' as const, MadeBy: 'Studio' as const, ModifiedAtUtc: null, Items: [] };
}

async function storeSuggestions(c: Context, blobs: BlobStore, kind: SuggestionKind, items: unknown[]): Promise<void> {
  const clip = c.var.row as WireRow;
  const audio = await publishedAudio(blobs, clip.Id);
  await c.get('deps').store.query(
    `INSERT INTO clip_suggestions (clip_id, kind, organization_id, status, items, made_by, audio_etag, modified_at_utc)
     VALUES ($1, $2, $3, 'Ready', $4::jsonb, 'Api', $5, now())
     ON CONFLICT (clip_id, kind) DO UPDATE SET status = 'Ready', items = $4::jsonb, made_by = 'Api', audio_etag = $5, modified_at_utc = now()`,
    [clip.Id, kind, clip.OrganizationId, JSON.stringify(items), audio?.etag ?? null],
  );
}

/** POST …/ad-marker-rules/validation: the markers and length (given, else the clip's), judged by the rules (given, else the clip's override, else the program's). */
async function validate(c: Context, body: { ClipId?: string | undefined; AdMarkers?: AdMarker[] | undefined; DurationSeconds?: number | null | undefined; Rules?: AdMarkerRules | undefined }) {
  const programId = c.var.program.id as string;
  let clip: WireRow | null = null;
  if (body.ClipId !== undefined) {
    const found = await readableContentRow(c, 'clips', body.ClipId.toLowerCase());
    // Another program's clip, or one the caller may not see, is the same answer as none.
    if (!found || found.row['ProgramId'] !== programId) throw badRequest([fieldError('ClipId', formError('invalid', 'domain_invalid'))]);
    clip = found.row;
  } else if (body.AdMarkers === undefined) throw badRequest([fieldError('AdMarkers', formError('required', 'domain_required'))]);
  const markers = body.AdMarkers ?? ((clip?.['AdMarkers'] as AdMarker[] | undefined) ?? []);
  // A clip's own: the episode's length (behind a program intro the published audio is longer by it).
  const duration = body.DurationSeconds !== undefined ? body.DurationSeconds : clip ? episodeSecondsOf(clip) : null;
  assertValid([...Object.entries(adMarkerErrors(markers, duration)), ...(body.Rules ? Object.entries(adMarkerRulesErrors(body.Rules, 'Rules')) : [])]);
  const program = await loadRow(c.get('deps').store, 'program', getAuth(c).organizationId, programId);
  const effective = body.Rules
    ? { Rules: body.Rules, Source: 'Request' as const }
    : effectiveAdMarkerRules(program?.['AdMarkerRules'] as AdMarkerRules | null | undefined, clip?.['AdMarkerRulesOverride'] as AdMarkerRules | null | undefined);
  const violations = adMarkerViolations(markers, effective.Rules, duration).map((v) => ({ ...fieldError(v.field, v.error), Code: v.code }));
  return { Valid: violations.length === 0, Rules: effective.Rules, Source: effective.Source, Violations: violations };
}

export function adMarkerRoutes(blobs: BlobStore) {
  const clip = (...need: 'HasContentAccess'[]) => guard.row('clips', 'clipId', ...need);
  return resourceApp()
    .openapi(guarded(routes.putSuggestedAdMarkers, clip('HasContentAccess')), async (c) => {
      await storeSuggestions(c, blobs, 'ad-markers', c.req.valid('json').Items);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.getSuggestedAdMarkers, clip()), async (c) => c.json((await suggestions(c, blobs, 'ad-markers')) as routes.SuggestedAdMarkers, 200))
    .openapi(guarded(routes.putSuggestedChapters, clip('HasContentAccess')), async (c) => {
      await storeSuggestions(c, blobs, 'chapters', c.req.valid('json').Items);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.getSuggestedChapters, clip()), async (c) => c.json((await suggestions(c, blobs, 'chapters')) as routes.SuggestedChapters, 200))
    .openapi(guarded(routes.overrideAdMarkerRules, clip('HasContentAccess')), async (c) => {
      await runRest(c, clipOverrideAdMarkerRules, { clipId: c.var.row.Id, Rules: c.req.valid('json').Rules }, null);
      return c.body(null, 204);
    })
    // A POST that changes nothing: an unactivated account, which reads, may ask it.
    .openapi(guarded(routes.validateAdMarkers, readsOnly(guard.program('programId', 'HasContentAccess'))), async (c) => c.json(await validate(c, c.req.valid('json')), 200));
}
