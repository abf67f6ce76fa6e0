// Wire entities of specification section 3, PascalCase as the server sends them. The server
// validates request bodies with the *Create / *Patch schemas and the client types rows with the
// row schemas (STYLE.md habit 1: one wire, one schema). Validation MESSAGES are not here: field
// rules with user-facing messages come from src/domain, applied by the server after shape checks.
import * as z from 'zod';
import { CLIP_STATE_VALUES, PUBLISH_STATE_VALUES, VISIBILITY_VALUES } from './values.ts';
import { FEATURES } from '../domain/billing.ts';

export const Uuid = z.uuid();
/** ISO-8601 UTC with milliseconds, e.g. 2025-03-01T10:00:00.000Z (the concurrency token). */
export const UtcTimestamp = z.iso.datetime({ precision: 3 });

export const Provider = z.enum(['Broadcaster', 'Podcaster']);
export const Visibility = z.enum(VISIBILITY_VALUES);
export const ClipState = z.enum(CLIP_STATE_VALUES);
export const PublishState = z.enum(PUBLISH_STATE_VALUES);
export const MediaType = z.enum(['Audio', 'AudioAndVideo']);
export const EpisodeType = z.enum(['Full', 'Trailer', 'Bonus']);
export const RecordingState = z.enum(['Processing', 'Live', 'Finalized']);
export const SessionType = z.enum(['loggedOut', 'unactivated', 'activated']);
export const PermissionObjectType = z.enum(['Organization', 'Network', 'Program']);

/** The bookkeeping every content row carries. */
export const RowMeta = {
  Id: Uuid,
  OrganizationId: Uuid,
  CreatedAtUtc: UtcTimestamp,
  CreatedById: Uuid.nullable(),
  ModifiedAtUtc: UtcTimestamp,
  ModifiedById: Uuid.nullable(),
  Deleted: z.boolean(),
  /** From the one global sequence `row_version`, new on every write. */
  Version: z.number().int(),
};

export const PermissionFlagsSchema = z
  .object({
    HasAnalyticsAccess: z.boolean(),
    HasAuditAccess: z.boolean(),
    HasContentAccess: z.boolean(),
    HasCreateProgramAccess: z.boolean(),
    HasManageOrganizationSettingsAccess: z.boolean(),
    HasManageSettingsAccess: z.boolean(),
    HasManageUserAccess: z.boolean(),
  })
  .partial()
  .strict();

export const PermissionEntrySchema = z.object({
  ObjectType: PermissionObjectType.nullable(),
  ObjectId: Uuid.nullable(),
  Permissions: PermissionFlagsSchema,
});
export type PermissionEntry = z.infer<typeof PermissionEntrySchema>;

/** A loudness normalization choice (src/domain/settings.ts): a preset of the reference list
 * (GET /v1/reference-data/normalization-presets) by Id, or null: off. */
export const NormalizationChoiceSchema = z.object({ PresetId: z.string().min(1).max(100).nullable() }).strict();

/** One level's Apple Podcasts Subscriptions settings (src/domain/apple-premium.ts): a field left
 * null is the level above's. Checked by the domain's rule, which names the field. */
export const ApplePremiumSchema = z
  .object({
    Enabled: z.boolean().nullable(),
    ProviderId: z.string().max(1000).nullable(),
    ChannelId: z.string().max(1000).nullable(),
    ShowId: z.string().max(1000).nullable(),
    DeliverAdFree: z.boolean().nullable(),
    EarlyAccessHours: z.number().nullable(),
  })
  .strict();

export const OrganizationSchema = z.object({
  ...RowMeta,
  Name: z.string(),
  IsDemoOrganization: z.boolean(),
  Provider,
  /** The one flag that differs between providers (section 3: its name is not shown). */
  IsBroadcaster: z.boolean(),
  UserPermissions: z.array(PermissionEntrySchema),
  /** The organization's normalization (absent on rows that never chose: off). */
  Normalization: NormalizationChoiceSchema.nullable().optional(),
  /** The organization's measurement URL prefixes, in order (absent on rows that never set any:
   * none; src/domain/measurement.ts). */
  MeasurementPrefixes: z.array(z.string()).optional(),
  /** Its Apple Podcasts Subscriptions settings (absent or null: none set). */
  ApplePremium: ApplePremiumSchema.nullable().optional(),
  /** The features its plan and add-ons turn on (src/domain/billing.ts featuresOf), as the session
   * and its organization calls give them; absent on a synced row and in a session kept from before. */
  Features: z.array(z.enum(FEATURES)).optional(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const UserSchema = z.object({
  Id: Uuid,
  Name: z.string(),
  FirstName: z.string(),
  Email: z.string(),
  ImageUrl: z.string().nullable(),
  IsAdmin: z.boolean(),
  IsAdminOrSupport: z.boolean(),
  HasResellerAccess: z.boolean(),
  InterfaceLanguage: z.string(),
  Activated: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

/** A user of the organization as `GET /v1/users` lists them: the profile plus their entries. */
export const OrganizationUserSchema = UserSchema.extend({
  Permissions: z.array(PermissionEntrySchema),
  /** Two-factor sign-in is on (an admin may reset it: DELETE /v1/users/{userId}/mfa). */
  MfaEnabled: z.boolean().optional(),
});
export type OrganizationUser = z.infer<typeof OrganizationUserSchema>;

/** `PATCH /internal/users/me`: the caller's own profile (InterfaceLanguage on a language change). */
export const UserPatchSchema = z
  .object({ Name: z.string(), FirstName: z.string(), InterfaceLanguage: z.string() })
  .partial()
  .strict();

/** `PUT /v1/users/{userId}/permissions`: the user's complete list of entries in this organization. */
export const PermissionEntriesSchema = z.array(PermissionEntrySchema.strict());

export const SessionSchema = z.object({
  Type: SessionType,
  User: UserSchema.nullable(),
  UserBelongsToMultipleOrganizations: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;

export const XsrfSchema = z.object({ XsrfToken: z.string() });
export const LoginRequestSchema = z.object({
  Email: z.string(),
  Password: z.string(),
  /** Two-factor sign-in (src/domain/mfa.ts): an account that has it on is answered 400 at MfaCode
   * (code mfaRequired) until the same call carries the app's code, or one recovery code. */
  MfaCode: z.string().optional().meta({ description: 'The 6-digit code of the authenticator app, for an account with two-factor sign-in on', example: '123456' }),
  RecoveryCode: z.string().optional().meta({ description: 'Instead of MfaCode: one of the account’s recovery codes (each works once)', example: 'ABCDE-FGH23' }),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const ImageUrls = z.object({ ImagePublicUrl: z.string().nullable() });

export const NetworkSchema = z.object({
  ...RowMeta,
  Name: z.string(),
  Urls: ImageUrls,
  /** Its own Apple Podcasts Subscriptions settings (absent or null: the organization's). */
  ApplePremium: ApplePremiumSchema.nullable().optional(),
});
export type Network = z.infer<typeof NetworkSchema>;
export const NetworkCreateSchema = z.object({ Id: Uuid.optional(), Name: z.string().nullable() }).strict();
export const NetworkPatchSchema = z.object({ Name: z.string().nullable() }).partial().strict();

export const ItunesType = z.enum(['episodic', 'serial']);

/** A clip's ad marker (issue 34): a pre-roll, a mid-roll at Seconds, a post-roll, with the most ads
 *  its break holds; rules in src/domain/ad-markers.ts. */
export const AdMarkerSchema = z
  .object({ Type: z.enum(['PreRoll', 'MidRoll', 'PostRoll']), Seconds: z.number().nullable(), MaxAds: z.number() })
  .strict();
/** A program's ad-marker rules, or a clip's override of them (src/domain/ad-markers.ts AdMarkerRules). */
export const AdMarkerRulesSchema = z
  .object({
    PreRollRequired: z.boolean(),
    PostRollRequired: z.boolean(),
    MinMidRolls: z.number(),
    MaxMidRolls: z.number().nullable(),
    MinSpacingSeconds: z.number(),
    NoMidRollFirstSeconds: z.number(),
    NoMidRollLastSeconds: z.number(),
    MaxAdsPerBreak: z.number().nullable(),
  })
  .strict();

/** A person of the show (Podcasting 2.0 <podcast:person>): Role is the namespace's role ('host'). */
export const ProgramPersonSchema = z.object({ Name: z.string(), Role: z.string(), Href: z.string().nullable().optional() }).strict();
export type ProgramPerson = z.infer<typeof ProgramPersonSchema>;
/** What a podcast feed's channel needs from its program. Rows made before these fields lack them:
 * read them through src/domain/program-rules.ts programPodcast (absent = null, false, []).
 * Language is a reference language Code; Category and Subcategory reference podcast category Ids. */
const ProgramPodcastShape = {
  Author: z.string().nullable(),
  OwnerName: z.string().nullable(),
  OwnerEmail: z.string().nullable(),
  Language: z.string().nullable(),
  Category: z.string().nullable(),
  Subcategory: z.string().nullable(),
  Explicit: z.boolean(),
  Copyright: z.string().nullable(),
  ItunesType: ItunesType.nullable(),
  Locked: z.boolean(),
  FundingUrl: z.string().nullable(),
  FundingText: z.string().nullable(),
  Persons: z.array(ProgramPersonSchema).max(100),
  /** The show's website (<link> of the feed). */
  Link: z.string().nullable(),
};
export const ProgramPodcastSchema = z.object(ProgramPodcastShape);
export type ProgramPodcast = z.infer<typeof ProgramPodcastSchema>;

/** A program's intro or outro as its row shows it (AudioUrl plays it: /api/media/programs/{id}/audio/{type}). */
export const IntroOutroFileSchema = z.object({ FileName: z.string(), DurationSeconds: z.number(), UploadedAtUtc: z.string(), AudioUrl: z.string() });
export type IntroOutroFile = z.infer<typeof IntroOutroFileSchema>;

export const ProgramSchema = z.object({
  ...RowMeta,
  Name: z.string(),
  /** Its ad-marker rules (absent or null: none; program.setAdMarkerRules, src/domain/ad-markers.ts). */
  AdMarkerRules: AdMarkerRulesSchema.nullable().optional(),
  NetworkId: Uuid.nullable(),
  Slug: z.string().nullable(),
  Description: z.string().nullable(),
  Urls: ImageUrls,
  ...ProgramPodcastSchema.partial().shape,
  /** The program's own normalization; absent or null: the organization's (src/domain/settings.ts). */
  Normalization: NormalizationChoiceSchema.nullable().optional(),
  /** Its own Apple Podcasts Subscriptions settings (absent or null: its network's and the organization's). */
  ApplePremium: ApplePremiumSchema.nullable().optional(),
  /** Recordings older than this many days are deleted (absent or null: kept for ever;
   * src/domain/settings.ts validateRetentionDays, sync-server/jobs/retention.ts). */
  DeleteRecordingsAfterDays: z.number().nullable().optional(),
  /** Its intro and outro audio (absent or null: none; written by the server's operation,
   * sync-server/audio/intro-outro.ts, src/domain/intro-outro.ts). */
  IntroOutro: z.object({ Intro: IntroOutroFileSchema.nullable(), Outro: IntroOutroFileSchema.nullable() }).nullable().optional(),
});
export type Program = z.infer<typeof ProgramSchema>;
export const ProgramCreateSchema = z
  .object({
    Id: Uuid.optional(),
    Name: z.string().nullable(),
    NetworkId: Uuid.nullable().optional(),
    Slug: z.string().nullable().optional(),
    Description: z.string().nullable().optional(),
    ...ProgramPodcastSchema.partial().shape,
  })
  .strict();
export const ProgramPatchSchema = ProgramCreateSchema.omit({ Id: true }).partial().strict();

/** A playlist's auto-add rule (section 7 /v1/playlists/{playlistId}/settings/auto-add): a new clip
 * of the program joins the playlist, optionally only one with any of Tags or of EpisodeType
 * (src/domain/auto-add.ts autoAddMatches). */
export const AutoAddRuleSchema = z
  .object({ Enabled: z.boolean(), Tags: z.array(z.string().max(100)).max(50), EpisodeType: EpisodeType.nullable() })
  .strict();
export type AutoAddRule = z.infer<typeof AutoAddRuleSchema>;

/** What the studio records of a playlist's feed at one directory (src/domain/directories.ts):
 * keyed by directory id ('apple-podcasts', 'spotify', …); a directory absent: never submitted. */
export const DirectorySubmissionSchema = z
  .object({
    SubmittedAtUtc: z.string().nullable(),
    SubmittedById: z.string().nullable(),
    ListingUrl: z.string().max(2000).nullable(),
    RemovedAtUtc: z.string().nullable(),
    RemovedById: z.string().nullable(),
  })
  .strict();
export const DirectorySubmissionsSchema = z.record(z.string().max(40), DirectorySubmissionSchema);

export const PlaylistSchema = z.object({
  ...RowMeta,
  ProgramId: Uuid,
  Title: z.string(),
  Slug: z.string().nullable(),
  Description: z.string().nullable(),
  Visibility,
  /** The playlist's clips in feed order. */
  ClipIds: z.array(Uuid),
  Urls: ImageUrls,
  /** Absent on rows made before auto-add rules: none. */
  AutoAdd: AutoAddRuleSchema.nullable().optional(),
  /** Absent on rows made before directories: never submitted anywhere. */
  Directories: DirectorySubmissionsSchema.nullable().optional(),
});
export type Playlist = z.infer<typeof PlaylistSchema>;
export const PlaylistCreateSchema = z
  .object({
    Id: Uuid.optional(),
    Title: z.string().nullable(),
    Slug: z.string().nullable().optional(),
    Description: z.string().nullable().optional(),
    Visibility: Visibility.optional(),
  })
  .strict();
export const PlaylistPatchSchema = PlaylistCreateSchema.omit({ Id: true }).partial().strict();
/** `PATCH /v1/playlists/{playlistId}/clips`: the complete membership, in order. */
export const PlaylistClipsPatchSchema = z.object({ ClipIds: z.array(Uuid) }).strict();

/** A clip's chapter. Url and ImageUrl (issue 34) are the Podcasting 2.0 chapters' url and img:
 *  optional, so chapters stored before them stay valid; rules in src/domain/chapters.ts. */
export const ChapterSchema = z
  .object({ StartSeconds: z.number().min(0), Title: z.string(), Url: z.string().nullable().optional(), ImageUrl: z.string().nullable().optional() })
  .strict();
export const ClipUrlsSchema = z.object({
  AudioPublicUrl: z.string().nullable(),
  AudioPrivateUrl: z.string().nullable(),
  AudioPublicAdFreeUrl: z.string().nullable(),
  WaveformHighResUrl: z.string().nullable(),
  WaveformLowResUrl: z.string().nullable(),
  VideoPrivateUrl: z.string().nullable(),
  VideoPublicUrl: z.string().nullable(),
  VideoPublicAdFreeUrl: z.string().nullable(),
  ImagePrivateUrl: z.string().nullable(),
  ImagePublicUrl: z.string().nullable(),
  EmbedUrl: z.string().nullable(),
  ShowPageUrl: z.string().nullable(),
  EmbedShareLinkOverrideUrl: z.string().nullable(),
  /** A published transcript (issue 34): its WebVTT, which the feed items' podcast:transcript name. */
  TranscriptPublicUrl: z.string().nullable().optional(),
});
export type ClipUrls = z.infer<typeof ClipUrlsSchema>;
const JsonObject = z.record(z.string(), z.unknown());

/** Fields of a clip that a user edits (PATCH body; create adds Id). */
export const ClipEditableShape = {
  Title: z.string().nullable(),
  Description: z.string().nullable(),
  DescriptionHtml: z.string().nullable(),
  ShortSummary: z.string().nullable(),
  Episode: z.number().nullable(),
  Season: z.number().nullable(),
  EpisodeType: EpisodeType.nullable(),
  Tags: z.array(z.string()),
  Chapters: z.array(ChapterSchema),
  ContentRating: z.enum(['Clean', 'Explicit']).nullable(),
  CustomFieldData: JsonObject.nullable(),
  ExternalId: z.string().nullable(),
  MemberDownloadsAdFree: z.boolean(),
  Monetization: JsonObject.nullable(),
  RssLinkOverride: z.string().nullable(),
  ScheduleRules: JsonObject.nullable(),
  AudioOptions: JsonObject.nullable(),
  Visibility,
  ScheduledVisibility: Visibility.nullable(),
  VisibleAtUtc: z.iso.datetime({ offset: true }).nullable(),
  Slug: z.string().nullable(),
  MediaType,
  AudioProcessingProblemDismissed: z.boolean(),
  EmbedShareLinkOverrideUrl: z.string().nullable(),
};

export const ClipSchema = z.object({
  ...RowMeta,
  ...ClipEditableShape,
  ProgramId: Uuid,
  PlaylistIds: z.array(Uuid),
  CreatedFromAutoPodcast: z.boolean(),
  ImportedId: z.string().nullable(),
  HasImage: z.boolean(),
  PublishedAudioSizeInBytes: z.number().nullable(),
  PublishedDurationSeconds: z.number().nullable(),
  /** Seconds of the program's intro the current published audio (Urls.AudioPrivateUrl) starts with; absent, null or 0: none. Set by the server with that audio. */
  PublishedIntroSeconds: z.number().min(0).nullable().optional(),
  /** Seconds of the program's outro the current published audio ends with; absent, null or 0: none. Set by the server with that audio. */
  PublishedOutroSeconds: z.number().min(0).nullable().optional(),
  RecordingMetadata: JsonObject.nullable(),
  TranscriptStatus: z.string().nullable(),
  UploadedAudioFileName: z.string().nullable(),
  State: ClipState,
  PublishState,
  /** Why the last publishing job set the clip back to Unpublished (src/domain/publishing.ts PublishProblem); absent or null: none. */
  PublishProblem: z.string().nullable().optional(),
  PublishedUtc: UtcTimestamp.nullable(),
  DurationSeconds: z.number().nullable(),
  UploadedMediaInfo: z
    .object({
      MediaType,
      VideoInfo: z.object({ Height: z.number(), Width: z.number() }).nullable(),
    })
    .nullable(),
  AudioProcessingProblem: z.string().nullable(),
  Urls: ClipUrlsSchema,
  /** Its ad markers, stored order (absent on rows that never had any: none; clip.setAdMarkers). */
  AdMarkers: z.array(AdMarkerSchema).optional(),
  /** Its own ad-marker rules in place of its program's (absent or null: the program's). */
  AdMarkerRulesOverride: AdMarkerRulesSchema.nullable().optional(),
});
export type Clip = z.infer<typeof ClipSchema>;
export const ClipCreateSchema = z.object({ Id: Uuid.optional(), ...ClipEditableShape }).partial().strict();
export const ClipPatchSchema = z.object(ClipEditableShape).partial().strict();
export type ClipPatch = z.infer<typeof ClipPatchSchema>;

export const RecordingSchema = z.object({
  ...RowMeta,
  ProgramId: Uuid,
  BreakType: z.string().nullable(),
  CaptureStartUtc: UtcTimestamp.nullable(),
  CaptureEndUtc: UtcTimestamp.nullable(),
  Description: z.string().nullable(),
  HasTornAudio: z.boolean(),
  Rating: z.number().nullable(),
  Reviewed: z.boolean(),
  Title: z.string().nullable(),
  TranscriptStatus: z.string().nullable(),
  V1CorrelationId: z.string().nullable(),
  V2CorrelationId: z.string().nullable(),
  DurationSeconds: z.number().nullable(),
  State: RecordingState,
  Urls: z.object({
    AudioUrl: z.string().nullable(),
    WaveformHighResUrl: z.string().nullable(),
    WaveformLowResUrl: z.string().nullable(),
  }),
});
export type Recording = z.infer<typeof RecordingSchema>;
export const RecordingPatchSchema = z
  .object({
    Title: z.string().nullable(),
    Description: z.string().nullable(),
    BreakType: z.string().nullable(),
    Rating: z.number().nullable(),
    Reviewed: z.boolean(),
  })
  .partial()
  .strict();

export const AnnotationSchema = z.object({
  ...RowMeta,
  RecordingId: Uuid,
  OffsetSeconds: z.number(),
  DurationSeconds: z.number().nullable(),
  Text: z.string(),
});
export type Annotation = z.infer<typeof AnnotationSchema>;
export const AnnotationCreateSchema = z
  .object({
    Id: Uuid.optional(),
    OffsetSeconds: z.number().min(0),
    DurationSeconds: z.number().min(0).nullable().optional(),
    Text: z.string(),
  })
  .strict();

export const ContactEnquirySchema = z
  .object({
    AdditionalInfo: z.string().nullable().optional(),
    BrowserLocale: z.string().nullable().optional(),
    ContactName: z.string(),
    ContactEmail: z.string(),
    ContactEnquiry: z.string(),
    SourceUrl: z.string().nullable().optional(),
    ClientVersion: z.string().nullable().optional(),
  })
  .strict();
export type ContactEnquiry = z.infer<typeof ContactEnquirySchema>;

/** Paged list response of section 7. */
export function Paged<T extends z.ZodType>(item: T) {
  return z.object({ Items: z.array(item), HasNext: z.boolean(), Page: z.number().int() });
}
export type Paged<T> = { Items: T[]; HasNext: boolean; Page: number };
/** Fetch-by-ids and other unpaged lists. */
export type ItemList<T> = { Items: T[] };
