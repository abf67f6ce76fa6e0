// The fields of a clip that nobody has set yet (specification section 3): what the server stores
// for a new clip, and what a clip created on the device shows until the server's row arrives.
import type { ClipUrls } from '../protocol/entities.ts';

export function emptyClipUrls(): ClipUrls {
  return {
    AudioPublicUrl: null,
    AudioPrivateUrl: null,
    AudioPublicAdFreeUrl: null,
    WaveformHighResUrl: null,
    WaveformLowResUrl: null,
    VideoPrivateUrl: null,
    VideoPublicUrl: null,
    VideoPublicAdFreeUrl: null,
    ImagePrivateUrl: null,
    ImagePublicUrl: null,
    EmbedUrl: null,
    ShowPageUrl: null,
    EmbedShareLinkOverrideUrl: null,
  };
}

/** Every field of a new clip that the caller did not give. */
export function clipDefaults(): Record<string, unknown> {
  return {
    Title: null,
    Description: null,
    DescriptionHtml: null,
    ShortSummary: null,
    Episode: null,
    Season: null,
    EpisodeType: null,
    Tags: [],
    Chapters: [],
    ContentRating: null,
    CustomFieldData: null,
    ExternalId: null,
    MemberDownloadsAdFree: false,
    Monetization: null,
    RssLinkOverride: null,
    ScheduleRules: null,
    AudioOptions: null,
    Visibility: 'Private',
    ScheduledVisibility: null,
    VisibleAtUtc: null,
    Slug: null,
    MediaType: 'Audio',
    AudioProcessingProblemDismissed: false,
    EmbedShareLinkOverrideUrl: null,
    CreatedFromAutoPodcast: false,
    ImportedId: null,
    HasImage: false,
    PublishedAudioSizeInBytes: null,
    PublishedDurationSeconds: null,
    RecordingMetadata: null,
    TranscriptStatus: null,
    UploadedAudioFileName: null,
    State: 'Draft',
    PublishState: 'Unpublished',
    PublishedUtc: null,
    DurationSeconds: null,
    UploadedMediaInfo: null,
    AudioProcessingProblem: null,
    Urls: emptyClipUrls(),
  };
}
