// A playlist's directories and premium feeds (issue 33; specification section 7 "Internal program,
// playlist and network settings and directories" and "Internal writes"). Rules:
// src/domain/directories.ts; served by sync-server/api/directories.ts.
//
//   GET    /internal/playlists/{playlistId}/directories                      each directory: state, checklist
//   POST   /internal/playlists/{playlistId}/directories/{directory}          mark submitted (204)
//   DELETE /internal/playlists/{playlistId}/directories/{directory}          mark removed (204)
//   POST   /internal/playlists/{playlistId}/directories/apple-premium        link or unlink (204)
//   POST   /internal/playlists/{playlistId}/directories/apple-premium/resync check the link (204)
//   GET    /internal/programs/{programId}/settings/playlist-premium-feed-urls members' feeds by playlist
//   GET    /internal/playlists/{playlistId}/third-party-premium/spotify     and PUT (200)
//   GET    /internal/third-party-premium/apple                               every playlist's link
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { DIRECTORY_CHECKS, DIRECTORY_IDS } from '../../domain/directories.ts';
import { BoolQuery, errors, idParams, IdParam, IfMatchHeader, jsonBody, jsonContent, noContent, preconditionFailed, writeErrors } from './common.ts';
import { Playlist } from './schemas.ts';
import { ReportOperationSchema } from './reports.ts';

const tags = ['Directories'];
const PlaylistParams = idParams('playlistId');
const READ = 'A member with HasContentAccess on the playlist’s program';
const WRITE = `${READ}, with HasManageSettingsAccess`;

const DirectoryParam = z.enum(DIRECTORY_IDS).meta({ param: { name: 'directory', in: 'path' }, description: `The directory: ${DIRECTORY_IDS.join(', ')} (any other: 404)` });
const DirectoryParams = z.object({ playlistId: IdParam.meta({ param: { name: 'playlistId', in: 'path' } }), directory: DirectoryParam });

const LinkState = z.enum(['NotLinked', 'Linked', 'SettingsIncomplete']);

export const DirectoryCheckSchema = z
  .object({
    Check: z.enum(DIRECTORY_CHECKS),
    Ok: z.boolean(),
    Value: z.string().nullable().meta({ description: 'What the feed says now (language, explicit flag, artwork size, published episodes)' }),
    FixAt: z.enum(['Playlist', 'PlaylistArtwork', 'ProgramPodcast', 'PlaylistClips']).meta({ description: 'Where in the studio it is put right' }),
  })
  .meta({ id: 'DirectoryCheck' });

export const DirectoryListing = z
  .object({
    Directory: z.enum(DIRECTORY_IDS),
    Name: z.string(),
    SubmitUrl: z.string().meta({ description: 'Where the user submits the feed, at the directory’s own site (the studio never calls it)' }),
    State: z.enum(['NotSubmitted', 'Submitted', 'Listed', 'Removed']),
    SubmittedAtUtc: z.string().nullable(),
    SubmittedById: z.string().nullable(),
    ListingUrl: z.string().nullable(),
    RemovedAtUtc: z.string().nullable(),
    RemovedById: z.string().nullable(),
    Checklist: z.array(DirectoryCheckSchema).meta({ description: 'What this directory asks of the feed, checked against the studio’s data' }),
    Ready: z.boolean().meta({ description: 'Every check of the checklist passes' }),
  })
  .meta({ id: 'DirectoryListing' });

export const ApplePremiumLink = z
  .object({
    State: LinkState,
    Missing: z.array(z.enum(['Enabled', 'ProviderId', 'ShowId'])).meta({ description: 'What the Apple Podcasts Subscriptions settings in effect for the program lack for delivery' }),
    LinkedAtUtc: z.string().nullable(),
    LinkedById: z.string().nullable(),
    CheckedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'PlaylistApplePremiumLink' });
export type ApplePremiumLink = z.infer<typeof ApplePremiumLink>;

export const PlaylistDirectories = z
  .object({
    PlaylistId: z.string(),
    FeedUrl: z.string().nullable().meta({ description: 'The public feed to submit; null when the playlist serves none (Private, Restricted)' }),
    ModifiedAtUtc: z.string().meta({ description: 'The playlist’s: the ETag, and the base If-Match names' }),
    Items: z.array(DirectoryListing),
    ApplePremium: ApplePremiumLink,
  })
  .meta({ id: 'PlaylistDirectories' });
export type PlaylistDirectories = z.infer<typeof PlaylistDirectories>;

export const DirectorySubmit = z
  .object({
    ListingUrl: z.string().max(2000).nullable().optional().meta({ description: 'The show’s address at the directory (https, of the directory’s site); left out: kept as it is' }),
  })
  .strict()
  .meta({ id: 'DirectorySubmit' });

export const getDirectories = {
  method: 'get',
  path: '/internal/playlists/{playlistId}/directories',
  tags,
  summary: 'Where the playlist’s feed is listed: per directory its state, what it asks of the feed and whether the feed has it',
  description: `${READ}.`,
  request: { params: PlaylistParams },
  responses: { 200: jsonContent(PlaylistDirectories, 'The directories'), ...errors },
} as const satisfies RouteConfig;

export const submitDirectory = {
  method: 'post',
  path: '/internal/playlists/{playlistId}/directories/{directory}',
  tags,
  summary: 'Records that the feed was submitted to the directory, with the listing URL when known (mutation playlist.setDirectories)',
  description: `${WRITE}. A listing URL of another site is a 400 at ListingUrl. If-Match: the playlist’s ModifiedAtUtc (a stale one merges as a device’s edit does, or is a 412).`,
  request: { params: DirectoryParams, headers: IfMatchHeader, body: { ...jsonBody(DirectorySubmit), required: false } },
  responses: { 204: noContent, ...writeErrors, ...preconditionFailed(Playlist) },
} as const satisfies RouteConfig;

export const removeDirectory = {
  method: 'delete',
  path: '/internal/playlists/{playlistId}/directories/{directory}',
  tags,
  summary: 'Records that the show was removed from the directory (mutation playlist.setDirectories); never submitted: nothing to do',
  description: `${WRITE}.`,
  request: { params: DirectoryParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Playlist) },
} as const satisfies RouteConfig;

export const ApplePremiumLinkPost = z.object({ Linked: z.boolean().meta({ description: 'true: deliver the playlist’s premium episodes with the Apple Podcasts Subscriptions settings in effect; false: stop' }) }).strict().meta({ id: 'PlaylistApplePremiumLinkPost' });

export const linkApplePremium = {
  method: 'post',
  path: '/internal/playlists/{playlistId}/directories/apple-premium',
  tags,
  summary: 'Links the playlist to (or unlinks it from) the organization’s Apple Podcasts Subscriptions settings in effect for its program',
  description: `${WRITE}. Online only: the link is checked by the server when made.`,
  request: { params: PlaylistParams, body: jsonBody(ApplePremiumLinkPost) },
  responses: { 204: noContent, ...writeErrors },
} as const satisfies RouteConfig;

export const resyncApplePremium = {
  method: 'post',
  path: '/internal/playlists/{playlistId}/directories/apple-premium/resync',
  tags,
  summary: 'Checks the playlist’s Apple Podcasts Subscriptions link again against the settings in effect now (its State and CheckedAtUtc)',
  description: `${WRITE}. The body is an empty JSON object.`,
  request: { params: PlaylistParams, body: { ...jsonBody(z.object({}).strict().meta({ id: 'PlaylistApplePremiumResync' })), required: false } },
  responses: { 204: noContent, ...writeErrors },
} as const satisfies RouteConfig;

export const linkingReport = {
  method: 'post',
  path: '/internal/playlists/{playlistId}/directories/apple-premium/linking-report',
  tags,
  summary: 'Starts the Apple linking report of the playlist: each premium clip and whether it reaches Apple Podcasts Subscriptions (an async report, kind apple-premium-linking-report)',
  description: `${WRITE}. The body is an empty JSON object. Poll GET /v1/reports/apple-premium-linking-report/{operationId}; the report is the starter’s, as every report.`,
  request: { params: PlaylistParams, body: { ...jsonBody(z.object({}).strict().meta({ id: 'PlaylistApplePremiumLinkingReport' })), required: false } },
  responses: { 202: jsonContent(ReportOperationSchema, 'Started: the operation, Busy'), ...writeErrors },
} as const satisfies RouteConfig;

export const PremiumFeedUrls = z
  .object({
    ProgramId: z.string(),
    AdFree: z.boolean(),
    Items: z.array(
      z.object({
        PlaylistId: z.string(),
        Title: z.string(),
        Members: z.array(z.object({ MemberId: z.string(), Name: z.string(), Url: z.string().meta({ description: 'The member’s private feed of the playlist' }) })),
      }),
    ),
  })
  .meta({ id: 'PlaylistPremiumFeedUrls' });

export const premiumFeedUrls = {
  method: 'get',
  path: '/internal/programs/{programId}/settings/playlist-premium-feed-urls',
  tags,
  summary: 'The premium (member) feed URLs of each playlist of the program that serves member feeds, per member not revoked; adFree=true: the ad-free feeds',
  description:
    'A member with HasContentAccess and HasManageSettingsAccess on the program (the URLs carry the members’ secrets). Declared before the named setting GET /internal/programs/{programId}/settings/{name}, which it takes precedence over for this name.',
  request: { params: idParams('programId'), query: z.object({ adFree: BoolQuery.meta({ description: 'true: every enclosure the ad-free audio' }) }) },
  responses: { 200: jsonContent(PremiumFeedUrls, 'The feeds'), ...errors },
} as const satisfies RouteConfig;

export const SpotifyPremium = z
  .object({
    PlaylistId: z.string(),
    Enabled: z.boolean(),
    FeedUrl: z.string().nullable().meta({ description: 'The subscriber feed to give Spotify (its secret token in it); null when off' }),
    MemberId: z.string().nullable().meta({ description: 'The program member that holds the feed’s token (listed with the program’s members)' }),
    TokenCreatedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'PlaylistSpotifyPremium' });
export type SpotifyPremium = z.infer<typeof SpotifyPremium>;

export const SpotifyPremiumPut = z
  .object({
    Enabled: z.boolean(),
    RotateToken: z.boolean().optional().meta({ description: 'true: a new secret token (the old feed URL answers 404 at once)' }),
  })
  .strict()
  .meta({ id: 'PlaylistSpotifyPremiumPut' });

const SPOTIFY_ACCESS = 'A member with HasContentAccess and HasManageSettingsAccess on the playlist’s program (the feed URL is a secret)';

export const getSpotifyPremium = {
  method: 'get',
  path: '/internal/playlists/{playlistId}/third-party-premium/spotify',
  tags,
  summary: 'The playlist’s Spotify subscriber feed: on or off, its URL',
  description: `${SPOTIFY_ACCESS}.`,
  request: { params: PlaylistParams },
  responses: { 200: jsonContent(SpotifyPremium, 'The settings'), ...errors },
} as const satisfies RouteConfig;

export const putSpotifyPremium = {
  method: 'put',
  path: '/internal/playlists/{playlistId}/third-party-premium/spotify',
  tags,
  summary: 'Turns the playlist’s Spotify subscriber feed on or off, or gives it a new secret token',
  description: `${SPOTIFY_ACCESS}. A playlist without member feeds (Private) is a 400 at Enabled when turned on.`,
  request: { params: PlaylistParams, body: jsonBody(SpotifyPremiumPut) },
  responses: { 200: jsonContent(SpotifyPremium, 'The settings as saved'), ...writeErrors },
} as const satisfies RouteConfig;

export const AppleThirdParty = z
  .object({
    Enabled: z.boolean().meta({ description: 'The organization’s own Apple Podcasts Subscriptions switch (inherited by its networks and programs)' }),
    ProviderId: z.string().nullable(),
    Items: z.array(z.object({ PlaylistId: z.string(), Title: z.string(), ProgramId: z.string(), ...ApplePremiumLink.shape })),
  })
  .meta({ id: 'AppleThirdPartyPremium' });

export const getAppleThirdParty = {
  method: 'get',
  path: '/internal/third-party-premium/apple',
  tags,
  summary: 'The organization’s Apple Podcasts Subscriptions: its own switch and provider, and every linked playlist the caller sees with its link’s state',
  description: 'A member of the organization; playlists of programs without content access are left out.',
  request: {},
  responses: { 200: jsonContent(AppleThirdParty, 'The links'), ...errors },
} as const satisfies RouteConfig;
