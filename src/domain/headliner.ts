// Headliner videos (specification section 7, Clips: POST /v1/clips/{clipId}/headliner-videos with
// query transcriptEnabled, GET …/headliner-videos and …/headliner-videos/{headlinerId}/download;
// section 3 "Options: headliner video transcriptEnabled"): an audiogram of a clip, a video made by
// the server to share the episode where audio cannot go (social feeds, stories, YouTube). Its look
// is the program's headliner-video setting (src/domain/monetization.ts HeadlinerVideos: aspect
// ratios, captions, colours). The one place for its rules, for the clip screen and the server.
//
// One video per aspect ratio in effect, each a durable job (sync-server/headliner/job.ts):
//
//   POST ──tx: a row per ratio, Queued, its job──> Queued ──job takes it──> Rendering ──ffmpeg──> Ready (MP4 kept)
//                                                    ▲                          │ threw: tried again (backoff)
//                                                    └──────────────────────────┘ last attempt, or nothing to
//                                                                                   retry (no audio): Failed + why
// A clip keeps one video per aspect ratio: a new one replaces the earlier of its ratio (its file
// removed after the media grace period, so a download under way finishes).
import { HEADLINER_ASPECT_RATIOS, type HeadlinerAspectRatio } from './monetization.ts';

export const HEADLINER_VIDEO_STATES = ['Queued', 'Rendering', 'Ready', 'Failed'] as const;
export type HeadlinerVideoState = (typeof HEADLINER_VIDEO_STATES)[number];

/** Still being made: the screen asks again until none is. */
export const isHeadlinerBusy = (state: HeadlinerVideoState) => state === 'Queued' || state === 'Rendering';

/**
 * The longest audiogram made, in seconds, from the start of the episode (after the program's
 * intro, which is the same for every episode). An audiogram is a teaser: the feeds it is made for
 * play short videos (reels and stories up to 60 s, a feed post's autoplay stops sooner), and a
 * whole episode as 1080p video is a file of hundreds of megabytes and an hour of rendering on a
 * two-core server. A clip shorter than this is made whole.
 */
export const HEADLINER_PREVIEW_SECONDS = 60;

/** The frame of each aspect ratio: 1080 on the short side, as the feeds they go to ask for. */
export const HEADLINER_FRAMES: Readonly<Record<HeadlinerAspectRatio, { width: number; height: number }>> = {
  '1:1': { width: 1080, height: 1080 },
  '9:16': { width: 1080, height: 1920 },
  '16:9': { width: 1920, height: 1080 },
};

/** Frames per second: a waveform and captions need no more, and it halves the rendering of 30. */
export const HEADLINER_FPS = 15;

/** How long the video of a clip of `clipSeconds` (after its intro) is. */
export const headlinerSeconds = (clipSeconds: number) => Math.max(0, Math.min(clipSeconds, HEADLINER_PREVIEW_SECONDS));

/** The aspect ratios in their settings order (square, portrait, landscape), each once. */
export const sortRatios = (ratios: readonly HeadlinerAspectRatio[]): HeadlinerAspectRatio[] =>
  HEADLINER_ASPECT_RATIOS.filter((r) => ratios.includes(r));

/**
 * The file name a download gets: the clip's title made safe for every file system (no path or
 * reserved characters), with the ratio ('Episode 12 – 9x16.mp4'); an untitled clip is 'clip'.
 */
export function headlinerFileName(title: string | null | undefined, ratio: HeadlinerAspectRatio): string {
  const safe = (title ?? '')
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .slice(0, 120)
    .trim();
  return `${safe || 'clip'} – ${ratio.replace(':', 'x')}.mp4`;
}

/** Content-Disposition of a download: an ASCII fallback and the UTF-8 name (RFC 6266, RFC 8187). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.normalize('NFKD').replace(/[^\u0020-\u007e]/g, '').replace(/["\\]/g, '').replace(/\s+/g, ' ').trim() || 'video.mp4';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
