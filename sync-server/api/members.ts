// Members of a program, their private feeds and the program's signing keys
// (src/protocol/api/members.ts; rules: src/domain/member-feeds.ts). Members are server-held
// secrets edited online only, so these are plain REST writes, not named mutations.
//
// Who: those who may edit the program's settings (HasContentAccess and HasManageSettingsAccess on
// it). A member row is visible to nobody else: /v1/members/{memberId} answers 404 to them, as for
// a member that does not exist.
//
// The public surface (memberFeedRoutes, outside /api):
//   GET /feeds/{playlistId}/members/{token}.xml ── token of a member not revoked, of the
//       playlist's program, playlist not Private ──> the feed (Restricted clips too), each
//       enclosure a signed media URL; anything else 404, all alike
//   GET /audio/m/{memberId}/{clipId}.{ext}?k&exp&af&sig ── signature, expiry, key not retired,
//       member not revoked (else 403, before the clip is looked at) ── clip published, not
//       Private, of the member's program or dropped into one of its playlists (else 404)
//       ──> servePublishedAudio (Range, ETag, the download event), ad-free as signed
import type { Context, MiddlewareHandler } from 'hono';
import * as routes from '../../src/protocol/api/members.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import { mayRead, missingFlags } from '../../src/domain/access.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { isGuid } from '../../src/domain/validators.ts';
import { absoluteUrl, publicPaths } from '../../src/domain/public-urls.ts';
import { PUBLIC_AUDIO_FILE } from '../../src/protocol/api/publishing.ts';
import {
  MEMBER_MANAGER_FLAGS,
  MEMBER_URL_WINDOW_SECONDS,
  memberAudioPath,
  memberUrlWindow,
  playlistHasMemberFeed,
  podcastSchemeUrl,
  servesMemberAudio,
} from '../../src/domain/member-feeds.ts';
import type { PermissionFlags } from '../../src/domain/permissions.ts';
import { getAuth, requireSession } from '../auth.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { now } from '../app.ts';
import { flagsForProgram, type ProgramRef } from '../mutations/store.ts';
import { newId } from '../mutations/content.ts';
import { publicOrigin } from '../public-origin.ts';
import { feedContent, feedValidators } from '../feeds/feed-data.ts';
import { buildRss } from '../feeds/rss.ts';
import type { PublishingService } from '../publishing/service.ts';
import { insertMember, loadMember, memberByToken, resetToken, toMember, updateMember, type MemberRow } from '../members/members.ts';
import { currentKey, listKeys, rotateKey, signedQueryString, signMemberAudio, verifyMemberAudio } from '../members/signing.ts';
import { paged } from './lists.ts';
import { conditionalText } from './feeds.ts';
import { documented } from './media.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The member a /v1/members/{memberId} route touches (memberGuard). */
    member: MemberRow;
  }
}

const managesMembers = (flags: PermissionFlags) => mayRead(ENTITY_KINDS.programs.read, flags) && missingFlags(flags, MEMBER_MANAGER_FLAGS).length === 0;

/** The member in the path, of a program the caller may edit the settings of; else 404. */
function memberGuard(): Access {
  const check: MiddlewareHandler = async (c, next) => {
    const id = c.req.param('memberId');
    if (!id || !isGuid(id)) throw notFound();
    const auth = getAuth(c);
    const { store } = c.get('deps');
    const member = await loadMember(store, auth.organizationId, id.toLowerCase());
    if (!member) throw notFound();
    const [program] = await store.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE id = $1`, [member.program_id]);
    if (!program || program.deleted || !managesMembers(flagsForProgram(auth, program))) throw notFound();
    c.set('member', member);
    c.set('program', program);
    await next();
  };
  return { middleware: [requireSession, check], describe: 'A member with HasContentAccess and HasManageSettingsAccess on the member’s program (anyone else: 404)' };
}

/** The member named by memberId must be of the program the route's row is in; else 404. */
async function memberOfProgram(c: Context, memberId: string): Promise<MemberRow> {
  const member = await loadMember(c.get('deps').store, getAuth(c).organizationId, memberId);
  if (!member || member.program_id !== c.var.program.id) throw notFound();
  return member;
}

const likePattern = (filter: string) => `%${filter.trim().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The extension of a published audio path ('/audio/{id}.m4a' → 'm4a'); mp3 when none is known. */
const extOf = (audioPath: string | null | undefined) => (audioPath ? /\.([a-z0-9]{1,8})(?:[?#]|$)/i.exec(audioPath)?.[1]?.toLowerCase() : undefined) ?? 'mp3';

export function memberRoutes() {
  const program = () => guard.program('programId', ...MEMBER_MANAGER_FLAGS);
  const member = memberGuard;
  return resourceApp()
    .openapi(guarded(routes.listMembers, program()), async (c) => {
      const query = c.req.valid('query');
      const page = pageOf(query);
      const filter = query.filter?.trim() ? likePattern(query.filter) : null;
      const rows = await c.get('deps').store.query<MemberRow>(
        `SELECT * FROM members WHERE program_id = $1 AND ($2::text IS NULL OR name ILIKE $2 OR email ILIKE $2)
         ORDER BY lower(name), id LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`,
        [c.var.program.id, filter],
      );
      return c.json(paged(rows.map(toMember), page), 200);
    })
    .openapi(guarded(routes.createMember, program()), async (c) => {
      const body = c.req.valid('json');
      const auth = getAuth(c);
      const row = await insertMember(c.get('deps').store, {
        id: newId(),
        organizationId: auth.organizationId,
        programId: c.var.program.id,
        name: body.Name,
        email: body.Email,
        note: body.Note?.trim() ? body.Note.trim() : null,
        createdById: auth.user.Id,
        at: now(c.get('deps')),
      });
      return c.json(toMember(row), 201);
    })
    .openapi(guarded(routes.updateMember, member()), async (c) => {
      const patch = c.req.valid('json');
      const note = patch.Note === undefined ? undefined : patch.Note?.trim() ? patch.Note.trim() : null;
      const row = await updateMember(c.get('deps').store, c.var.member.id, { ...patch, Note: note }, now(c.get('deps')));
      return c.json(toMember(row), 200);
    })
    .openapi(guarded(routes.deleteMember, member()), async (c) => {
      await c.get('deps').store.query(`DELETE FROM members WHERE id = $1`, [c.var.member.id]);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.resetMemberToken, member()), async (c) => c.json(toMember(await resetToken(c.get('deps').store, c.var.member.id, now(c.get('deps')))), 200))
    .openapi(guarded(routes.memberFeedUrl, guard.row('playlists', 'playlistId', ...MEMBER_MANAGER_FLAGS)), async (c) => {
      const m = await memberOfProgram(c, c.req.valid('param').memberId);
      const url = absoluteUrl(publicPaths.memberFeed(c.var.row.Id, m.token), publicOrigin(c));
      return c.json({ Url: c.req.valid('query').type === 'podcast' ? podcastSchemeUrl(url) : url, ExpiresAtUtc: null }, 200);
    })
    .openapi(guarded(routes.memberClipUrl, guard.row('clips', 'clipId', ...MEMBER_MANAGER_FLAGS)), async (c) => {
      const m = await memberOfProgram(c, c.req.valid('param').memberId);
      const { store } = c.get('deps');
      const at = now(c.get('deps'));
      const clip = c.var.row;
      const adFree = clip['MemberDownloadsAdFree'] === true;
      const audio = (clip['Urls'] as { AudioPublicUrl?: string | null } | null | undefined)?.AudioPublicUrl;
      const signed = signMemberAudio(await currentKey(store, m.organization_id, m.program_id, at), m.id, clip.Id, adFree, at);
      const url = absoluteUrl(`${memberAudioPath(m.id, clip.Id, extOf(audio))}?${signedQueryString(signed)}`, publicOrigin(c));
      return c.json({ Url: url, ExpiresAtUtc: new Date(signed.exp * 1000).toISOString(), AdFree: adFree }, 200);
    })
    .openapi(guarded(routes.listSigningKeys, program()), async (c) => c.json({ Items: await listKeys(c.get('deps').store, c.var.program.id, now(c.get('deps'))) }, 200))
    .openapi(guarded(routes.rotateSigningKey, program()), async (c) => {
      const { store } = c.get('deps');
      const at = now(c.get('deps'));
      const outcome = await rotateKey(store, getAuth(c).organizationId, c.var.program.id, c.req.valid('param').signingKeyId, at);
      if (outcome === null) throw notFound();
      if (outcome === 'not-current') throw badRequest([fieldError('signingKeyId', formError('invalid'))]);
      return c.json({ Items: await listKeys(store, c.var.program.id, at) }, 200);
    });
}

type AdFreeRow = { id: string; ad_free: boolean | null };
type MemberClipRow = { id: string; organization_id: string; program_id: string; publish_state: string; visibility: string; deleted: boolean; dropped: boolean };

/** A member's private feed and signed media: no session, mounted outside /api. */
export function memberFeedRoutes(publishing: PublishingService) {
  const access = guard.public();
  const app = resourceApp()
    .openapi(guarded(routes.getMemberFeed, access), async (c) => {
      const { playlistId, tokenFile } = c.req.valid('param');
      if (!isGuid(playlistId) || !tokenFile.endsWith('.xml')) return c.body(null, 404);
      const { store } = c.get('deps');
      const member = await memberByToken(store, tokenFile.slice(0, -'.xml'.length));
      if (!member) return c.body(null, 404);
      const at = now(c.get('deps'));
      const origin = publicOrigin(c);
      const key = await currentKey(store, member.organization_id, member.program_id, at);
      // Per member and token, per key and per window of expiry: a rotation or a new window gives
      // the feed new enclosure URLs, so a new ETag.
      const adFreeFeed = c.req.valid('query').adFree === true;
      const variant = `member:${member.id}:${member.token_version}:${key.id}:${memberUrlWindow(at)}${adFreeFeed ? ':ad-free' : ''}`;
      const v = await feedValidators(store, playlistId.toLowerCase(), at, origin, playlistHasMemberFeed, variant);
      if (!v || v.programId !== member.program_id) return c.body(null, 404);
      // Its Last-Modified moves with them too, for apps that revalidate by date alone: a 304 must
      // never leave a listener holding links that have expired.
      const since = Math.max(v.lastModified.getTime(), memberUrlWindow(at) * MEMBER_URL_WINDOW_SECONDS * 1000, Math.floor(new Date(key.created_at_utc).getTime() / 1000) * 1000);
      const res = await conditionalText(c, v.tag, new Date(since), 'application/rss+xml; charset=utf-8', async () => {
        const adFree = await store.query<AdFreeRow>(
          `SELECT c.id, (c.data->>'MemberDownloadsAdFree')::boolean AS ad_free FROM clips c
           WHERE c.id IN (SELECT jsonb_array_elements_text(clip_ids)::uuid FROM playlists WHERE id = $1)
              OR c.id IN (SELECT clip_id FROM feed_drops WHERE playlist_id = $1 AND NOT deleted)`,
          [v.playlistId],
        );
        const adFreeOf = new Map(adFree.map((r) => [r.id, r.ad_free === true]));
        const { channel, items } = await feedContent(store, v, origin, {
          now: at,
          member: true,
          feedPath: `${publicPaths.memberFeed(v.playlistId, member.token)}${adFreeFeed ? '?adFree=true' : ''}`,
          // A private feed is kept out of directories, and locked against being moved elsewhere.
          block: true,
          enclosureUrl: (clipId, audioPath) =>
            absoluteUrl(`${memberAudioPath(member.id, clipId, extOf(audioPath))}?${signedQueryString(signMemberAudio(key, member.id, clipId, adFreeFeed || (adFreeOf.get(clipId) ?? false), at))}`, origin),
        });
        return buildRss({ ...channel, locked: true }, items);
      });
      // The answer is one member's: no shared cache keeps it past a revocation.
      res.headers.set('cache-control', 'private, max-age=60');
      return res;
    })
    .openapi(guarded(routes.getMemberAudio, access), async (c) => {
      const { memberId, clipFile } = c.req.valid('param');
      const file = PUBLIC_AUDIO_FILE.exec(clipFile);
      if (!isGuid(memberId) || !file) return c.body(null, 403);
      const clipId = file[1]!.toLowerCase();
      const memberKey = memberId.toLowerCase();
      const { store } = c.get('deps');
      const at = now(c.get('deps'));
      const grant = await verifyMemberAudio(store, memberKey, clipId, c.req.valid('query'), at);
      if (!grant) return c.body(null, 403);
      const [m] = await store.query<{ program_id: string; revoked_at_utc: Date | null }>(`SELECT program_id, revoked_at_utc FROM members WHERE id = $1`, [memberKey]);
      if (!m || m.revoked_at_utc !== null || m.program_id !== grant.programId) return c.body(null, 403);
      const [clip] = await store.query<MemberClipRow>(
        `SELECT c.id, c.organization_id, c.program_id, c.publish_state, c.visibility, c.deleted OR coalesce(g.deleted, true) AS deleted,
           EXISTS (SELECT 1 FROM feed_drops d JOIN playlists p ON p.id = d.playlist_id WHERE d.clip_id = c.id AND NOT d.deleted AND p.program_id = $2) AS dropped
         FROM clips c LEFT JOIN programs g ON g.id = c.program_id WHERE c.id = $1`,
        [clipId, m.program_id],
      );
      const ref = { Id: clipId, OrganizationId: clip?.organization_id ?? null, ProgramId: clip?.program_id ?? null };
      if (!clip || !(clip.program_id === m.program_id || clip.dropped) || !servesMemberAudio({ PublishState: clip.publish_state, Visibility: clip.visibility, Deleted: clip.deleted })) {
        return publishing.notServed(c, ref, grant.adFree);
      }
      const res = await publishing.servePublishedAudio(c, { ...ref, Id: clip.id }, { adFree: grant.adFree });
      res.headers.set('cache-control', 'private, max-age=3600');
      return res;
    });
  documented(app, routes.headMemberAudio, access);
  return app;
}
