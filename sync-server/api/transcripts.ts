// Clip transcripts (section 7; issue 34): the routes of src/protocol/api/transcripts.ts. A clip's
// transcript is one row of clip_transcripts (its cues as JSON, as first imported too, language,
// published); writing it keeps the clip in step in the same transaction:
//
//   PUT / import ──cues checked (src/domain/transcripts.ts: 400 naming the cue or the file's line)──┐
//                                                                                                  ▼
//   clip_transcripts upserted ── clips.transcript_text (search: its trigger rebuilds the vector) ──
//   clip row (TranscriptStatus Completed; Urls.TranscriptPublicUrl when published: the feed's
//   podcast:transcript) ──commit──> sync poke
//   DELETE ── row gone, transcript_text null, TranscriptStatus null, no public URL
//
// Everyone with content access on the clip's program reads and writes it (section 6, guard.row);
// the public copy is served to anyone while the clip is one a listener can reach (as its chapters).
import type { Context } from 'hono';
import type * as z from 'zod';
import type { FormError } from '../../src/domain/form-errors.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import {
  detectTranscriptFormat,
  offsetCues,
  parseTranscript,
  TRANSCRIPT_CONTENT_TYPES,
  transcriptSearchText,
  writeTranscript,
  type TranscriptCue,
  type TranscriptFormat,
} from '../../src/domain/transcripts.ts';
import * as routes from '../../src/protocol/api/transcripts.ts';
import { cueFromWire, cueToWire, type Transcript, type TranscriptCueWire, type TranscriptPutSchema } from '../../src/protocol/api/transcripts.ts';
import type { ClipUrls } from '../../src/protocol/entities.ts';
import { now, type AppDeps } from '../app.ts';
import { getAuth } from '../auth.ts';
import { nfc, stringProblems } from '../body.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { loadRow, updateRow, type WireRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { conditionalText, listenerReaches, type ReachClip } from './feeds.ts';
import { publishedIntroSql } from '../audio/intro-outro-render.ts';
import { clipSetTranscript, recordingSetTranscript } from '../../src/mutations/transcripts.ts';
import { runRest } from '../mutations/rest.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

/** TranscriptStatus of a clip or recording with a transcript the studio holds (the seed's finished value). */
export const TRANSCRIPT_COMPLETED = 'Completed';

/** Whose transcript: a clip's (published in its feed items) or a recording's (never public). */
export type Owner = { entity: 'clip' | 'recording'; table: 'clip_transcripts' | 'recording_transcripts'; key: 'clip_id' | 'recording_id'; content: 'clips' | 'recordings' };
const CLIP: Owner = { entity: 'clip', table: 'clip_transcripts', key: 'clip_id', content: 'clips' };
const RECORDING: Owner = { entity: 'recording', table: 'recording_transcripts', key: 'recording_id', content: 'recordings' };
/** The owners by entity name (the transcription job names its owner so). */
export const TRANSCRIPT_OWNERS = { clip: CLIP, recording: RECORDING } as const;

export type TranscriptRow = {
  owner_id: string;
  cues: TranscriptCueWire[];
  original_cues: TranscriptCueWire[];
  language: string | null;
  published: boolean;
  modified_at_utc: Date;
  modified_by_id: string | null;
};

/** A clip's published transcript's public URL (its WebVTT); recordings have none. */
const publicUrlOf = (owner: Owner, r: TranscriptRow | null) => (owner === CLIP && r?.published ? publicPaths.transcript(r.owner_id, 'vtt') : null);

function toWire(owner: Owner, r: TranscriptRow): Transcript {
  return {
    ...(owner === CLIP ? { ClipId: r.owner_id } : { RecordingId: r.owner_id }),
    Language: r.language,
    Published: r.published,
    PublicUrl: publicUrlOf(owner, r),
    Cues: r.cues,
    Edited: JSON.stringify(r.cues) !== JSON.stringify(r.original_cues),
    ModifiedAtUtc: new Date(r.modified_at_utc).toISOString(),
    ModifiedById: r.modified_by_id,
  };
}

async function loadTranscript(q: Queryable, owner: Owner, id: string, lock = false): Promise<TranscriptRow | null> {
  const [row] = await q.query<TranscriptRow>(`SELECT ${owner.key} AS owner_id, * FROM ${owner.table} WHERE ${owner.key} = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row ?? null;
}

/** A clip's or recording's transcript row (the named mutations' run reads it so, in its transaction). */
export const loadOwnerTranscript = (q: Queryable, entity: Owner['entity'], id: string, lock = false) => loadTranscript(q, TRANSCRIPT_OWNERS[entity], id, lock);

/** A refusal of the cues: at the cue (Cues.<n>) when it is about one, else at `field`. */
export function refusedCues(error: FormError, cue: number | undefined, field: string): never {
  throw badRequest([fieldError(cue === undefined ? field : `Cues.${cue}`, error)]);
}

/** What a transcript is written with (null: deleted). `original`: the cues reset goes back to (an import's), else kept. */
export type TranscriptWrite = { cues: TranscriptCue[]; original?: TranscriptCue[]; language?: string | null | undefined; published?: boolean | undefined } | null;

/** How the content row is written: the routes' and the job's own updateRow, a named mutation's OpStore. */
type ContentUpdate = (current: WireRow, next: Record<string, unknown>) => Promise<WireRow>;

/**
 * Writes the transcript of the clip or recording `id` and keeps the row in step, in the caller's
 * transaction: the transcript row, the search text, and the content row's TranscriptStatus (and a
 * clip's public transcript URL). Returns the transcript row (null: deleted) and the content row
 * when it was written (null: it was already in step).
 */
export async function putTranscriptIn(
  q: Queryable,
  who: { organizationId: string; userId: string | null },
  entity: Owner['entity'],
  id: string,
  next: TranscriptWrite,
  at: Date,
  update: ContentUpdate = (current, row) => updateRow(q, entity, current, { organizationId: who.organizationId, userId: who.userId, now: at }, row),
): Promise<{ row: TranscriptRow | null; content: WireRow | null }> {
  const owner = TRANSCRIPT_OWNERS[entity];
  const content = await loadRow(q, owner.entity, who.organizationId, id, { forUpdate: true });
  if (!content || content.Deleted) throw notFound();
  const current = await loadTranscript(q, owner, id, true);
  let row: TranscriptRow | null = null;
  if (next === null) {
    if (!current) throw notFound();
    await q.query(`DELETE FROM ${owner.table} WHERE ${owner.key} = $1`, [id]);
  } else {
    const cues = next.cues.map(cueToWire);
    const original = next.original ? next.original.map(cueToWire) : (current?.original_cues ?? cues);
    const language = next.language !== undefined ? next.language : (current?.language ?? null);
    const published = next.published ?? current?.published ?? false;
    const [written] = await q.query<TranscriptRow>(
      `INSERT INTO ${owner.table} (${owner.key}, organization_id, cues, original_cues, language, published, modified_at_utc, modified_by_id)
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8)
       ON CONFLICT (${owner.key}) DO UPDATE SET cues = EXCLUDED.cues, original_cues = EXCLUDED.original_cues, language = EXCLUDED.language,
         published = EXCLUDED.published, modified_at_utc = EXCLUDED.modified_at_utc, modified_by_id = EXCLUDED.modified_by_id
       RETURNING ${owner.key} AS owner_id, *`,
      [id, who.organizationId, JSON.stringify(cues), JSON.stringify(original), language, published, at, who.userId],
    );
    row = written ?? null;
  }
  // Search reads the words (0480_search.sql: the trigger rebuilds the row's vector).
  await q.query(`UPDATE ${owner.content} SET transcript_text = $2 WHERE id = $1`, [id, next === null ? null : transcriptSearchText(next.cues)]);
  const status = row ? TRANSCRIPT_COMPLETED : null;
  const urls = (content['Urls'] ?? {}) as ClipUrls;
  const publicUrl = publicUrlOf(owner, row);
  if (content['TranscriptStatus'] === status && (owner !== CLIP || (urls.TranscriptPublicUrl ?? null) === publicUrl)) return { row, content: null };
  const written = await update(content, {
    ...content,
    TranscriptStatus: status,
    ...(owner === CLIP ? { Urls: { ...urls, TranscriptPublicUrl: publicUrl } } : {}),
  });
  return { row, content: written };
}

/** putTranscriptIn in a transaction of its own, and the sync poke after commit. The routes write
 * the guarded row's; the transcription job (sync-server/transcription/job.ts) the one it was asked
 * for, as the user who asked. */
export async function storeTranscript(
  deps: AppDeps,
  who: { organizationId: string; userId: string | null },
  owner: Owner,
  id: string,
  next: TranscriptWrite,
): Promise<TranscriptRow | null> {
  const { row, content } = await deps.store.tx((q) => putTranscriptIn(q, who, owner.entity, id, next, now(deps)));
  if (content) deps.bus.publish({ organizationId: who.organizationId, version: content.Version });
  return row;
}

/** storeTranscript for the guarded row, as the signed-in user. */
async function writeTranscriptOf(c: Context, owner: Owner, next: TranscriptWrite): Promise<TranscriptRow | null> {
  const auth = getAuth(c);
  return storeTranscript(c.get('deps'), { organizationId: auth.organizationId, userId: auth.user.Id }, owner, c.var.row.Id, next);
}

/** The guarded row's transcript, or 404. */
async function transcriptOf(c: Context, owner: Owner): Promise<TranscriptRow> {
  const row = await loadTranscript(c.get('deps').store, owner, c.var.row.Id);
  if (!row) throw notFound();
  return row;
}

const withCharset = (type: string) => `${type}; charset=utf-8`;

type ImportQuery = { language?: string | undefined; publish?: boolean | undefined };
type ExportQuery = { format?: TranscriptFormat | undefined; offsetIntro?: number | undefined; speakers?: boolean | undefined };

/**
 * PUT …/transcript: the cues as JSON, as the owner's set-transcript mutation (runRest), so a call
 * and a device's queued edit are judged alike (a bad cue: 400 at Cues.<n>; content access). The
 * call names no base: it is made on the transcript as it is now (one written between this read and
 * the write refuses it at Cues, as a device's stale edit is).
 */
async function putCues(c: Context, owner: Owner, body: z.output<typeof TranscriptPutSchema>): Promise<Transcript> {
  const id = c.var.row.Id;
  const store = c.get('deps').store;
  const before = await loadTranscript(store, owner, id);
  const edit = {
    Cues: body.Cues,
    BaseModifiedAtUtc: before ? new Date(before.modified_at_utc).toISOString() : null,
    ...(body.Language !== undefined ? { Language: body.Language } : {}),
    ...(body.Published !== undefined ? { Published: body.Published } : {}),
  };
  if (owner === CLIP) await runRest(c, clipSetTranscript, { clipId: id, ...edit }, null);
  else await runRest(c, recordingSetTranscript, { recordingId: id, ...edit }, null);
  return toWire(owner, await transcriptOf(c, owner));
}

/** PUT …/transcript/import: a file, in the format its Content-Type (or its content) says. */
async function importFile(c: Context, owner: Owner, query: ImportQuery): Promise<Transcript> {
  const text = await c.req.text();
  const read = parseTranscript(text, detectTranscriptFormat(text, { contentType: c.req.header('content-type') ?? null }));
  // A file's problems are the body's, with the line they are on.
  if (!read.ok) throw badRequest([fieldError('body', read.error)]);
  // Held to what every body is (sync-server/body.ts, which leaves this one to us): no NUL nor
  // half a surrogate pair, and in Unicode normal form C.
  const problems = stringProblems(read.cues.map(cueToWire), (path) => (path.length > 0 ? `Cues.${path.map(String).join('.')}` : 'body'));
  if (problems.length > 0) throw badRequest(problems);
  const cues = nfc(read.cues);
  return toWire(owner, (await writeTranscriptOf(c, owner, { cues, original: cues, language: query.language, published: query.publish }))!);
}

/** GET …/transcript: the text in the asked format, and its content type. */
async function exportText(c: Context, owner: Owner, query: ExportQuery): Promise<{ text: string; headers: Record<string, string> }> {
  const format = query.format ?? 'vtt';
  const cues = offsetCues((await transcriptOf(c, owner)).cues.map(cueFromWire), query.offsetIntro ?? 0);
  return { text: writeTranscript(cues, format, { speakers: query.speakers ?? true }), headers: { 'content-type': withCharset(TRANSCRIPT_CONTENT_TYPES[format]) } };
}

/** PUT …/transcript/reset: back to the cues as first imported. */
async function reset(c: Context, owner: Owner): Promise<Transcript> {
  const original = (await transcriptOf(c, owner)).original_cues.map(cueFromWire);
  return toWire(owner, (await writeTranscriptOf(c, owner, { cues: original, original }))!);
}

export function transcriptRoutes() {
  const clip = (...need: 'HasContentAccess'[]) => guard.row('clips', 'clipId', ...need);
  const recording = (...need: 'HasContentAccess'[]) => guard.row('recordings', 'recordingId', ...need);
  return resourceApp()
    .openapi(guarded(routes.putClipTranscript, clip('HasContentAccess')), async (c) => c.json(await putCues(c, CLIP, c.req.valid('json')), 200))
    .openapi(guarded(routes.importClipTranscript, clip('HasContentAccess')), async (c) => c.json(await importFile(c, CLIP, c.req.valid('query')), 200))
    .openapi(guarded(routes.exportClipTranscript, clip()), async (c) => {
      const { text, headers } = await exportText(c, CLIP, c.req.valid('query'));
      return c.body(text, 200, headers);
    })
    .openapi(guarded(routes.getClipTranscript, clip()), async (c) => c.json(toWire(CLIP, await transcriptOf(c, CLIP)), 200))
    .openapi(guarded(routes.resetClipTranscript, clip('HasContentAccess')), async (c) => c.json(await reset(c, CLIP), 200))
    .openapi(guarded(routes.deleteClipTranscript, clip('HasContentAccess')), async (c) => {
      await writeTranscriptOf(c, CLIP, null);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.putRecordingTranscript, recording('HasContentAccess')), async (c) => c.json(await putCues(c, RECORDING, c.req.valid('json')), 200))
    .openapi(guarded(routes.importRecordingTranscript, recording('HasContentAccess')), async (c) => c.json(await importFile(c, RECORDING, c.req.valid('query')), 200))
    .openapi(guarded(routes.exportRecordingTranscript, recording()), async (c) => {
      const { text, headers } = await exportText(c, RECORDING, c.req.valid('query'));
      return c.body(text, 200, headers);
    })
    .openapi(guarded(routes.getRecordingTranscript, recording()), async (c) => c.json(toWire(RECORDING, await transcriptOf(c, RECORDING)), 200))
    .openapi(guarded(routes.resetRecordingTranscript, recording('HasContentAccess')), async (c) => c.json(await reset(c, RECORDING), 200))
    .openapi(guarded(routes.deleteRecordingTranscript, recording('HasContentAccess')), async (c) => {
      await writeTranscriptOf(c, RECORDING, null);
      return c.body(null, 204);
    });
}

type PublicTranscript = ReachClip & { modified_at_utc: Date; cues: TranscriptCueWire[]; intro_seconds: number | string };

/** Published transcripts, for anyone (podcast apps follow a feed item's podcast:transcript). */
export function publicTranscriptRoutes() {
  return resourceApp().openapi(guarded(routes.getPublicTranscript, guard.public()), async (c) => {
    const { clipId, format } = c.req.valid('param').transcriptFile;
    const at = now(c.get('deps'));
    const [t] = await c.get('deps').store.query<PublicTranscript>(
      `SELECT t.modified_at_utc, t.cues, c.state, c.publish_state, c.visibility, c.deleted, g.deleted AS program_deleted,
         c.data->>'ScheduledVisibility' AS scheduled_visibility, c.data->>'VisibleAtUtc' AS visible_at_utc,
         ${publishedIntroSql('c')} AS intro_seconds
       FROM clip_transcripts t JOIN clips c ON c.id = t.clip_id LEFT JOIN programs g ON g.id = c.program_id
       WHERE t.clip_id = $1 AND t.published`,
      [clipId],
    );
    // Served while a listener can reach the clip, as its chapters are.
    if (!t || !listenerReaches(t, at)) return c.body(null, 404);
    const modified = new Date(t.modified_at_utc);
    // Cues on the published audio's timeline: later by the program's intro in front of it (in the tag too).
    const intro = Number(t.intro_seconds);
    const tag = `t${modified.getTime()}.i${intro}.${format}`;
    const lastModified = new Date(Math.floor(modified.getTime() / 1000) * 1000);
    return conditionalText(c, tag, lastModified, withCharset(TRANSCRIPT_CONTENT_TYPES[format]), async () => writeTranscript(offsetCues(t.cues.map(cueFromWire), intro), format));
  });
}
