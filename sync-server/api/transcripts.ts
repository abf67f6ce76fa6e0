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
import type { FormError } from '../../src/domain/form-errors.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import {
  checkCues,
  detectTranscriptFormat,
  offsetCues,
  parseTranscript,
  TRANSCRIPT_CONTENT_TYPES,
  transcriptSearchText,
  writeTranscript,
  type TranscriptCue,
} from '../../src/domain/transcripts.ts';
import * as routes from '../../src/protocol/api/transcripts.ts';
import { cueFromWire, cueToWire, type Transcript, type TranscriptCueWire } from '../../src/protocol/api/transcripts.ts';
import type { ClipUrls } from '../../src/protocol/entities.ts';
import { now } from '../app.ts';
import { getAuth } from '../auth.ts';
import { nfc, stringProblems } from '../body.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { loadRow, updateRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { conditionalText, listenerReaches, type ReachClip } from './feeds.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

/** TranscriptStatus of a clip with a transcript the studio holds (the seed's finished value). */
export const TRANSCRIPT_COMPLETED = 'Completed';

type TranscriptRow = {
  clip_id: string;
  cues: TranscriptCueWire[];
  original_cues: TranscriptCueWire[];
  language: string | null;
  published: boolean;
  modified_at_utc: Date;
  modified_by_id: string | null;
};

function toWire(r: TranscriptRow): Transcript {
  return {
    ClipId: r.clip_id,
    Language: r.language,
    Published: r.published,
    PublicUrl: r.published ? publicPaths.transcript(r.clip_id, 'vtt') : null,
    Cues: r.cues,
    Edited: JSON.stringify(r.cues) !== JSON.stringify(r.original_cues),
    ModifiedAtUtc: new Date(r.modified_at_utc).toISOString(),
    ModifiedById: r.modified_by_id,
  };
}

async function loadTranscript(q: Queryable, clipId: string, lock = false): Promise<TranscriptRow | null> {
  const [row] = await q.query<TranscriptRow>(`SELECT * FROM clip_transcripts WHERE clip_id = $1${lock ? ' FOR UPDATE' : ''}`, [clipId]);
  return row ?? null;
}

/** A refusal of the cues: at the cue (Cues.<n>) when it is about one, else at `field`. */
function refused(error: FormError, cue: number | undefined, field: string): never {
  throw badRequest([fieldError(cue === undefined ? field : `Cues.${cue}`, error)]);
}

/**
 * Writes the clip's transcript (null: deletes it) and keeps the clip in step, in one transaction;
 * the sync poke after commit. `original`: the cues reset goes back to (an import's), else kept.
 */
async function writeTranscriptOf(
  c: Context,
  next: { cues: TranscriptCue[]; original?: TranscriptCue[]; language?: string | null | undefined; published?: boolean | undefined } | null,
): Promise<TranscriptRow | null> {
  const { store, bus } = c.get('deps');
  const auth = getAuth(c);
  const clipId = c.var.row.Id;
  const at = now(c.get('deps'));
  const { row, version } = await store.tx(async (q) => {
    const clip = await loadRow(q, 'clip', auth.organizationId, clipId, { forUpdate: true });
    if (!clip || clip.Deleted) throw notFound();
    const current = await loadTranscript(q, clipId, true);
    let row: TranscriptRow | null = null;
    if (next === null) {
      if (!current) throw notFound();
      await q.query(`DELETE FROM clip_transcripts WHERE clip_id = $1`, [clipId]);
    } else {
      const cues = next.cues.map(cueToWire);
      const original = next.original ? next.original.map(cueToWire) : (current?.original_cues ?? cues);
      const language = next.language !== undefined ? next.language : (current?.language ?? null);
      const published = next.published ?? current?.published ?? false;
      const [written] = await q.query<TranscriptRow>(
        `INSERT INTO clip_transcripts (clip_id, organization_id, cues, original_cues, language, published, modified_at_utc, modified_by_id)
         VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8)
         ON CONFLICT (clip_id) DO UPDATE SET cues = EXCLUDED.cues, original_cues = EXCLUDED.original_cues, language = EXCLUDED.language,
           published = EXCLUDED.published, modified_at_utc = EXCLUDED.modified_at_utc, modified_by_id = EXCLUDED.modified_by_id
         RETURNING *`,
        [clipId, auth.organizationId, JSON.stringify(cues), JSON.stringify(original), language, published, at, auth.user.Id],
      );
      row = written ?? null;
    }
    // Search reads the words (0480_search.sql: the trigger rebuilds the clip's vector).
    await q.query(`UPDATE clips SET transcript_text = $2 WHERE id = $1`, [clipId, next === null ? null : transcriptSearchText(next.cues)]);
    const urls = (clip['Urls'] ?? {}) as ClipUrls;
    const publicUrl = row?.published ? publicPaths.transcript(clipId, 'vtt') : null;
    const status = row ? TRANSCRIPT_COMPLETED : null;
    if (clip['TranscriptStatus'] === status && (urls.TranscriptPublicUrl ?? null) === publicUrl) return { row, version: null };
    const written = await updateRow(q, 'clip', clip, { organizationId: auth.organizationId, userId: auth.user.Id, now: at }, {
      ...clip,
      TranscriptStatus: status,
      Urls: { ...urls, TranscriptPublicUrl: publicUrl },
    });
    return { row, version: written.Version };
  });
  if (version !== null) bus.publish({ organizationId: auth.organizationId, version });
  return row;
}

/** The clip's transcript, or 404. */
async function transcriptOf(c: Context): Promise<TranscriptRow> {
  const row = await loadTranscript(c.get('deps').store, c.var.row.Id);
  if (!row) throw notFound();
  return row;
}

const withCharset = (type: string) => `${type}; charset=utf-8`;

export function transcriptRoutes() {
  return resourceApp()
    .openapi(guarded(routes.putClipTranscript, guard.row('clips', 'clipId', 'HasContentAccess')), async (c) => {
      const body = c.req.valid('json');
      const checked = checkCues(body.Cues.map(cueFromWire));
      if (!checked.ok) refused(checked.error, checked.cue, 'Cues');
      const row = await writeTranscriptOf(c, { cues: checked.cues, language: body.Language, published: body.Published });
      return c.json(toWire(row!), 200);
    })
    .openapi(guarded(routes.importClipTranscript, guard.row('clips', 'clipId', 'HasContentAccess')), async (c) => {
      const query = c.req.valid('query');
      const text = await c.req.text();
      const format = detectTranscriptFormat(text, { contentType: c.req.header('content-type') ?? null });
      const read = parseTranscript(text, format);
      // A file's problems are the body's, with the line they are on.
      if (!read.ok) throw badRequest([fieldError('body', read.error)]);
      // Held to what every body is (sync-server/body.ts, which leaves this one to us): no NUL nor
      // half a surrogate pair, and in Unicode normal form C.
      const problems = stringProblems(read.cues.map(cueToWire), (path) => (path.length > 0 ? `Cues.${path.map(String).join('.')}` : 'body'));
      if (problems.length > 0) throw badRequest(problems);
      const cues = nfc(read.cues);
      const row = await writeTranscriptOf(c, { cues, original: cues, language: query.language, published: query.publish });
      return c.json(toWire(row!), 200);
    })
    .openapi(guarded(routes.exportClipTranscript, guard.row('clips', 'clipId')), async (c) => {
      const query = c.req.valid('query');
      const format = query.format ?? 'vtt';
      const cues = offsetCues((await transcriptOf(c)).cues.map(cueFromWire), query.offsetIntro ?? 0);
      const text = writeTranscript(cues, format, { speakers: query.speakers ?? true });
      return c.body(text, 200, { 'content-type': withCharset(TRANSCRIPT_CONTENT_TYPES[format]) });
    })
    .openapi(guarded(routes.getClipTranscript, guard.row('clips', 'clipId')), async (c) => c.json(toWire(await transcriptOf(c)), 200))
    .openapi(guarded(routes.resetClipTranscript, guard.row('clips', 'clipId', 'HasContentAccess')), async (c) => {
      const current = await transcriptOf(c);
      const original = current.original_cues.map(cueFromWire);
      const row = await writeTranscriptOf(c, { cues: original, original });
      return c.json(toWire(row!), 200);
    })
    .openapi(guarded(routes.deleteClipTranscript, guard.row('clips', 'clipId', 'HasContentAccess')), async (c) => {
      await writeTranscriptOf(c, null);
      return c.body(null, 204);
    });
}

type PublicTranscript = ReachClip & { modified_at_utc: Date; cues: TranscriptCueWire[] };

/** Published transcripts, for anyone (podcast apps follow a feed item's podcast:transcript). */
export function publicTranscriptRoutes() {
  return resourceApp().openapi(guarded(routes.getPublicTranscript, guard.public()), async (c) => {
    const { clipId, format } = c.req.valid('param').transcriptFile;
    const at = now(c.get('deps'));
    const [t] = await c.get('deps').store.query<PublicTranscript>(
      `SELECT t.modified_at_utc, t.cues, c.state, c.publish_state, c.visibility, c.deleted, g.deleted AS program_deleted,
         c.data->>'ScheduledVisibility' AS scheduled_visibility, c.data->>'VisibleAtUtc' AS visible_at_utc
       FROM clip_transcripts t JOIN clips c ON c.id = t.clip_id LEFT JOIN programs g ON g.id = c.program_id
       WHERE t.clip_id = $1 AND t.published`,
      [clipId],
    );
    // Served while a listener can reach the clip, as its chapters are.
    if (!t || !listenerReaches(t, at)) return c.body(null, 404);
    const modified = new Date(t.modified_at_utc);
    const tag = `t${modified.getTime()}.${format}`;
    const lastModified = new Date(Math.floor(modified.getTime() / 1000) * 1000);
    return conditionalText(c, tag, lastModified, withCharset(TRANSCRIPT_CONTENT_TYPES[format]), async () => writeTranscript(t.cues.map(cueFromWire), format));
  });
}
