// Feed drops (section 7): a clip dropped into a playlist of another program of its organization.
// The clip in the path is guarded like any clip route (content access on its program); the target
// playlist must be live, of another live program of the organization, and one the caller has
// content access to as well. A target the caller may not see is refused exactly as one that does
// not exist (400 naming PlaylistId), and a list names only drops into playlists the caller sees.
// Every write takes a new Version from the global sequence: the target feed's version key
// (sync-server/feeds/feed-data.ts) changes with it.
import { mayRead } from '../../src/domain/access.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { normaliseTitle } from '../../src/domain/clip.ts';
import { validateTitle } from '../../src/domain/validators.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/feed-drops.ts';
import type { FeedDrop } from '../../src/protocol/api/feed-drops.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { now } from '../app.ts';
import { getAuth, type Auth } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError, notFound } from '../errors.ts';
import { checkPrecondition, etagOf, ifMatch } from '../http.ts';
import { newId } from '../mutations/content.ts';
import { flagsForProgram } from '../mutations/store.ts';
import { nextModified } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { paged, readablePrograms } from './lists.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

/** Longest drop description kept (a feed item's notes; the clip's own has no smaller limit). */
const DESCRIPTION_MAX_LENGTH = 20_000;

type DropRow = {
  id: string;
  organization_id: string;
  clip_id: string;
  playlist_id: string;
  program_id: string;
  title: string | null;
  description: string | null;
  drop_at_utc: Date | null;
  created_at_utc: Date;
  created_by_id: string | null;
  modified_at_utc: Date;
  modified_by_id: string | null;
  deleted: boolean;
  version: number;
};

const SELECT = `SELECT d.*, p.program_id FROM feed_drops d JOIN playlists p ON p.id = d.playlist_id`;

function toWire(r: DropRow): FeedDrop {
  return {
    Id: r.id,
    OrganizationId: r.organization_id,
    ClipId: r.clip_id,
    PlaylistId: r.playlist_id,
    ProgramId: r.program_id,
    Title: r.title,
    Description: r.description,
    DropAtUtc: r.drop_at_utc ? new Date(r.drop_at_utc).toISOString() : null,
    CreatedAtUtc: new Date(r.created_at_utc).toISOString(),
    CreatedById: r.created_by_id,
    ModifiedAtUtc: new Date(r.modified_at_utc).toISOString(),
    ModifiedById: r.modified_by_id,
    Deleted: r.deleted,
    Version: Number(r.version),
  };
}

/** Program ids whose playlists the caller may read (content access). */
const readablePlaylistPrograms = (q: Queryable, auth: Auth) => readablePrograms(q, auth, ENTITY_KINDS.playlists.read);

/** A live drop of the clip into a playlist the caller sees; 404 otherwise. */
async function loadDrop(q: Queryable, auth: Auth, clipId: string, dropId: string, lock = false): Promise<DropRow> {
  const [row] = await q.query<DropRow>(`${SELECT} WHERE d.id = $1 AND d.clip_id = $2 AND d.organization_id = $3${lock ? ' FOR UPDATE OF d' : ''}`, [
    dropId,
    clipId,
    auth.organizationId,
  ]);
  if (!row || row.deleted || !(await readablePlaylistPrograms(q, auth)).includes(row.program_id)) throw notFound();
  return row;
}

/** The drop's own fields, checked: a title as any title (blank: none), a description's length. */
function checkedFields(body: { Title?: string | null | undefined; Description?: string | null | undefined; DropAtUtc?: string | null | undefined }) {
  const out: { title?: string | null; description?: string | null; dropAt?: Date | null } = {};
  if (body.Title !== undefined) {
    const title = normaliseTitle(body.Title);
    if (title !== null) assertValid([['Title', validateTitle(title)]]);
    out.title = title;
  }
  if (body.Description !== undefined) {
    const description = body.Description === null || body.Description.trim() === '' ? null : body.Description;
    if (description !== null && description.length > DESCRIPTION_MAX_LENGTH) assertValid([['Description', formError('tooLong', undefined, { max: DESCRIPTION_MAX_LENGTH })]]);
    out.description = description;
  }
  if (body.DropAtUtc !== undefined) out.dropAt = body.DropAtUtc === null ? null : new Date(body.DropAtUtc);
  return out;
}

export function feedDropRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listFeedDrops, guard.row('clips', 'clipId')), async (c) => {
      const { store } = c.get('deps');
      const auth = getAuth(c);
      const query = c.req.valid('query');
      const page = pageOf(query);
      const params: unknown[] = [c.var.row.Id, auth.organizationId, await readablePlaylistPrograms(store, auth)];
      let where = `d.clip_id = $1 AND d.organization_id = $2 AND p.program_id = ANY($3::uuid[])`;
      if (!query.includeDeleted) where += ' AND NOT d.deleted';
      if (query.filter) {
        params.push(`%${query.filter.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
        where += ` AND d.title ILIKE $${params.length}`;
      }
      const rows = await store.query<DropRow>(`${SELECT} WHERE ${where} ORDER BY d.created_at_utc, d.id LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`, params);
      return c.json(paged(rows.map(toWire), page), 200);
    })
    .openapi(guarded(routes.getFeedDrop, guard.row('clips', 'clipId')), async (c) => {
      const drop = toWire(await loadDrop(c.get('deps').store, getAuth(c), c.var.row.Id, c.req.valid('param').feedDropId));
      c.header('ETag', etagOf(drop));
      return c.json(drop, 200);
    })
    .openapi(guarded(routes.createFeedDrop, guard.row('clips', 'clipId', 'HasContentAccess')), async (c) => {
      const auth = getAuth(c);
      const body = c.req.valid('json');
      const fields = checkedFields(body);
      const clip = c.var.row;
      const at = now(c.get('deps'));
      const id = body.Id?.toLowerCase() ?? newId();
      const row = await c.get('deps').store.tx(async (q) => {
        // The target: a live playlist of another live program of the organization, with content access.
        const [target] = await q.query<{ program_id: string; network_id: string | null; deleted: boolean; program_deleted: boolean }>(
          `SELECT p.program_id, g.network_id, p.deleted, g.deleted AS program_deleted FROM playlists p JOIN programs g ON g.id = p.program_id
           WHERE p.id = $1 AND p.organization_id = $2`,
          [body.PlaylistId.toLowerCase(), auth.organizationId],
        );
        const sees = target && !target.deleted && !target.program_deleted && mayRead(ENTITY_KINDS.playlists.read, flagsForProgram(auth, { id: target.program_id, network_id: target.network_id }));
        if (!sees) throw badRequest([fieldError('PlaylistId', formError('invalid'))]);
        if (target.program_id === clip['ProgramId']) throw badRequest([fieldError('PlaylistId', formError('invalid', undefined, undefined, 'SameProgram'))]);
        const taken = await q.query(`SELECT 1 FROM feed_drops WHERE id = $1`, [id]);
        if (taken.length > 0) throw new AppError(409);
        const twice = await q.query(`SELECT 1 FROM feed_drops WHERE clip_id = $1 AND playlist_id = $2 AND NOT deleted`, [clip.Id, body.PlaylistId.toLowerCase()]);
        if (twice.length > 0) throw badRequest([fieldError('PlaylistId', formError('invalid', undefined, undefined, 'AlreadyDropped'))]);
        await q.query(
          `INSERT INTO feed_drops (id, organization_id, clip_id, playlist_id, title, description, drop_at_utc, created_at_utc, created_by_id, modified_at_utc, modified_by_id, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $9, next_row_version())`,
          [id, auth.organizationId, clip.Id, body.PlaylistId.toLowerCase(), fields.title ?? null, fields.description ?? null, fields.dropAt ?? null, at, auth.user.Id],
        );
        return loadDrop(q, auth, clip.Id, id);
      });
      const drop = toWire(row);
      c.header('ETag', etagOf(drop));
      return c.json(drop, 201);
    })
    .openapi(guarded(routes.updateFeedDrop, guard.row('clips', 'clipId', 'HasContentAccess')), async (c) => {
      const auth = getAuth(c);
      const fields = checkedFields(c.req.valid('json'));
      const expected = ifMatch(c);
      const at = now(c.get('deps'));
      const row = await c.get('deps').store.tx(async (q) => {
        const current = await loadDrop(q, auth, c.var.row.Id, c.req.valid('param').feedDropId, true);
        checkPrecondition(expected, toWire(current));
        await q.query(
          `UPDATE feed_drops SET title = $2, description = $3, drop_at_utc = $4, modified_at_utc = $5, modified_by_id = $6, version = next_row_version() WHERE id = $1`,
          [
            current.id,
            fields.title !== undefined ? fields.title : current.title,
            fields.description !== undefined ? fields.description : current.description,
            fields.dropAt !== undefined ? fields.dropAt : current.drop_at_utc,
            nextModified(at, current.modified_at_utc),
            auth.user.Id,
          ],
        );
        return loadDrop(q, auth, c.var.row.Id, current.id);
      });
      const drop = toWire(row);
      c.header('ETag', etagOf(drop));
      return c.json(drop, 200);
    })
    .openapi(guarded(routes.deleteFeedDrop, guard.row('clips', 'clipId', 'HasContentAccess')), async (c) => {
      const auth = getAuth(c);
      const expected = ifMatch(c);
      const at = now(c.get('deps'));
      await c.get('deps').store.tx(async (q) => {
        const current = await loadDrop(q, auth, c.var.row.Id, c.req.valid('param').feedDropId, true);
        checkPrecondition(expected, toWire(current));
        await q.query(`UPDATE feed_drops SET deleted = true, modified_at_utc = $2, modified_by_id = $3, version = next_row_version() WHERE id = $1`, [
          current.id,
          nextModified(at, current.modified_at_utc),
          auth.user.Id,
        ]);
      });
      return c.body(null, 204);
    });
}
