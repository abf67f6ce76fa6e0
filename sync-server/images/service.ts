// Stored images: artwork of networks, programs, playlists and clips, the images of chapters and
// descriptions, and users' own pictures. Access is not decided here: every route that reaches
// these has passed its guard.
//
//   body (or a fetched imageUrl) ──stream──> images/{kind}/{id}/{version}/original   (≤ 20 MB)
//      │  first bytes: JPEG or PNG? ─no─> 415 naming Content-Type
//      │  header: ≤ 25 million pixels? ─no─> 400          (nothing decoded yet)
//      │  thumbnail made: decodes to the end? ─no─> 400   (a truncated file)
//      ▼  one transaction: images row (processing) + the image.variants job
//   (job) small, medium, large ──> one transaction: ready; if it is the owner's newest version,
//         the row's Urls.ImagePublicUrl (clip: ImagePrivateUrl, HasImage) with a new Version, and
//         older versions dropped ──after commit──> poke, older versions' files removed
//
// The request does only the checks that answer it (the thumbnail is the decode that proves the
// file whole); the other variants take up to seconds for a large PNG (measured: 2.5 s for a noisy
// 3000×3000 PNG, ~0.6–1.4 s for a 3000×3000 JPEG, on this machine class), so they are a job.
//
// A user's picture (kind 'user', no organization) is theirs as soon as the request is answered:
// users.image_url names the new version in the request's transaction, so the account shows it at
// once; its other variants are served from the original (not cached) until the job has made them.
//
// The public file (GET /images/{kind}/{id}/{version}?size=…) needs no session: the version is 128
// random bits, so its URL is a capability, as a feed's URL is. The artwork of a Private playlist or
// an unpublished clip is served to whoever holds its URL (the studio hands it to members only);
// once replaced, removed, or its row deleted, it is a 404.
import { logOf } from '../observability/log.ts';
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { IMAGE_FILE_MAX_BYTES, IMAGE_KINDS, imageTypeOf, type ImageKind, type ImageOwnerKind, type ImageType } from '../../src/domain/artwork.ts';
import { IMAGE_EXTENSIONS } from '../../src/domain/constants.ts';
import { formError } from '../../src/domain/form-errors.ts';
import type { ImageVariant } from '../../src/domain/image.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { now, type AppDeps } from '../app.ts';
import type { BlobStore } from '../audio/blob-store.ts';
import { BlobTooLargeError } from '../audio/blob-store.ts';
import { AppError, badRequest, fieldError, notFound } from '../errors.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob } from '../jobs/runner.ts';
import { loadRow, updateRow, type EntityName } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { fetchImage, type FetchPolicy } from './fetch.ts';
import { imageFacts, ImageProblem, makeVariant, type ImageFacts } from './variants.ts';

export const IMAGE_VARIANTS_JOB = 'image.variants';
export const IMAGE_FETCH_JOB = 'image.fetch';

const LATER_VARIANTS: readonly ImageVariant[] = ['small', 'medium', 'large'];

export const imageKeys = {
  owner: (kind: ImageKind, id: string) => `images/${kind}/${id}`,
  version: (kind: ImageKind, id: string, version: string) => `images/${kind}/${id}/${version}`,
  original: (kind: ImageKind, id: string, version: string) => `images/${kind}/${id}/${version}/original`,
  variant: (kind: ImageKind, id: string, version: string, size: ImageVariant) => `images/${kind}/${id}/${version}/${size}`,
};

/** The image an upload makes: whose, and who made it (a user's picture has no organization). */
export type ImageTarget = { kind: ImageKind; ownerId: string; organizationId: string | null; userId: string | null };
type OwnerTarget = ImageTarget & { kind: ImageOwnerKind; organizationId: string };

const TargetSchema = z.object({ kind: z.enum(IMAGE_KINDS), ownerId: z.string(), organizationId: z.string().nullable(), userId: z.string().nullable() });
const VariantsJob = TargetSchema.extend({ version: z.string() });
const FetchJob = TargetSchema.extend({ imageUrl: z.string() });

/** publicPaths.image, for the images of chapters and descriptions too: the same /images/{kind}/…
 * path (src/domain/public-urls.ts names the artwork kinds; the route takes every ImageKind). */
const imagePath = (kind: ImageKind, id: string, version: string) => publicPaths.image(kind as ImageOwnerKind, id, version);

const newVersion = () => randomBytes(16).toString('base64url');

/** The wire fields of an owner row that say its artwork (null: none). */
function artworkFields(kind: ImageOwnerKind, current: Record<string, unknown>, path: string | null): Record<string, unknown> {
  const urls = { ...((current['Urls'] as Record<string, unknown> | null | undefined) ?? {}), ImagePublicUrl: path };
  if (kind !== 'clip') return { ...current, Urls: urls };
  // A clip's private URL is the same capability URL (no session needed to show it in the studio).
  return { ...current, Urls: { ...urls, ImagePrivateUrl: path }, HasImage: path !== null };
}

const isOwnerKind = (kind: ImageKind): kind is ImageOwnerKind => kind !== 'chapter' && kind !== 'upload' && kind !== 'user';
const isOwnerTarget = (t: ImageTarget): t is OwnerTarget => isOwnerKind(t.kind) && t.organizationId !== null;

/** A user's picture: users.image_url, with a new version of the user's row (its Name and picture
 * are shown to the organization's members). */
async function writeUserPicture(q: Queryable, userId: string, path: string | null, at: Date): Promise<void> {
  await q.query(`UPDATE users SET image_url = $2, modified_at_utc = $3, version = next_row_version() WHERE id = $1`, [userId, path, at]);
}

const OWNER_TABLES: Record<ImageOwnerKind, string> = { network: 'networks', program: 'programs', playlist: 'playlists', clip: 'clips' };

/** 415: the body is not an image the studio takes, whatever its Content-Type said. */
const unsupportedImage = () =>
  new AppError(415, { Errors: [fieldError('Content-Type', formError('invalidFileExtension', 'domain_file_extension', { formats: IMAGE_EXTENSIONS.join(', ') }))] });

function problemError(e: ImageProblem): AppError {
  if (e.problem === 'tooManyPixels') return badRequest([fieldError('body', formError('outOfRange', undefined, e.details))]);
  return badRequest([fieldError('body', formError('invalid'))]);
}

export type ImageService = ReturnType<typeof imageService>;

export function imageService(deps: AppDeps, blobs: BlobStore, policy: FetchPolicy) {
  /** Reads a stored original and makes the thumbnail: the checks every way in shares (see the header). */
  async function checkOriginal(key: string): Promise<{ bytes: Uint8Array; facts: ImageFacts }> {
    const bytes = new Uint8Array(await (await blobs.blob(key)).arrayBuffer());
    const type = imageTypeOf(bytes.subarray(0, 16));
    if (!type) throw unsupportedImage();
    try {
      return { bytes, facts: await imageFacts(bytes, type) };
    } catch (e) {
      if (e instanceof ImageProblem) throw problemError(e);
      throw e;
    }
  }

  /**
   * A new version of the target's image from `writeOriginal` (which stores the file at the key it
   * is given): checked, its thumbnail made, recorded as processing with its variants job, in one
   * transaction. Throws the request's answer (413, 415, 400); nothing is kept then.
   */
  async function accept(target: ImageTarget, writeOriginal: (key: string) => Promise<void>): Promise<{ version: string; path: string }> {
    const { kind, ownerId, organizationId, userId } = target;
    const version = newVersion();
    const folder = imageKeys.version(kind, ownerId, version);
    try {
      await writeOriginal(imageKeys.original(kind, ownerId, version));
      const { bytes, facts } = await checkOriginal(imageKeys.original(kind, ownerId, version));
      const thumb = await makeVariant(bytes, facts, 'thumbnail').catch((e: unknown) => {
        throw e instanceof ImageProblem ? problemError(e) : e;
      });
      await blobs.putBytes(imageKeys.variant(kind, ownerId, version, 'thumbnail'), thumb.bytes);
      await deps.store.tx(async (q) => {
        await q.query(
          `INSERT INTO images (kind, owner_id, version, organization_id, content_type, width, height, created_by_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [kind, ownerId, version, organizationId, facts.type, facts.width, facts.height, userId],
        );
        await enqueueJob(q, IMAGE_VARIANTS_JOB, { ...target, version } satisfies z.infer<typeof VariantsJob>, { maxAttempts: 3 });
        if (kind === 'user') await writeUserPicture(q, ownerId, imagePath(kind, ownerId, version), now(deps));
      });
      return { version, path: imagePath(kind, ownerId, version) };
    } catch (e) {
      await blobs.remove(folder);
      throw e;
    }
  }

  /** Stores a request's body as the target's new image (the file rules: 400 empty, 413 too large). */
  async function fromRequest(target: ImageTarget, body: ReadableStream<Uint8Array> | null, declaredLength: number) {
    const tooLarge = (size: number) =>
      new AppError(413, { Errors: [fieldError('body', formError('fileTooLarge', 'domain_file_too_large', { maxSize: IMAGE_FILE_MAX_BYTES, size }))] });
    const empty = () => badRequest([fieldError('body', formError('emptyFile', 'domain_file_empty'))]);
    if (Number.isFinite(declaredLength) && declaredLength > IMAGE_FILE_MAX_BYTES) throw tooLarge(declaredLength);
    if (!body) throw badRequest([fieldError('body', formError('required'))]);
    return accept(target, async (key) => {
      try {
        await blobs.put(key, body, IMAGE_FILE_MAX_BYTES, (size) => {
          if (size === 0) throw empty();
        });
      } catch (e) {
        if (e instanceof BlobTooLargeError) throw tooLarge(e.received);
        throw e;
      }
    });
  }

  /** imageUrl: checked already (imageUrlRefusal); fetched, stored and made by a job. */
  async function enqueueFetch(target: ImageTarget, imageUrl: string): Promise<void> {
    await deps.store.tx((q) => enqueueJob(q, IMAGE_FETCH_JOB, { ...target, imageUrl } satisfies z.infer<typeof FetchJob>, { maxAttempts: 3 }));
  }

  /** The owner row with its artwork set (or cleared), a new Version; null when the row is gone. */
  async function writeOwner(q: Queryable, target: OwnerTarget, path: string | null): Promise<number | null> {
    const kind = target.kind;
    const current = await loadRow(q, kind as EntityName, target.organizationId, target.ownerId, { forUpdate: true });
    if (!current || current.Deleted) return null;
    const next = artworkFields(kind, current, path);
    const written = await updateRow(q, kind as EntityName, current, { organizationId: target.organizationId, userId: target.userId, now: now(deps), clientId: null }, next);
    return written.Version;
  }

  /** Whether the version is still recorded (not dropped for a newer one, nor removed). */
  async function stored({ kind, ownerId, version }: z.infer<typeof VariantsJob>): Promise<boolean> {
    const rows = await deps.store.query(`SELECT 1 FROM images WHERE kind = $1 AND owner_id = $2 AND version = $3`, [kind, ownerId, version]);
    return rows.length > 0;
  }

  /** The variants job: see the header. */
  async function finish(job: z.infer<typeof VariantsJob>): Promise<void> {
    const { kind, ownerId, version } = job;
    const [row] = await deps.store.query<{ content_type: ImageType; width: number; height: number }>(
      `SELECT content_type, width, height FROM images WHERE kind = $1 AND owner_id = $2 AND version = $3`,
      [kind, ownerId, version],
    );
    if (!row) return blobs.remove(imageKeys.version(kind, ownerId, version));
    try {
      const bytes = new Uint8Array(await (await blobs.blob(imageKeys.original(kind, ownerId, version))).arrayBuffer());
      const facts: ImageFacts = { type: row.content_type, width: row.width, height: row.height };
      for (const size of LATER_VARIANTS) await blobs.putBytes(imageKeys.variant(kind, ownerId, version, size), (await makeVariant(bytes, facts, size)).bytes);
    } catch (e) {
      // A newer version's job that ended first dropped this one and removed its files, or the
      // artwork was removed, while these variants were made: the files went from under this run
      // (a missing original, a rename into a folder that is gone). Nothing is left to make.
      if (!(await stored(job))) return blobs.remove(imageKeys.version(kind, ownerId, version));
      throw e;
    }
    const outcome = await deps.store.tx(async (q) => {
      const [mine] = await q.query<{ seq: number }>(`SELECT seq FROM images WHERE kind = $1 AND owner_id = $2 AND version = $3 FOR UPDATE`, [kind, ownerId, version]);
      if (!mine) return { keep: false, dropped: [] as string[], written: null };
      const newer = await q.query(`SELECT 1 FROM images WHERE kind = $1 AND owner_id = $2 AND seq > $3`, [kind, ownerId, mine.seq]);
      // A newer version was uploaded meanwhile: it will be the artwork, this one never is.
      if (newer.length > 0) {
        await q.query(`DELETE FROM images WHERE kind = $1 AND owner_id = $2 AND version = $3`, [kind, ownerId, version]);
        return { keep: false, dropped: [] as string[], written: null };
      }
      await q.query(`UPDATE images SET state = 'ready' WHERE kind = $1 AND owner_id = $2 AND version = $3`, [kind, ownerId, version]);
      if (!isOwnerTarget(job) && kind !== 'user') return { keep: true, dropped: [] as string[], written: null };
      const dropped = await q.query<{ version: string }>(`DELETE FROM images WHERE kind = $1 AND owner_id = $2 AND seq < $3 RETURNING version`, [kind, ownerId, mine.seq]);
      // A user's picture was theirs from the request on (accept): only older versions go.
      const written = isOwnerTarget(job) ? await writeOwner(q, job, imagePath(kind, ownerId, version)) : null;
      return { keep: true, dropped: dropped.map((d) => d.version), written };
    });
    if (outcome.written !== null && job.organizationId !== null) deps.bus.publish({ organizationId: job.organizationId, version: outcome.written });
    if (!outcome.keep) await blobs.remove(imageKeys.version(kind, ownerId, version));
    for (const old of outcome.dropped) await blobs.remove(imageKeys.version(kind, ownerId, old));
  }

  /** DELETE …/image: the row's artwork cleared (a new Version) and every stored version removed. */
  async function removeArtwork(target: OwnerTarget): Promise<void> {
    const { kind, ownerId } = target;
    const written = await deps.store.tx(async (q) => {
      const dropped = await q.query(`DELETE FROM images WHERE kind = $1 AND owner_id = $2 RETURNING version`, [kind, ownerId]);
      const current = await loadRow(q, kind as EntityName, target.organizationId, ownerId);
      const urls = current?.['Urls'] as Record<string, unknown> | null | undefined;
      // Nothing to clear: no new Version for a row that does not change.
      if (dropped.length === 0 && (urls?.['ImagePublicUrl'] ?? null) === null) return null;
      return writeOwner(q, target, null);
    });
    if (written !== null) deps.bus.publish({ organizationId: target.organizationId, version: written });
    await blobs.remove(imageKeys.owner(kind, ownerId));
  }

  /** DELETE /internal/users/me/image: the picture cleared and every stored version removed. */
  async function removeUserPicture(userId: string): Promise<void> {
    await deps.store.tx(async (q) => {
      await q.query(`DELETE FROM images WHERE kind = 'user' AND owner_id = $1`, [userId]);
      const [user] = await q.query<{ image_url: string | null }>(`SELECT image_url FROM users WHERE id = $1 FOR UPDATE`, [userId]);
      if (user?.image_url != null) await writeUserPicture(q, userId, null, now(deps));
    });
    await blobs.remove(imageKeys.owner('user', userId));
  }

  /** GET /images/{kind}/{id}/{version}?size=…: see the header. */
  async function serve(req: Request, kind: ImageKind, ownerId: string, version: string, size: ImageVariant): Promise<Response> {
    const [image] = await deps.store.query<{ content_type: string; state: string }>(
      `SELECT content_type, state FROM images WHERE kind = $1 AND owner_id = $2 AND version = $3`,
      [kind, ownerId, version],
    );
    if (!image) throw notFound();
    if (isOwnerKind(kind)) {
      // Artwork is served while it is its row's: not once the row is deleted or the image replaced.
      const path = imagePath(kind, ownerId, version);
      const live = await deps.store.query(`SELECT 1 FROM ${OWNER_TABLES[kind]} WHERE id = $1 AND NOT deleted AND data->'Urls'->>'ImagePublicUrl' = $2`, [ownerId, path]);
      if (live.length === 0) throw notFound();
    }
    if (kind === 'user') {
      // A picture is served while it is its user's.
      const live = await deps.store.query(`SELECT 1 FROM users WHERE id = $1 AND NOT deleted AND image_url = $2`, [ownerId, imagePath(kind, ownerId, version)]);
      if (live.length === 0) throw notFound();
    }
    const ready = image.state === 'ready' || size === 'thumbnail';
    // A chapter's or description's image is answered its URL before its variants are made (a
    // second or two): meanwhile the original, never cached, so nobody keeps it for the variant.
    const key = ready ? imageKeys.variant(kind, ownerId, version, size) : imageKeys.original(kind, ownerId, version);
    const bytes = await blobs.size(key);
    if (bytes === null) throw notFound();
    const etag = `"${version}-${ready ? size : 'original'}"`;
    const headers = new Headers({
      'content-type': image.content_type,
      'cache-control': ready ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag,
      'x-content-type-options': 'nosniff',
    });
    const match = req.headers.get('if-none-match');
    if (match !== null && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return new Response(null, { status: 304, headers });
    headers.set('content-length', String(bytes));
    return new Response(req.method === 'HEAD' ? null : (await blobs.blob(key)).stream(), { status: 200, headers });
  }

  const jobHandlers = {
    [IMAGE_VARIANTS_JOB]: defineJob({
      payload: VariantsJob,
      run: (job) => finish(job),
      // Variants that cannot be made after retries: the version never becomes the artwork.
      async giveUp(job) {
        await deps.store.query(`DELETE FROM images WHERE kind = $1 AND owner_id = $2 AND version = $3`, [job.kind, job.ownerId, job.version]);
        await blobs.remove(imageKeys.version(job.kind, job.ownerId, job.version));
      },
    }),
    [IMAGE_FETCH_JOB]: defineJob({
      payload: FetchJob,
      async run(job, ctx) {
        const { imageUrl, ...target } = job;
        // A file the server cannot use (not an image, too large) is as final as a refused address:
        // the job ends, the artwork stays as it was.
        try {
          await accept(target, async (key) => {
            await blobs.put(key, await fetchImage(imageUrl, policy, ctx.signal), IMAGE_FILE_MAX_BYTES);
          });
        } catch (e) {
          if (e instanceof AppError || e instanceof BlobTooLargeError) {
            logOf(deps).warn({ imageUrl, kind: target.kind, ownerId: target.ownerId, status: e instanceof AppError ? e.status : 413 }, 'image.fetch: not usable artwork');
            return;
          }
          throw e;
        }
      },
    }),
  };

  return { blobs, fromRequest, enqueueFetch, removeArtwork, removeUserPicture, serve, jobHandlers };
}

/** Image routes whose bodies are files (sync-server/body.ts streams them past the JSON limit). */
export function isImageUpload(method: string, path: string): boolean {
  if (method === 'POST') return path === '/api/v1/chapters/images' || path === '/api/internal/images';
  return method === 'PUT' && (path === '/api/internal/users/me/image' || /^\/api\/v1\/(networks|programs|playlists|clips)\/[^/]+\/image$/.test(path));
}
