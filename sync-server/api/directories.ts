// A playlist's directories and premium feeds (src/protocol/api/directories.ts; rules:
// src/domain/directories.ts).
//
// Directory submissions are metadata on the playlist's row, so POST and DELETE …/{directory} run
// the named mutation playlist.setDirectories (runRest): a call and a device's queued edit are
// judged alike. The checklist is read from the rows the feed is made of (feed-data.ts reads the
// same), and the artwork's size from the images table. No call leaves the studio: the user
// submits at the directory's site.
//
// Premium delivery is server-held (playlist_premium, 0580): the Apple link is checked against the
// Apple Podcasts Subscriptions settings in effect for the program when made and on resync; the
// Spotify subscriber feed is the private feed of a member of the program the studio makes for it
// (sync-server/members), so its token, its signed enclosures and its revocation are the members'.
//
// Route order: this module is mounted before settingsRoutes, so
// GET /internal/programs/{programId}/settings/playlist-premium-feed-urls is answered here and
// never as the named setting of that name (tests/server/directories.test.ts pins it).
import type { Context } from 'hono';
import type * as z from 'zod';
import * as routes from '../../src/protocol/api/directories.ts';
import type { ApplePremiumValues } from '../../src/domain/apple-premium.ts';
import {
  DIRECTORIES,
  applePremiumLinkState,
  applePremiumMissing,
  directoriesOf,
  directoryChecklist,
  directoryChecks,
  directoryState,
  markRemoved,
  markSubmitted,
  type DirectoryId,
} from '../../src/domain/directories.ts';
import type { FeedClipFields } from '../../src/domain/feed.ts';
import { playlistHasPublicFeed } from '../../src/domain/feed.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { MEMBER_MANAGER_FLAGS, playlistHasMemberFeed } from '../../src/domain/member-feeds.ts';
import { absoluteUrl, publicPaths } from '../../src/domain/public-urls.ts';
import { playlistSetDirectories } from '../../src/mutations/directories.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { mayRead } from '../../src/domain/access.ts';
import { getAuth, requireSession } from '../auth.ts';
import { AppError, badRequest, fieldError } from '../errors.ts';
import { now } from '../app.ts';
import { etagOf, ifMatch } from '../http.ts';
import { newId } from '../mutations/content.ts';
import { runRest } from '../mutations/rest.ts';
import { flagsForProgram, type ProgramRef } from '../mutations/store.ts';
import { insertMember, resetToken, updateMember, type MemberRow } from '../members/members.ts';
import { publicOrigin } from '../public-origin.ts';
import { loadRow, type WireRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { appleInEffect, feedClips, iso, premiumOf, savePremium, valuesOf, type PremiumRow } from '../directories/premium.ts';
import { startReport } from '../reports/report-job.ts';
import { guard } from './guard.ts';
import { assertFeature, featureDocumented, withFeature } from '../billing/entitlements.ts';
import { guarded, resourceApp } from './route.ts';

function linkAnswer(premium: PremiumRow | null, effective: ApplePremiumValues): routes.ApplePremiumLink {
  const linked = premium?.apple_linked === true;
  return {
    State: applePremiumLinkState(linked, effective),
    Missing: linked ? applePremiumMissing(effective) : [],
    LinkedAtUtc: linked ? iso(premium.apple_linked_at_utc) : null,
    LinkedById: linked ? premium.apple_linked_by_id : null,
    CheckedAtUtc: iso(premium?.apple_checked_at_utc ?? null),
  };
}

/** The size of the feed's artwork: the playlist's image, else its program's (feed-data.ts). */
async function artworkOf(q: Queryable, playlist: WireRow, program: WireRow): Promise<{ width: number; height: number } | null> {
  for (const [kind, row] of [['playlist', playlist], ['program', program]] as const) {
    const url = (row['Urls'] as { ImagePublicUrl?: string | null } | null | undefined)?.ImagePublicUrl;
    if (!url) continue;
    const version = url.split(/[?#]/)[0]!.split('/').at(-1) ?? '';
    const [image] = await q.query<{ width: number; height: number }>(`SELECT width, height FROM images WHERE kind = $1 AND owner_id = $2 AND version = $3`, [kind, row.Id, version]);
    return image ? { width: image.width, height: image.height } : null;
  }
  return null;
}

async function clipsOf(q: Queryable, playlist: WireRow): Promise<FeedClipFields[]> {
  return [...(await feedClips(q, playlist.OrganizationId, (playlist['ClipIds'] as string[] | undefined) ?? [])).values()];
}

async function programRow(c: Context): Promise<WireRow> {
  const row = await loadRow(c.get('deps').store, 'program', getAuth(c).organizationId, c.var.program.id);
  if (!row) throw new AppError(404);
  return row;
}

async function directoriesAnswer(c: Context): Promise<routes.PlaylistDirectories> {
  const { store } = c.get('deps');
  const auth = getAuth(c);
  const playlist = c.var.row;
  const program = await programRow(c);
  const at = now(c.get('deps'));
  const checks = directoryChecks({
    playlist: playlist as WireRow & { Visibility: string },
    program,
    organization: await loadRow(store, 'organization', auth.organizationId, auth.organizationId),
    artwork: await artworkOf(store, playlist, program),
    clips: await clipsOf(store, playlist),
    now: at,
  });
  const record = directoriesOf(playlist);
  const items = DIRECTORIES.map((d) => {
    const s = record[d.id];
    const { checklist, ready } = directoryChecklist(d.id, checks);
    return {
      Directory: d.id,
      Name: d.name,
      SubmitUrl: d.submitUrl,
      State: directoryState(s),
      SubmittedAtUtc: s?.SubmittedAtUtc ?? null,
      SubmittedById: s?.SubmittedById ?? null,
      ListingUrl: s?.ListingUrl ?? null,
      RemovedAtUtc: s?.RemovedAtUtc ?? null,
      RemovedById: s?.RemovedById ?? null,
      Checklist: checklist,
      Ready: ready,
    };
  });
  const visibility = String(playlist['Visibility']);
  return {
    PlaylistId: playlist.Id,
    FeedUrl: playlistHasPublicFeed({ Visibility: visibility }) ? absoluteUrl(publicPaths.feed(playlist.Id), publicOrigin(c)) : null,
    ModifiedAtUtc: playlist.ModifiedAtUtc,
    Items: items,
    ApplePremium: linkAnswer(await premiumOf(store, playlist.Id), await appleInEffect(store, auth.organizationId, program)),
  };
}

/** The playlist's record changed by `change`, through the named mutation; unchanged: nothing written. */
async function writeDirectories(c: Context, directory: DirectoryId, change: 'submit' | 'remove', listingUrl?: string | null): Promise<void> {
  const playlist = c.var.row;
  const record = directoriesOf(playlist);
  const stamp = { at: now(c.get('deps')).toISOString(), userId: getAuth(c).user.Id };
  const next = change === 'submit' ? markSubmitted(record, directory, { ...stamp, listingUrl }) : markRemoved(record, directory, stamp);
  if (next === record) return;
  try {
    await runRest(c, playlistSetDirectories, { playlistId: playlist.Id, Directories: next }, ifMatch(c));
  } catch (err) {
    // The record's field names as the route's body names them: ListingUrl.
    if (err instanceof AppError && err.status === 400 && Array.isArray((err.body as { Errors?: unknown } | undefined)?.Errors)) {
      const body = err.body as { Errors: { Field: string }[] };
      throw new AppError(400, { ...body, Errors: body.Errors.map((e) => (e.Field === `Directories.${directory}.ListingUrl` ? { ...e, Field: 'ListingUrl' } : e)) });
    }
    throw err;
  }
}

// ── Spotify ───────────────────────────────────────────────────────────────────────────────

/** The address of the member the studio makes for a playlist's Spotify feed: the reserved .invalid
 * domain (RFC 2606) says no mail goes there, and one per playlist keeps members' addresses unique. */
const spotifyMemberEmail = (playlistId: string) => `spotify-${playlistId}@subscribers.invalid`;

async function spotifyMember(q: Queryable, premium: PremiumRow | null): Promise<MemberRow | null> {
  if (!premium?.spotify_member_id) return null;
  const [row] = await q.query<MemberRow>(`SELECT * FROM members WHERE id = $1`, [premium.spotify_member_id]);
  return row ?? null;
}

function spotifyAnswer(c: Context, playlistId: string, member: MemberRow | null): routes.SpotifyPremium {
  const on = member !== null && member.revoked_at_utc === null;
  return {
    PlaylistId: playlistId,
    Enabled: on,
    FeedUrl: on ? absoluteUrl(publicPaths.memberFeed(playlistId, member.token), publicOrigin(c)) : null,
    MemberId: member?.id ?? null,
    TokenCreatedAtUtc: on ? iso(member.modified_at_utc) : null,
  };
}

// ── Premium feed URLs of a program ────────────────────────────────────────────────────────

async function premiumFeedUrls(c: Context, adFree: boolean): Promise<z.infer<typeof routes.PremiumFeedUrls>> {
  const { store } = c.get('deps');
  const programId = c.var.program.id;
  const playlists = await store.query<{ id: string; data: Record<string, unknown>; deleted: boolean }>(
    `SELECT id, data, deleted FROM playlists WHERE program_id = $1 AND NOT deleted ORDER BY lower(data->>'Title'), id`,
    [programId],
  );
  const members = await store.query<MemberRow>(`SELECT * FROM members WHERE program_id = $1 AND revoked_at_utc IS NULL ORDER BY lower(name), id`, [programId]);
  const origin = publicOrigin(c);
  const feedUrl = (playlistId: string, token: string) => {
    const url = absoluteUrl(publicPaths.memberFeed(playlistId, token), origin);
    return adFree ? `${url}?adFree=true` : url;
  };
  return {
    ProgramId: programId,
    AdFree: adFree,
    Items: playlists
      .filter((p) => playlistHasMemberFeed({ Visibility: String(p.data['Visibility']), Deleted: p.deleted }))
      .map((p) => ({
        PlaylistId: p.id,
        Title: typeof p.data['Title'] === 'string' ? p.data['Title'] : '',
        Members: members.map((m) => ({ MemberId: m.id, Name: m.name, Url: feedUrl(p.id, m.token) })),
      })),
  };
}

export function directoryRoutes() {
  const read = () => guard.row('playlists', 'playlistId');
  const write = () => guard.row('playlists', 'playlistId', 'HasContentAccess', 'HasManageSettingsAccess');
  const managers = () => guard.row('playlists', 'playlistId', ...MEMBER_MANAGER_FLAGS);
  // Linking a playlist to Apple Podcasts Subscriptions, and what that link reports, are the plan's apple-premium.
  const appleWrite = () => withFeature(write(), 'apple-premium');
  return (
    resourceApp()
      .openapi(guarded(routes.premiumFeedUrls, guard.program('programId', ...MEMBER_MANAGER_FLAGS)), async (c) => c.json(await premiumFeedUrls(c, c.req.valid('query').adFree === true), 200))
      .openapi(guarded(routes.getDirectories, read()), async (c) => {
        const answer = await directoriesAnswer(c);
        c.header('ETag', etagOf(c.var.row));
        return c.json(answer, 200);
      })
      // apple-premium before {directory}: the first route that matches answers.
      .openapi(guarded(routes.linkApplePremium, featureDocumented(write(), 'apple-premium')), async (c) => {
        const { store } = c.get('deps');
        const auth = getAuth(c);
        const at = now(c.get('deps'));
        const { Linked } = c.req.valid('json');
        // Linking needs the plan's apple-premium; unlinking does not (an organization that lost it tidies up).
        if (Linked) await assertFeature(store, auth.organizationId, 'apple-premium');
        const state = applePremiumLinkState(Linked, await appleInEffect(store, auth.organizationId, await programRow(c)));
        const current = await premiumOf(store, c.var.row.Id);
        const linkedAt = Linked ? (current?.apple_linked ? current.apple_linked_at_utc : at.toISOString()) : null;
        await savePremium(store, auth.organizationId, c.var.row.Id, at, {
          apple_linked: Linked,
          apple_linked_at_utc: linkedAt,
          apple_linked_by_id: Linked ? (current?.apple_linked ? current.apple_linked_by_id : auth.user.Id) : null,
          apple_checked_at_utc: at.toISOString(),
          apple_state: state,
        });
        return c.body(null, 204);
      })
      .openapi(guarded(routes.resyncApplePremium, appleWrite()), async (c) => {
        const { store } = c.get('deps');
        const auth = getAuth(c);
        const at = now(c.get('deps'));
        const current = await premiumOf(store, c.var.row.Id);
        const state = applePremiumLinkState(current?.apple_linked === true, await appleInEffect(store, auth.organizationId, await programRow(c)));
        await savePremium(store, auth.organizationId, c.var.row.Id, at, { apple_checked_at_utc: at.toISOString(), apple_state: state });
        return c.body(null, 204);
      })
      .openapi(guarded(routes.linkingReport, appleWrite()), async (c) => {
        const auth = getAuth(c);
        const deps = c.get('deps');
        const playlist = c.var.row;
        const programId = c.var.program.id;
        // The operation and its job in one transaction (reports.make runs it after commit).
        const operation = await deps.store.tx((q) =>
          startReport(q, {
            organizationId: auth.organizationId,
            userId: auth.user.Id,
            kind: 'apple-premium-linking-report',
            level: 'program',
            levelId: programId,
            levelName: typeof playlist['Title'] === 'string' ? playlist['Title'] : null,
            scope: { kind: 'programs', programIds: [programId] },
            filters: { playlistId: playlist.Id },
            access: { clipProgramIds: [programId] },
            at: now(deps),
          }),
        );
        return c.json(operation, 202);
      })
      .openapi(guarded(routes.submitDirectory, write()), async (c) => {
        const { directory } = c.req.valid('param');
        // The body is optional: none records the submission without a listing URL.
        const body = (c.req.valid('json') as z.infer<typeof routes.DirectorySubmit> | undefined) ?? {};
        await writeDirectories(c, directory, 'submit', body.ListingUrl);
        return c.body(null, 204);
      })
      .openapi(guarded(routes.removeDirectory, write()), async (c) => {
        await writeDirectories(c, c.req.valid('param').directory, 'remove');
        return c.body(null, 204);
      })
      .openapi(guarded(routes.getSpotifyPremium, managers()), async (c) => {
        const { store } = c.get('deps');
        return c.json(spotifyAnswer(c, c.var.row.Id, await spotifyMember(store, await premiumOf(store, c.var.row.Id))), 200);
      })
      .openapi(guarded(routes.putSpotifyPremium, managers()), async (c) => {
        const { Enabled, RotateToken } = c.req.valid('json');
        const deps = c.get('deps');
        const auth = getAuth(c);
        const at = now(deps);
        const playlist = c.var.row;
        if (Enabled && !playlistHasMemberFeed({ Visibility: String(playlist['Visibility']), Deleted: playlist.Deleted })) throw badRequest([fieldError('Enabled', formError('invalid'))]);
        const member = await deps.store.tx(async (q) => {
          // Locked, so two calls never make two members for one playlist.
          await q.query(`SELECT id FROM playlists WHERE id = $1 FOR UPDATE`, [playlist.Id]);
          const premium = await premiumOf(q, playlist.Id);
          let m = await spotifyMember(q, premium);
          if (Enabled && m === null) {
            m = await insertMember(q, {
              id: newId(),
              organizationId: auth.organizationId,
              programId: c.var.program.id,
              name: `Spotify: ${typeof playlist['Title'] === 'string' ? playlist['Title'] : playlist.Id}`,
              email: spotifyMemberEmail(playlist.Id),
              note: 'Spotify’s subscriber feed of this playlist (turned on and off in the playlist’s Premium feeds).',
              createdById: auth.user.Id,
              at,
            });
            await savePremium(q, auth.organizationId, playlist.Id, at, { spotify_member_id: m.id });
          } else if (m !== null && (m.revoked_at_utc === null) !== Enabled) {
            m = await updateMember(q, m.id, { Revoked: !Enabled }, at);
            // Turned on again: a new secret, so a URL given out before the pause stays dead.
            if (Enabled) m = await resetToken(q, m.id, at);
          } else if (m !== null && Enabled && RotateToken === true) {
            m = await resetToken(q, m.id, at);
          }
          return m;
        });
        return c.json(spotifyAnswer(c, playlist.Id, member), 200);
      })
      .openapi(guarded(routes.getAppleThirdParty, { middleware: [requireSession], describe: 'A member of the organization (playlists of programs without content access left out)' }), async (c) => {
        const { store } = c.get('deps');
        const auth = getAuth(c);
        const organization = await loadRow(store, 'organization', auth.organizationId, auth.organizationId);
        const own = valuesOf(organization);
        const rows = await store.query<PremiumRow & { title: string | null; program_id: string; network_id: string | null; slug: string | null }>(
          `SELECT pp.*, p.data->>'Title' AS title, p.program_id, g.network_id, g.slug
             FROM playlist_premium pp JOIN playlists p ON p.id = pp.playlist_id JOIN programs g ON g.id = p.program_id
            WHERE pp.organization_id = $1 AND pp.apple_linked AND NOT p.deleted AND NOT g.deleted ORDER BY lower(p.data->>'Title'), p.id`,
          [auth.organizationId],
        );
        const items = [];
        for (const r of rows) {
          const ref: ProgramRef = { id: r.program_id, network_id: r.network_id, slug: r.slug, deleted: false };
          if (!mayRead(ENTITY_KINDS.playlists.read, flagsForProgram(auth, ref))) continue;
          const program = await loadRow(store, 'program', auth.organizationId, r.program_id);
          if (!program) continue;
          items.push({ PlaylistId: r.playlist_id, Title: r.title ?? '', ProgramId: r.program_id, ...linkAnswer(r, await appleInEffect(store, auth.organizationId, program)) });
        }
        return c.json({ Enabled: own?.Enabled === true, ProviderId: own?.ProviderId ?? null, Items: items }, 200);
      })
  );
}
