// The server runs of the content mutations (src/mutations/content.ts): section 6 permissions,
// section 5 rules and the preconditions, inside the caller's transaction. A REST call and a sync
// push run the same function with the same arguments, so a queued edit is judged exactly as the
// online call would be.
//
//   run(s, args, expected): row, locked ──access (404 / 403)──> If-Match / base (412 with the row)
//                           ──field rules (400, every invalid field)──> insert / update
import { randomUUID } from 'node:crypto';
import { validateInteger, validateRequired } from '../../src/domain/validators.ts';
import { permissionsFor } from '../../src/domain/permissions.ts';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';
import { emptyProgramPodcast, normaliseProgramPatch, programFieldErrors, programPodcast, type ProgramReference } from '../../src/domain/program-rules.ts';
import * as m from '../../src/mutations/content.ts';
import { assertValid, notFound } from '../errors.ts';
import { checkPrecondition } from '../http.ts';
import { loadRow, type WireRow } from '../rows.ts';
import { applyClipChange, checkSlug, invalid, nameCheck, normaliseTitle, titleCheck } from '../routes/content-rules.ts';
import { ensureNewId, lockContent, lockRow, networkAccess, orgFlags, programAccess, requireFlags, type OpStore } from './store.ts';
import { serverMutation } from './run.ts';
import { applyAutoAddInRun } from './playlists.ts';
import { LANGUAGES } from '../reference/languages.ts';
import { PODCAST_CATEGORIES } from '../reference/podcast-categories.ts';
import { newClipMemberDownloadsAdFree } from './program-settings.ts';
import { enqueueIntroOutroSweep } from '../audio/intro-outro.ts';
import { enqueueHeadlinerSweep } from '../headliner/job.ts';

/** The reference lists a program's Language and Category come from (GET /v1/reference-data/*). */
const PROGRAM_REFERENCE: ProgramReference = { languages: LANGUAGES, categories: PODCAST_CATEGORIES };

/** A new Id for a create the caller did not name one for (REST); a queued create always has one. */
export const newId = () => randomUUID();

/** Soft delete of a live content row (content access on its program). */
const softDelete = (entity: 'playlist' | 'clip' | 'recording') => async (s: OpStore, id: string, expected: string | null) => {
  const { current } = await lockContent(s, entity, id);
  checkPrecondition(expected, current);
  return s.update(entity, current, { ...current, Deleted: true });
};

async function liveNetwork(s: OpStore, networkId: string | null, field: string): Promise<void> {
  if (!networkId) return;
  const network = await loadRow(s.q, 'network', s.auth.organizationId, networkId);
  if (!network || network.Deleted) throw invalid(field);
}

export const CONTENT_RUNS = [
  // ── Networks ─────────────────────────────────────────────────────────────────────────────
  serverMutation(m.networkCreate, async (s, a) => {
    requireFlags(orgFlags(s.auth), 'HasManageOrganizationSettingsAccess');
    assertValid([nameCheck(a.fields.Name)]);
    await ensureNewId(s, 'network', a.networkId);
    return s.insert('network', a.networkId, { Name: a.fields.Name!.trim(), Urls: { ImagePublicUrl: null } });
  }),
  serverMutation(m.networkUpdate, async (s, a, expected) => {
    const current = await networkAccess(s, a.networkId, true);
    requireFlags(orgFlags(s.auth), 'HasManageOrganizationSettingsAccess');
    checkPrecondition(expected, current);
    if ('Name' in a.fields) assertValid([nameCheck(a.fields.Name)]);
    return s.update('network', current, { ...current, ...a.fields, ...(a.fields.Name ? { Name: a.fields.Name.trim() } : {}) });
  }),
  serverMutation(m.networkDelete, async (s, a, expected) => {
    const current = await networkAccess(s, a.networkId, true);
    requireFlags(orgFlags(s.auth), 'HasManageOrganizationSettingsAccess');
    checkPrecondition(expected, current);
    return s.update('network', current, { ...current, Deleted: true });
  }),

  // ── Programs ─────────────────────────────────────────────────────────────────────────────
  serverMutation(m.programCreate, async (s, a) => {
    const networkId = a.fields.NetworkId?.toLowerCase() ?? null;
    const target = networkId ? { kind: 'network' as const, networkId } : { kind: 'organization' as const };
    requireFlags(permissionsFor(s.auth.permissions, target), 'HasCreateProgramAccess');
    const podcast = normaliseProgramPatch(a.fields);
    assertValid([nameCheck(a.fields.Name), ...Object.entries(programFieldErrors({}, podcast, PROGRAM_REFERENCE))]);
    await liveNetwork(s, networkId, 'NetworkId');
    await ensureNewId(s, 'program', a.programId);
    const slug = a.fields.Slug ?? null;
    await checkSlug(s.q, 'program', slug, { alwaysRequired: false, savedSlug: null, organizationId: s.auth.organizationId, selfId: a.programId });
    return s.insert('program', a.programId, {
      Name: a.fields.Name!.trim(),
      NetworkId: networkId,
      Slug: slug,
      Description: a.fields.Description ?? null,
      Urls: { ImagePublicUrl: null },
      ...programPodcast(podcast),
    });
  }),
  serverMutation(m.programUpdate, async (s, a, expected) => {
    const { flags } = await programAccess(s, a.programId);
    const current = await lockRow(s, 'program', a.programId);
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    const body = normaliseProgramPatch(a.fields);
    assertValid([...('Name' in body ? [nameCheck(body.Name)] : []), ...Object.entries(programFieldErrors(current, body, PROGRAM_REFERENCE))]);
    // A row made before the podcast fields gets them all on its first change (absent = the defaults).
    const next: Record<string, unknown> = { ...emptyProgramPodcast(), ...current, ...body };
    if (body.Name) next['Name'] = body.Name.trim();
    if ('NetworkId' in body) {
      const networkId = body.NetworkId?.toLowerCase() ?? null;
      // A program goes only where its mover may create one (section 6: HasCreateProgramAccess at
      // the network, or at the organization for none); checked before the network's existence,
      // so a network the caller may not see answers as one that does not exist.
      if (networkId !== ((current['NetworkId'] as string | null) ?? null)) {
        const target = networkId ? { kind: 'network' as const, networkId } : { kind: 'organization' as const };
        requireFlags(permissionsFor(s.auth.permissions, target), 'HasCreateProgramAccess');
      }
      await liveNetwork(s, networkId, 'NetworkId');
      next['NetworkId'] = networkId;
    }
    if ('Slug' in body) {
      await checkSlug(s.q, 'program', body.Slug ?? null, {
        alwaysRequired: false,
        savedSlug: (current['Slug'] as string | null) ?? null,
        organizationId: s.auth.organizationId,
        selfId: a.programId,
      });
    }
    return s.update('program', current, next);
  }),
  serverMutation(m.programDelete, async (s, a, expected) => {
    const { flags } = await programAccess(s, a.programId);
    const current = await lockRow(s, 'program', a.programId);
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    // Its intro and outro files go after the media grace period, by a job written with the deletion.
    if (current['Deleted'] !== true) await enqueueIntroOutroSweep(s.q, s.auth.organizationId, a.programId);
    return s.update('program', current, { ...current, Deleted: true });
  }),

  // ── Playlists ────────────────────────────────────────────────────────────────────────────
  serverMutation(m.playlistCreate, async (s, a) => {
    const { flags } = await programAccess(s, a.programId);
    requireFlags(flags, 'HasContentAccess');
    assertValid([titleCheck(a.fields.Title)]);
    await ensureNewId(s, 'playlist', a.playlistId);
    const slug = a.fields.Slug ?? null;
    await checkSlug(s.q, 'playlist', slug, { alwaysRequired: false, savedSlug: null, organizationId: s.auth.organizationId, selfId: a.playlistId });
    return s.insert('playlist', a.playlistId, {
      ProgramId: a.programId,
      Title: a.fields.Title!.trim(),
      Slug: slug,
      Description: a.fields.Description ?? null,
      Visibility: a.fields.Visibility ?? 'Private',
      ClipIds: [],
      Urls: { ImagePublicUrl: null },
    });
  }),
  serverMutation(m.playlistUpdate, async (s, a, expected) => {
    const { current } = await lockContent(s, 'playlist', a.playlistId);
    checkPrecondition(expected, current);
    const body = a.fields;
    if ('Title' in body) assertValid([titleCheck(body.Title)]);
    if ('Slug' in body) {
      await checkSlug(s.q, 'playlist', body.Slug ?? null, {
        alwaysRequired: false,
        savedSlug: (current['Slug'] as string | null) ?? null,
        organizationId: s.auth.organizationId,
        selfId: a.playlistId,
      });
    }
    const next: Record<string, unknown> = { ...current, ...body };
    if (body.Title) next['Title'] = body.Title.trim();
    return s.update('playlist', current, next);
  }),
  serverMutation(m.playlistSetClips, async (s, a, expected) => {
    const clipIds = a.ClipIds;
    if (new Set(clipIds).size !== clipIds.length) throw invalid('ClipIds');
    const { current } = await lockContent(s, 'playlist', a.playlistId);
    checkPrecondition(expected, current);
    // A playlist holds live clips of its own program only.
    const found = await s.q.query<{ id: string }>(`SELECT id FROM clips WHERE id = ANY($1::uuid[]) AND program_id = $2 AND organization_id = $3 AND NOT deleted`, [
      clipIds,
      current['ProgramId'],
      s.auth.organizationId,
    ]);
    if (found.length !== clipIds.length) throw invalid('ClipIds');
    return s.update('playlist', current, { ...current, ClipIds: clipIds });
  }),
  serverMutation(m.playlistDelete, (s, a, expected) => softDelete('playlist')(s, a.playlistId, expected)),

  // ── Clips ────────────────────────────────────────────────────────────────────────────────
  serverMutation(m.clipCreate, async (s, a) => {
    const { program, flags } = await programAccess(s, a.programId);
    requireFlags(flags, 'HasContentAccess');
    await ensureNewId(s, 'clip', a.clipId);
    // Members download it ad-free as the program's monetization says, unless the call says otherwise.
    const next = await applyClipChange(s.q, { ...clipDefaults(), MemberDownloadsAdFree: await newClipMemberDownloadsAdFree(s, a.programId), ProgramId: a.programId }, a.fields, {
      organizationId: s.auth.organizationId,
      clipId: a.clipId,
      programSlug: program.slug,
      now: s.write.now,
      isNew: true,
    });
    const clip = await s.insert('clip', a.clipId, next);
    // The program's playlists whose auto-add rule takes the new clip (src/domain/auto-add.ts).
    await applyAutoAddInRun(s, clip);
    return clip;
  }),
  serverMutation(m.clipUpdate, async (s, a, expected) => {
    const { current, program } = await lockContent(s, 'clip', a.clipId);
    checkPrecondition(expected, current);
    const next = await applyClipChange(s.q, current, a.fields, {
      organizationId: s.auth.organizationId,
      clipId: a.clipId,
      programSlug: program.slug,
      now: s.write.now,
      isNew: false,
    });
    return s.update('clip', current, next);
  }),
  serverMutation(m.clipDelete, async (s, a, expected) => {
    const deleted = await softDelete('clip')(s, a.clipId, expected);
    // Its headliner videos (rows and files) go after the media grace period, by a job written with the deletion.
    const [made] = await s.q.query(`SELECT 1 FROM headliner_videos WHERE clip_id = $1 LIMIT 1`, [deleted.Id]);
    if (made) await enqueueHeadlinerSweep(s.q, s.auth.organizationId, deleted.Id);
    return deleted;
  }),

  // ── Recordings and annotations ───────────────────────────────────────────────────────────
  serverMutation(m.recordingUpdate, async (s, a, expected) => {
    const { current } = await lockContent(s, 'recording', a.recordingId);
    checkPrecondition(expected, current);
    const body = a.fields;
    const next: Record<string, unknown> = { ...current, ...body };
    if ('Title' in body) {
      next['Title'] = normaliseTitle(body.Title);
      assertValid([['Title', next['Title'] === null ? null : titleCheck(next['Title'] as string)[1]]]);
    }
    if ('Rating' in body && body.Rating !== null && body.Rating !== undefined) assertValid([['Rating', validateInteger(body.Rating, { min: 0, max: 5 })]]);
    return s.update('recording', current, next);
  }),
  serverMutation(m.recordingDelete, (s, a, expected) => softDelete('recording')(s, a.recordingId, expected)),
  serverMutation(m.annotationAdd, async (s, a) => {
    await lockContent(s, 'recording', a.recordingId);
    assertValid([['Text', validateRequired(a.fields.Text)]]);
    await ensureNewId(s, 'annotation', a.annotationId);
    return s.insert('annotation', a.annotationId, {
      RecordingId: a.recordingId,
      OffsetSeconds: a.fields.OffsetSeconds,
      DurationSeconds: a.fields.DurationSeconds ?? null,
      Text: a.fields.Text.trim(),
    });
  }),
  serverMutation(m.annotationDelete, async (s, a, expected) => {
    await lockContent(s, 'recording', a.recordingId);
    const current: WireRow = await lockRow(s, 'annotation', a.annotationId);
    if (current['RecordingId'] !== a.recordingId) throw notFound();
    checkPrecondition(expected, current);
    return s.update('annotation', current, { ...current, Deleted: true });
  }),
];
