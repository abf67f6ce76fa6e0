// Imports from another podcast host: the requests' part (check the source, write the import and
// its first job in one transaction) and the durable jobs that do the work after commit:
//
//   POST ──import row (Queued) + job import.feed──> commit
//   import.feed:  FetchingFeed ──fetch (net.ts) or the uploaded XML──> read (feed.ts) ──> Importing
//                 ──program + playlist (found: the earlier import of the same feed; else created)
//                 ──per episode, one transaction: its clip created or updated by the named
//                   mutations' runs, the episode row, and (new or changed audio) a job
//                   import.episodeAudio──> the playlist's clips in feed order ──> Done
//   import.episodeAudio: Fetching ──the enclosure streamed into the clip's upload key──> the
//                 upload pipeline's acceptAudio (AudioUploaded + clip.processAudio) ──> Done
//
// Rows are written through the named mutations' server runs (sync-server/mutations) on a
// directStore of the importing user: the same permission and field rules as their edits, a new
// Version per write, synced to every device. A failure that another attempt cannot fix (a 404, a
// refused address, a file too large) ends the part at once with its reason; one that may pass (a
// timeout, a 5xx) is thrown for the runner's retry, and its give-up writes the reason.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { importStatus, ImportErrorCode, type ImportEpisodeState, type ImportStage } from '../../src/domain/imports.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { AUDIO_FILE_MAX_BYTES } from '../../src/domain/constants.ts';
import { clipCreate, clipUpdate, playlistCreate, playlistSetClips, programCreate, programUpdate } from '../../src/mutations/content.ts';
import type { MutationDef } from '../../src/mutations/define.ts';
import { ProgramPatchSchema } from '../../src/protocol/entities.ts';
import type { Import, ImportEpisode } from '../../src/protocol/api/imports.ts';
import { membershipsOf, userToWire, type Auth, type UserRow } from '../auth.ts';
import { now, type AppDeps } from '../app.ts';
import { AppError, badRequest, fieldError, notFound } from '../errors.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { logOf } from '../observability/log.ts';
import { defineJob, type JobContext, type JobHandlers } from '../jobs/runner.ts';
import { directStore, type OpStore } from '../mutations/store.ts';
import type { ServerMutation } from '../mutations/run.ts';
import type { WireRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { BlobTooLargeError } from '../audio/blob-store.ts';
import { mediaFiles } from '../audio/media-paths.ts';
import type { AudioService } from '../audio/service.ts';
import { audioUploadErrors } from '../audio/upload-rules.ts';
import { readChapters, readFeed, type FeedEpisode, type ImportedFeed } from './feed.ts';
import { podcastGuid } from '../feeds/rss.ts';
import { checkTarget, FetchError, parseTarget, readLimited, safeGet, type NetSettings } from '../net/outbound.ts';

/** What a deployment (or a test) may change; every limit has a clear error when reached. */
export type ImportSettings = {
  /** Tests only: feeds and audio on 127.0.0.1 (every other private range stays refused). */
  allowLoopback?: boolean;
  feedMaxBytes?: number;
  maxEpisodes?: number;
  audioMaxBytes?: number;
  chaptersMaxBytes?: number;
  /** Feed and chapters requests. */
  timeoutMs?: number;
  /** One episode's audio, first byte to last. */
  audioTimeoutMs?: number;
};

const DEFAULTS = {
  allowLoopback: false,
  feedMaxBytes: 10 * 1024 * 1024,
  maxEpisodes: 2500,
  audioMaxBytes: AUDIO_FILE_MAX_BYTES,
  chaptersMaxBytes: 1024 * 1024,
  timeoutMs: 30_000,
  audioTimeoutMs: 15 * 60_000,
};

export const IMPORT_FEED_JOB = 'import.feed';
export const IMPORT_AUDIO_JOB = 'import.episodeAudio';

const FeedJob = z.object({ importId: z.string() });
// clipId: the clip the episode was queued for (a job queued before it was carried has none).
const AudioJob = z.object({ importId: z.string(), guid: z.string(), clipId: z.string().optional() });
type AudioJob = z.infer<typeof AudioJob>;

type ImportRow = {
  id: string;
  organization_id: string;
  created_by_id: string | null;
  created_by_name: string | null;
  created_at_utc: Date;
  modified_at_utc: Date;
  source: 'Url' | 'Xml';
  feed_url: string | null;
  feed_xml: string | null;
  source_key: string | null;
  program_id: string | null;
  playlist_id: string | null;
  stage: ImportStage;
  error_code: string | null;
  error_message: string | null;
  title: string | null;
  artwork_url: string | null;
  /** The show's podcast:guid, carried into the studio's feed of the playlist (0441). */
  podcast_guid: string | null;
  episodes_created: number;
  episodes_updated: number;
};

type EpisodeRow = {
  import_id: string;
  guid: string;
  position: number;
  title: string | null;
  clip_id: string | null;
  audio_url: string | null;
  artwork_url: string | null;
  state: Exclude<ImportEpisodeState, 'Processing'>;
  error_code: string | null;
  error_message: string | null;
  created: boolean;
  /** The clip's State and problem, read with the episode (the audio's processing). */
  clip_state: string | null;
  clip_problem: string | null;
};

/** A part that ended for a reason another attempt will not change. */
class ImportFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A failure the import does not describe (the database, the disk, a bug), as the import says it:
 *  its own text (a database's, with its hosts and tables) is the server's, kept in its log. */
export const IMPORT_SERVER_PROBLEM = 'the server could not go on: support can see why';

/** A failure the import describes, as it records it; null for any other (IMPORT_SERVER_PROBLEM). */
const describedFailure = (e: unknown): { code: string; message: string } | null =>
  e instanceof ImportFailure || e instanceof FetchError
    ? { code: e.code, message: e.message }
    : e instanceof AppError && e.status === 400
      ? { code: ImportErrorCode.Failed, message: `refused: ${JSON.stringify((e.body as { Errors?: Array<{ Field: string; Message: string }> }).Errors?.map((x) => `${x.Field}: ${x.Message}`))}` }
      : e instanceof AppError && (e.status === 403 || e.status === 404)
        ? { code: ImportErrorCode.NotAllowed, message: 'the importing user may no longer write here' }
        : e instanceof AppError
          ? { code: ImportErrorCode.Failed, message: `the studio refused the change (HTTP ${e.status})` }
          : null;

/** Audio extensions by enclosure type, for an enclosure URL whose path names none we read. */
const EXT_OF_TYPE: Record<string, string> = {
  'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/mpeg3': 'mp3', 'audio/x-mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/m4a': 'm4a', 'audio/aac': 'aac',
  'audio/x-aac': 'aac', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/flac': 'flac', 'audio/x-flac': 'flac', 'audio/aiff': 'aiff', 'audio/x-aiff': 'aiff', 'video/mp4': 'mp4',
};
const AUDIO_EXTS = new Set(['mp3', 'm4a', 'mp4', 'aac', 'wav', 'flac', 'aif', 'aiff']);

/** The upload's file name: the enclosure's own (its last path segment), with an extension the
 * upload rules take, from the URL or else from the type the host or the feed gave. */
export function audioFileName(url: URL, ...types: Array<string | null>): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '').replace(/[^\w.\- ]+/g, '_').slice(-200) || 'episode';
  const ext = last.includes('.') ? last.slice(last.lastIndexOf('.') + 1).toLowerCase() : '';
  if (AUDIO_EXTS.has(ext)) return last;
  for (const t of types) {
    const fromType = t ? EXT_OF_TYPE[t.split(';')[0]!.trim().toLowerCase()] : undefined;
    if (fromType) return `${last.replace(/\.[^.]*$/, '')}.${fromType}`;
  }
  return last;
}

const SELECT_IMPORT = `SELECT i.*, u.name AS created_by_name FROM imports i LEFT JOIN users u ON u.id = i.created_by_id`;

export type ImportService = ReturnType<typeof importService>;

/** Hands an artwork URL to the studio's image storage (sync-server/images: fetched, checked and
 * sized by its own job); without it the URL is only recorded on the import. */
export type ArtworkFetch = (target: { kind: 'program' | 'clip'; ownerId: string; organizationId: string; userId: string | null }, imageUrl: string) => Promise<void>;

export function importService(deps: AppDeps, audio: AudioService, mutations: ReadonlyMap<string, ServerMutation>, options: ImportSettings = {}, artwork?: ArtworkFetch) {
  const settings = { ...DEFAULTS, ...options };
  const feedNet: NetSettings = { allowLoopback: settings.allowLoopback, timeoutMs: settings.timeoutMs };
  const audioNet: NetSettings = { allowLoopback: settings.allowLoopback, timeoutMs: settings.audioTimeoutMs };
  const store = deps.store;
  const log = logOf(deps);
  /** The failure as the import records it. One it does not describe is logged: only the log has its text. */
  const failureOf = (e: unknown, where: { importId: string; guid?: string }): { code: string; message: string } => {
    const described = describedFailure(e);
    if (described) return described;
    log.error({ err: e, import: where }, 'an import stopped on an error of the server');
    return { code: ImportErrorCode.Failed, message: IMPORT_SERVER_PROBLEM };
  };

  // ── Rows of the import ─────────────────────────────────────────────────────────────────────
  async function loadImport(q: Queryable, organizationId: string, id: string): Promise<ImportRow | null> {
    return (await q.query<ImportRow>(`${SELECT_IMPORT} WHERE i.id = $1 AND i.organization_id = $2`, [id, organizationId]))[0] ?? null;
  }

  async function setImport(q: Queryable, id: string, fields: Partial<Omit<ImportRow, 'id'>>): Promise<void> {
    const entries = Object.entries(fields);
    const sets = entries.map(([k], i) => `${k} = $${i + 3}`);
    await q.query(`UPDATE imports SET modified_at_utc = $2${sets.length ? `, ${sets.join(', ')}` : ''} WHERE id = $1`, [id, now(deps), ...entries.map(([, v]) => v)]);
  }

  async function setEpisode(q: Queryable, importId: string, guid: string, fields: Partial<EpisodeRow>): Promise<void> {
    const entries = Object.entries(fields);
    await q.query(`UPDATE import_episodes SET ${entries.map(([k], i) => `${k} = $${i + 3}`).join(', ')} WHERE import_id = $1 AND guid = $2`, [importId, guid, ...entries.map(([, v]) => v)]);
    await setImport(q, importId, {});
  }

  function toWire(row: ImportRow, episodes: EpisodeRow[]): Import {
    const wireEpisodes: ImportEpisode[] = episodes.map((e) => {
      let state: ImportEpisodeState = e.state;
      let code = e.error_code;
      let reason = e.error_message;
      // Done here means "in the clip's upload pipeline": the clip's own State says how that went.
      if (state === 'Done' && (e.clip_state === 'AudioUploaded' || e.clip_state === 'Processing')) state = 'Processing';
      if (state === 'Done' && e.clip_state === 'Error') {
        state = 'Failed';
        code = ImportErrorCode.AudioProcessing;
        reason = e.clip_problem ?? 'the audio could not be processed';
      }
      return { Guid: e.guid, Title: e.title, ClipId: e.clip_id, State: state, ErrorCode: code, Reason: reason, AudioUrl: e.audio_url, ArtworkUrl: e.artwork_url, Created: e.created };
    });
    const count = (s: ImportEpisodeState) => wireEpisodes.filter((e) => e.State === s).length;
    return {
      Id: row.id,
      OrganizationId: row.organization_id,
      CreatedAtUtc: row.created_at_utc.toISOString(),
      ModifiedAtUtc: row.modified_at_utc.toISOString(),
      CreatedById: row.created_by_id,
      CreatedByName: row.created_by_name,
      Source: row.source,
      FeedUrl: row.feed_url,
      Title: row.title,
      ProgramId: row.program_id,
      PlaylistId: row.playlist_id,
      Status: importStatus(row.stage, wireEpisodes.map((e) => e.State)),
      Stage: row.stage,
      ErrorCode: row.error_code,
      Reason: row.error_message,
      ArtworkUrl: row.artwork_url,
      Counts: {
        Episodes: wireEpisodes.length,
        Queued: count('Queued'),
        Fetching: count('Fetching'),
        Processing: count('Processing'),
        Done: count('Done'),
        Failed: count('Failed'),
        Created: row.episodes_created,
        Updated: row.episodes_updated,
      },
      Episodes: wireEpisodes,
    };
  }

  async function withEpisodes(q: Queryable, rows: ImportRow[]): Promise<Import[]> {
    if (rows.length === 0) return [];
    const episodes = await q.query<EpisodeRow>(
      `SELECT e.*, c.state AS clip_state, c.data->>'AudioProcessingProblem' AS clip_problem
         FROM import_episodes e LEFT JOIN clips c ON c.id = e.clip_id AND NOT c.deleted
        WHERE e.import_id = ANY($1::uuid[]) ORDER BY e.position`,
      [rows.map((r) => r.id)],
    );
    return rows.map((r) => toWire(r, episodes.filter((e) => e.import_id === r.id)));
  }

  // ── Requests ──────────────────────────────────────────────────────────────────────────────
  /** The request's source, checked before anything is written: a 400 naming the field. */
  async function checkSource(body: { FeedUrl?: string | undefined; FeedXml?: string | undefined }): Promise<{ source: 'Url'; url: string } | { source: 'Xml'; xml: string }> {
    const url = body.FeedUrl?.trim();
    const xml = body.FeedXml;
    if (url && xml !== undefined) throw badRequest([fieldError('FeedXml', formError('invalid'))]);
    if (url) {
      try {
        await checkTarget(parseTarget(url), feedNet);
      } catch (e) {
        if (e instanceof FetchError) throw badRequest([fieldError('FeedUrl', formError('urlInvalid', undefined, { reason: e.message }, e.code))]);
        throw e;
      }
      return { source: 'Url', url: parseTarget(url).toString() };
    }
    if (xml !== undefined && xml.trim() !== '') {
      if (!readFeed(xml)) throw badRequest([fieldError('FeedXml', formError('invalid', undefined, undefined, ImportErrorCode.FeedUnreadable))]);
      return { source: 'Xml', xml };
    }
    throw badRequest([fieldError(xml !== undefined ? 'FeedXml' : 'FeedUrl', formError('required'))]);
  }

  async function create(auth: Auth, source: { source: 'Url'; url: string } | { source: 'Xml'; xml: string }, playlist: { programId: string; playlistId: string } | null): Promise<Import> {
    const id = randomUUID();
    const at = now(deps);
    await store.tx(async (q) => {
      await q.query(
        `INSERT INTO imports (id, organization_id, created_by_id, created_at_utc, modified_at_utc, source, feed_url, feed_xml, source_key, program_id, playlist_id, stage)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $9, $10, 'Queued')`,
        [id, auth.organizationId, auth.user.Id, at, source.source, source.source === 'Url' ? source.url : null, source.source === 'Xml' ? source.xml : null, source.source === 'Url' ? `url:${source.url}` : null, playlist?.programId ?? null, playlist?.playlistId ?? null],
      );
      await enqueueFeedJob(q, id);
    });
    const [row] = await withEpisodes(store, [(await loadImport(store, auth.organizationId, id))!]);
    return row!;
  }

  const enqueueFeedJob = (q: Queryable, importId: string) => enqueueJob(q, IMPORT_FEED_JOB, { importId }, { singletonKey: `${IMPORT_FEED_JOB}:${importId}`, rerunIfRunning: true, maxAttempts: 4 });

  // ── The work ──────────────────────────────────────────────────────────────────────────────
  /** The importing user acting in the import's organization, as a request of theirs would. */
  async function authOf(row: ImportRow): Promise<Auth> {
    const [user] = row.created_by_id ? await store.query<UserRow>(`SELECT * FROM users WHERE id = $1 AND NOT deleted`, [row.created_by_id]) : [];
    const membership = user ? (await membershipsOf(store, user.id)).find((m) => m.organization_id === row.organization_id) : undefined;
    if (!user || !membership) throw new ImportFailure(ImportErrorCode.NotAllowed, 'the importing user is no longer a member of the organization');
    return { user: userToWire(user), organizationId: row.organization_id, permissions: membership.permissions, via: 'session' };
  }

  /** Runs named mutations as the importing user in one transaction, publishing after commit. */
  async function asUser<T>(auth: Auth, work: (run: <A>(def: MutationDef<string, A>, args: A) => Promise<WireRow>, s: OpStore, q: Queryable) => Promise<T>): Promise<T> {
    let version = 0;
    const result = await store.tx(async (q) => {
      const s = directStore(q, auth, { organizationId: auth.organizationId, userId: auth.user.Id, now: now(deps), clientId: null });
      const run = async <A>(def: MutationDef<string, A>, args: A) => {
        const server = mutations.get(def.name);
        if (!server) throw new Error(`no server run for ${def.name}`);
        const row = await server.run(s, def.args.parse(args), null, { origin: process.env.PUBLIC_URL ?? 'http://localhost' });
        version = Math.max(version, row.Version);
        return row;
      };
      const out = await work(run, s, q);
      return out;
    });
    if (version > 0) deps.bus.publish({ organizationId: auth.organizationId, version });
    return result;
  }

  /** The program's podcast fields the Program row has (another part of the studio adds them): the
   * ones its patch schema knows are set, the rest left out. */
  function programPatch(feed: ImportedFeed): Record<string, unknown> {
    const known = new Set(Object.keys((ProgramPatchSchema as unknown as { shape: Record<string, unknown> }).shape));
    return Object.fromEntries(Object.entries(feed.program).filter(([k, v]) => known.has(k) && v !== null && v !== undefined));
  }

  async function readSource(row: ImportRow): Promise<string> {
    if (row.source === 'Xml') return row.feed_xml ?? '';
    const fetched = await safeGet(row.feed_url!, feedNet);
    return readLimited(fetched, settings.feedMaxBytes, 'feed');
  }

  /** The program and playlist the feed goes into: the route's playlist, the earlier import's of the
   * same feed (while its playlist lives), or new ones. */
  async function target(auth: Auth, row: ImportRow, feed: ImportedFeed, sourceKey: string | null): Promise<{ programId: string; playlistId: string; created: boolean }> {
    const live = async (playlistId: string | null) => {
      if (!playlistId) return null;
      const [p] = await store.query<{ program_id: string }>(
        `SELECT pl.program_id FROM playlists pl JOIN programs pr ON pr.id = pl.program_id WHERE pl.id = $1 AND pl.organization_id = $2 AND NOT pl.deleted AND NOT pr.deleted`,
        [playlistId, row.organization_id],
      );
      return p ? { programId: p.program_id, playlistId } : null;
    };
    if (row.playlist_id) {
      const found = await live(row.playlist_id);
      if (!found) throw new ImportFailure(ImportErrorCode.NotAllowed, 'the playlist was deleted');
      return { ...found, created: false };
    }
    if (sourceKey) {
      const earlier = await store.query<{ playlist_id: string | null }>(
        `SELECT playlist_id FROM imports WHERE organization_id = $1 AND source_key = $2 AND id <> $3 AND playlist_id IS NOT NULL ORDER BY created_at_utc DESC`,
        [row.organization_id, sourceKey, row.id],
      );
      for (const e of earlier) {
        const found = await live(e.playlist_id);
        if (found) return { ...found, created: false };
      }
    }
    const programId = randomUUID();
    const playlistId = randomUUID();
    await asUser(auth, async (run) => {
      await run(programCreate, { programId, fields: { Name: feed.program['Name'] as string, Description: (feed.program['Description'] as string | null) ?? null } });
      await run(playlistCreate, { programId, playlistId, fields: { Title: feed.title.trim().slice(0, 255) || 'Imported podcast' } });
    });
    return { programId, playlistId, created: true };
  }

  /** The artwork, when it is new for its owner (an earlier import of it named another URL, or it
   * has none) and its address may be fetched; a refused one is left out, the import goes on. */
  async function queueArtwork(auth: Auth, kind: 'program' | 'clip', ownerId: string, url: string | null, before: string | null, hasImage: boolean): Promise<void> {
    if (!artwork || !url || (url === before && hasImage)) return;
    try {
      await checkTarget(parseTarget(url), feedNet);
    } catch {
      return;
    }
    await artwork({ kind, ownerId, organizationId: auth.organizationId, userId: auth.user.Id }, url);
  }

  async function fetchChapters(url: string | null): Promise<Array<{ StartSeconds: number; Title: string }> | null> {
    if (!url) return null;
    try {
      return readChapters(await readLimited(await safeGet(url, feedNet), settings.chaptersMaxBytes, 'chapters file'));
    } catch {
      // Chapters are a nicety: an episode without them is still the episode.
      return null;
    }
  }

  /** One episode: its clip created or updated, its row, and its audio job when the audio is new. */
  async function importEpisode(auth: Auth, row: ImportRow, programId: string, episode: FeedEpisode, position: number, channelArtwork: string | null): Promise<{ clipId: string | null; created: boolean }> {
    const chapters = await fetchChapters(episode.chaptersUrl);
    const fields = { ...episode.fields, ...(chapters ? { Chapters: chapters } : {}) };
    const artworkBefore: { value: { url: string | null; hasImage: boolean } | null } = { value: null };
    const base = { import_id: row.id, guid: episode.guid, position, title: episode.title, audio_url: episode.audioUrl, artwork_url: episode.artworkUrl };
    try {
      const result = await asUser(auth, async (run, s, q) => {
        const [existing] = await q.query<{ id: string }>(
          `SELECT id FROM clips WHERE program_id = $1 AND organization_id = $2 AND NOT deleted AND data->>'ImportedId' = $3 ORDER BY created_at_utc LIMIT 1`,
          [programId, auth.organizationId, episode.guid],
        );
        const clipId = existing?.id ?? randomUUID();
        let clip = existing ? await run(clipUpdate, { clipId, fields }) : await run(clipCreate, { programId, clipId, fields });
        // ImportedId and PublishedUtc are not user-editable fields: written through the row function.
        if (clip['ImportedId'] !== episode.guid || (episode.publishedUtc !== null && clip['PublishedUtc'] !== episode.publishedUtc)) {
          clip = await s.update('clip', clip, { ...clip, ImportedId: episode.guid, ...(episode.publishedUtc ? { PublishedUtc: episode.publishedUtc } : {}) });
        }
        // The audio: unchanged since an earlier import that fetched it, none, or queued.
        const [before] = await q.query<{ audio_url: string | null }>(
          `SELECT e.audio_url FROM import_episodes e JOIN imports i ON i.id = e.import_id
            WHERE e.clip_id = $1 AND e.state = 'Done' ORDER BY i.created_at_utc DESC LIMIT 1`,
          [clipId],
        );
        const [art] = await q.query<{ artwork_url: string | null }>(
          `SELECT e.artwork_url FROM import_episodes e JOIN imports i ON i.id = e.import_id WHERE e.clip_id = $1 AND e.import_id <> $2 ORDER BY i.created_at_utc DESC LIMIT 1`,
          [clipId, row.id],
        );
        artworkBefore.value = { url: art?.artwork_url ?? null, hasImage: clip['HasImage'] === true };
        const audioKept = before !== undefined && before.audio_url === episode.audioUrl && clip['UploadedAudioFileName'] != null;
        const state: EpisodeRow['state'] = audioKept ? 'Done' : episode.audioUrl ? 'Queued' : 'Failed';
        const [errorCode, errorMessage] = state === 'Failed' ? [ImportErrorCode.NoAudio, 'the episode has no enclosure'] : [null, null];
        await q.query(
          `INSERT INTO import_episodes (import_id, guid, position, title, clip_id, audio_url, artwork_url, state, error_code, error_message, created)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           ON CONFLICT (import_id, guid) DO UPDATE SET position = $3, title = $4, clip_id = $5, audio_url = $6, artwork_url = $7, state = $8, error_code = $9, error_message = $10,
             created = import_episodes.created OR $11`,
          [base.import_id, base.guid, position, base.title, clipId, base.audio_url, base.artwork_url, state, errorCode, errorMessage, !existing],
        );
        if (state === 'Queued') {
          await enqueueJob(q, IMPORT_AUDIO_JOB, { importId: row.id, guid: episode.guid, clipId }, { singletonKey: `${IMPORT_AUDIO_JOB}:${row.id}:${clipId}`, rerunIfRunning: true, maxAttempts: 3 });
        }
        return { clipId, created: !existing };
      });
      // An episode's own artwork only (most feeds repeat the show's on every item).
      const art = artworkBefore.value;
      if (art && episode.artworkUrl !== channelArtwork) await queueArtwork(auth, 'clip', result.clipId, episode.artworkUrl, art.url, art.hasImage);
      return result;
    } catch (e) {
      const { code, message } = failureOf(e, { importId: row.id, guid: episode.guid });
      await store.query(
        `INSERT INTO import_episodes (import_id, guid, position, title, audio_url, artwork_url, state, error_code, error_message)
         VALUES ($1, $2, $3, $4, $5, $6, 'Failed', $7, $8)
         ON CONFLICT (import_id, guid) DO UPDATE SET position = $3, title = $4, audio_url = $5, artwork_url = $6, state = 'Failed', error_code = $7, error_message = $8`,
        [base.import_id, base.guid, position, base.title, base.audio_url, base.artwork_url, code, message],
      );
      return { clipId: null, created: false };
    }
  }

  async function runFeed(importId: string): Promise<void> {
    const [row] = await store.query<ImportRow>(`${SELECT_IMPORT} WHERE i.id = $1`, [importId]);
    if (!row) return;
    await setImport(store, row.id, { stage: 'FetchingFeed', error_code: null, error_message: null });
    const xml = await readSource(row);
    const feed = readFeed(xml);
    if (!feed) throw new ImportFailure(ImportErrorCode.FeedUnreadable, 'not an RSS feed the parser reads');
    if (feed.locked) throw new ImportFailure(ImportErrorCode.FeedLocked, 'the feed says podcast:locked: its owner must unlock it at the old host first');
    if (feed.episodes.length > settings.maxEpisodes) throw new ImportFailure(ImportErrorCode.TooManyEpisodes, `the feed has ${feed.episodes.length} episodes; at most ${settings.maxEpisodes} are imported at once`);
    const auth = await authOf(row);
    const sourceKey = row.source === 'Url' ? `url:${row.feed_url}` : feed.selfKey;
    // The show's identity follows it here (podcast:guid): the old feed's, else its URL's.
    const guid = feed.podcastGuid ?? (row.source === 'Url' && row.feed_url ? podcastGuid(row.feed_url) : null);
    await setImport(store, row.id, { stage: 'Importing', title: feed.title.slice(0, 500), source_key: sourceKey, artwork_url: feed.artworkUrl, podcast_guid: guid });
    const { programId, playlistId } = await target(auth, row, feed, sourceKey);
    await setImport(store, row.id, { program_id: programId, playlist_id: playlistId });
    const patch = programPatch(feed);
    if (Object.keys(patch).length > 0) {
      try {
        await asUser(auth, (run) => run(programUpdate, { programId, fields: patch as z.infer<typeof ProgramPatchSchema> }));
      } catch (e) {
        // The episodes matter more than the show's settings (a user without HasManageSettingsAccess).
        if (!(e instanceof AppError)) throw e;
      }
    }
    const [program] = await store.query<{ image: string | null; before: string | null }>(
      `SELECT p.data->'Urls'->>'ImagePublicUrl' AS image,
              (SELECT i.artwork_url FROM imports i WHERE i.program_id = p.id AND i.id <> $2 AND i.stage = 'Done' ORDER BY i.created_at_utc DESC LIMIT 1) AS before
         FROM programs p WHERE p.id = $1`,
      [programId, row.id],
    );
    await queueArtwork(auth, 'program', programId, feed.artworkUrl, program?.before ?? null, Boolean(program?.image));
    const clipIds: string[] = [];
    let created = 0;
    let updated = 0;
    for (const [i, episode] of feed.episodes.entries()) {
      const result = await importEpisode(auth, row, programId, episode, i, feed.artworkUrl);
      if (result.clipId) {
        clipIds.push(result.clipId);
        if (result.created) created++;
        else updated++;
      }
    }
    // The playlist in feed order: the imported clips, then whatever else it held.
    await asUser(auth, async (run, s) => {
      const playlist = await s.row('playlist', playlistId);
      if (!playlist) return;
      const others = ((playlist['ClipIds'] as string[] | undefined) ?? []).filter((id) => !clipIds.includes(id));
      const next = [...clipIds, ...others];
      if (JSON.stringify(next) !== JSON.stringify(playlist['ClipIds'])) await run(playlistSetClips, { playlistId, ClipIds: next });
    });
    // A re-run of this import: episodes its feed no longer has are no longer its own.
    await store.query(`DELETE FROM import_episodes WHERE import_id = $1 AND NOT (guid = ANY($2::text[]))`, [row.id, feed.episodes.map((e) => e.guid)]);
    await setImport(store, row.id, { stage: 'Done', episodes_created: created, episodes_updated: updated });
  }

  async function failFeed(importId: string, e: unknown): Promise<void> {
    const { code, message } = failureOf(e, { importId });
    await setImport(store, importId, { stage: 'Failed', error_code: code, error_message: message.slice(0, 1000) });
  }

  async function runAudio(job: JobContext, p: AudioJob): Promise<void> {
    const { importId, guid } = p;
    const [e] = await store.query<EpisodeRow & { organization_id: string; created_by_id: string | null }>(
      `SELECT e.*, i.organization_id, i.created_by_id FROM import_episodes e JOIN imports i ON i.id = e.import_id WHERE e.import_id = $1 AND e.guid = $2`,
      [importId, guid],
    );
    // Queued since for another clip (its own job does it), or done with.
    if (!e || !e.clip_id || !e.audio_url || (e.state !== 'Queued' && e.state !== 'Fetching') || (p.clipId !== undefined && e.clip_id !== p.clipId)) return;
    await setEpisode(store, importId, guid, { state: 'Fetching', error_code: null, error_message: null });
    const fetched = await safeGet(e.audio_url, audioNet);
    const fileName = audioFileName(fetched.url, fetched.contentType);
    let size: number;
    // Into a folder of its own, as an upload: the clip keeps serving its audio until this one has processed.
    const upload = audio.newUpload(e.clip_id);
    try {
      const refused = audioUploadErrors(fileName, Math.max(1, fetched.contentLength ?? 1), settings.audioMaxBytes);
      if (refused.length > 0) throw new ImportFailure(ImportErrorCode.NoAudio, `${fileName}: ${refused.map(([, err]) => err.type).join(', ')}`);
      ({ size } = await audio.blobs.put(mediaFiles.audio(upload.folder), fetched.body, settings.audioMaxBytes));
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw new ImportFailure(ImportErrorCode.TooLarge, `the audio is larger than ${Math.round(settings.audioMaxBytes / 1024 / 1024)} MB`);
      if (err instanceof ImportFailure) throw err;
      // The stream broke (the host, the network) or the store failed (the disk, the bucket): the
      // error's text says which, and is the server's (its paths) as often as the host's, so only
      // the log has it.
      log.warn({ err, import: { importId, guid } }, "an episode's audio was not stored whole");
      throw new FetchError(ImportErrorCode.Timeout, 'the audio did not arrive whole', true);
    } finally {
      fetched.cancel();
    }
    if (size === 0) throw new ImportFailure(ImportErrorCode.NoAudio, 'the enclosure is empty');
    if (!e.created_by_id) throw new ImportFailure(ImportErrorCode.NotAllowed, 'the importing user is gone');
    await audio.acceptAudio({ organizationId: e.organization_id, userId: e.created_by_id, clipId: e.clip_id, ...upload, fileName, size });
    await endAudio(job, p, { state: 'Done' });
  }

  /**
   * The episode's audio ends (Done, or Failed with why), unless a retry of the import queued it
   * again meanwhile: for another enclosure or this one again (a run asked of this job), or for
   * another clip (the clip deleted, a new one made, its own job queued). Either run skips an ended
   * episode. The row is locked before the ask is read (unlessRerun), the order the retry writes them in.
   */
  async function endAudio(job: JobContext, p: AudioJob, fields: Partial<EpisodeRow>): Promise<void> {
    await job.unlessRerun(
      async (q) => (await q.query<{ clip_id: string | null }>(`SELECT clip_id FROM import_episodes WHERE import_id = $1 AND guid = $2 FOR UPDATE`, [p.importId, p.guid]))[0],
      async (q, row) => {
        if (row && (p.clipId === undefined || row.clip_id === p.clipId)) await setEpisode(q, p.importId, p.guid, fields);
      },
    );
  }

  async function failAudio(job: JobContext, p: AudioJob, err: unknown): Promise<void> {
    const { code, message } = failureOf(err, { importId: p.importId, guid: p.guid });
    await endAudio(job, p, { state: 'Failed', error_code: code, error_message: message.slice(0, 1000) });
  }

  /** A permanent failure ends the part now; anything else is the runner's to retry. */
  const settle = async (work: () => Promise<void>, fail: (e: unknown) => Promise<void>) => {
    try {
      await work();
    } catch (e) {
      if (e instanceof ImportFailure || (e instanceof FetchError && !e.transient) || (e instanceof AppError && e.status !== 409)) await fail(e);
      else throw e;
    }
  };

  const jobHandlers: JobHandlers = {
    [IMPORT_FEED_JOB]: defineJob({
      pool: 'imports',
      payload: FeedJob,
      run: (job) => settle(() => runFeed(job.importId), (e) => failFeed(job.importId, e)),
      giveUp: (job, e) => failFeed(job.importId, e),
    }),
    [IMPORT_AUDIO_JOB]: defineJob({
      pool: 'imports',
      payload: AudioJob,
      run: (job, ctx) => settle(() => runAudio(ctx, job), (e) => failAudio(ctx, job, e)),
      giveUp: (job, e, ctx) => failAudio(ctx, job, e),
    }),
  };

  return {
    jobHandlers,
    settings,
    checkSource,
    create,

    /** The organization's imports (or one playlist's), newest first. */
    async list(organizationId: string, playlistId: string | null, page: { page: number; pageSize: number; offset: number }) {
      const rows = await store.query<ImportRow>(
        `${SELECT_IMPORT} WHERE i.organization_id = $1 AND ($2::uuid IS NULL OR i.playlist_id = $2) ORDER BY i.created_at_utc DESC, i.id LIMIT $3 OFFSET $4`,
        [organizationId, playlistId, page.pageSize + 1, page.offset],
      );
      const items = await withEpisodes(store, rows.slice(0, page.pageSize));
      return { Items: items, HasNext: rows.length > page.pageSize, Page: page.page };
    },

    /** Runs the import again from its source; 404 for one of another organization. */
    async retry(organizationId: string, importId: string): Promise<void> {
      const row = await loadImport(store, organizationId, importId);
      if (!row) throw notFound();
      await store.tx(async (q) => {
        await q.query(`UPDATE imports SET stage = 'Queued', error_code = NULL, error_message = NULL, modified_at_utc = $2 WHERE id = $1`, [importId, now(deps)]);
        await enqueueFeedJob(q, importId);
      });
    },

    /** A new import into the playlist from the source of its last one; a 400 naming playlistId
     * when it was never imported into. */
    async refresh(auth: Auth, playlistId: string, programId: string): Promise<Import> {
      const [last] = await store.query<ImportRow>(`${SELECT_IMPORT} WHERE i.organization_id = $1 AND i.playlist_id = $2 ORDER BY i.created_at_utc DESC LIMIT 1`, [auth.organizationId, playlistId]);
      if (!last) throw badRequest([fieldError('playlistId', formError('invalid', undefined, undefined, 'NeverImported'))]);
      const source = last.source === 'Url' ? { source: 'Url' as const, url: last.feed_url! } : { source: 'Xml' as const, xml: last.feed_xml ?? '' };
      return create(auth, source, { programId, playlistId });
    },
  };
}
