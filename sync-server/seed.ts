// The demo data of issue 2 item 10, deterministic (ids from names, a seeded PRNG, a fixed base
// date): "Castaway Demo Radio" (demo organization, Broadcaster) and "Castaway Podcasts"
// (Podcaster), 4 networks, 12 programs, clips covering every State × PublishState × Visibility,
// seasons and episodes, scheduled visibility, playlists with ordered clips, recordings in
// Processing, Live and Finalized (one of zero duration) with annotations, and seven users with
// the password castaway-demo. Rows go in with INSERT … SELECT unnest(…) (rows.bulkInsert).
// Ready and Warning clips and Live and Finalized recordings have real audio: a few demo files
// shared by all of them (audio/demo-media.ts), served at the URLs processed uploads have, with
// the DurationSeconds of the real audio. seedIfEmpty with a blob folder stores and links them.
import { createHash } from 'node:crypto';
import { allPermissions, type PermissionEntry } from '../src/domain/permissions.ts';
import { hashPassword } from './passwords.ts';
import { bulkInsert, type BulkRow } from './rows.ts';
import { clipDefaults, emptyClipUrls } from '../src/domain/clip-defaults.ts';
import { ClipState, PublishState, Visibility } from '../src/protocol/entities.ts';
import { normalizeSlug } from '../src/domain/validators.ts';
import { clipPublicUrls } from './routes/content-rules.ts';
import { enqueuePublishing } from './publishing/publishing.ts';
import { linkDemoMedia, prepareDemoMedia, syntheticDemoMedia, type DemoLink, type DemoMedia, type DemoMediaSet } from './audio/demo-media.ts';
import { mulberry32 } from './audio/demo-tone.ts';
import { fsBlobStore, type BlobStore } from './audio/blob-store.ts';
import { clipUrls, recordingUrls } from './audio/media-paths.ts';
import type { Queryable, Store } from './store/store.ts';
import { mediaProblemText } from '../src/media/messages.ts';
import { MediaWarningCode } from '../src/media/errors.ts';
import { seedDemoEnterprises } from './enterprises/demo.ts';
import { seedDemoPlans } from './billing/demo.ts';

export const DEMO_PASSWORD = 'castaway-demo';
export const DEMO_CLIP_COUNT = 2000;
const BASE_DATE = Date.UTC(2025, 0, 6, 9, 0, 0);

// The wire's lists, in their order (the demo data walks them by position).
const CLIP_STATES = ClipState.options;
const PUBLISH_STATES = PublishState.options;
const VISIBILITIES = Visibility.options;
const COMBINATIONS = CLIP_STATES.length * PUBLISH_STATES.length * VISIBILITIES.length;

/** A stable UUID (version 5 layout) for a seed key, so every run makes the same ids. */
export function seedId(key: string): string {
  const h = createHash('sha1').update(`castaway-seed:${key}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const ALL_FLAGS = allPermissions();

export const ORG_DEMO = seedId('org:demo');
export const ORG_PODCASTS = seedId('org:podcasts');

type ProgramSeed = { key: string; org: string; name: string; slug: string; network: string | null };

const NETWORKS = [
  { key: 'news', org: ORG_DEMO, name: 'Castaway News' },
  { key: 'sport', org: ORG_DEMO, name: 'Castaway Sport' },
  { key: 'culture', org: ORG_DEMO, name: 'Castaway Culture' },
  { key: 'originals', org: ORG_PODCASTS, name: 'Castaway Originals' },
];

export const PROGRAMS: ProgramSeed[] = [
  { key: 'morning', org: ORG_DEMO, name: 'Morning Briefing', slug: 'morning-briefing', network: 'news' },
  { key: 'world', org: ORG_DEMO, name: 'World Tonight', slug: 'world-tonight', network: 'news' },
  { key: 'business', org: ORG_DEMO, name: 'Business Hour', slug: 'business-hour', network: 'news' },
  { key: 'matchday', org: ORG_DEMO, name: 'Matchday Live', slug: 'matchday-live', network: 'sport' },
  { key: 'locker', org: ORG_DEMO, name: 'The Locker Room', slug: 'the-locker-room', network: 'sport' },
  { key: 'bookclub', org: ORG_DEMO, name: 'Book Club', slug: 'book-club', network: 'culture' },
  { key: 'soundcheck', org: ORG_DEMO, name: 'Soundcheck', slug: 'soundcheck', network: 'culture' },
  { key: 'screen', org: ORG_DEMO, name: 'Screen Time', slug: 'screen-time', network: 'culture' },
  { key: 'community', org: ORG_DEMO, name: 'Community Notices', slug: 'community-notices', network: null },
  { key: 'deepdive', org: ORG_PODCASTS, name: 'Deep Dive', slug: 'deep-dive', network: 'originals' },
  { key: 'tinkerers', org: ORG_PODCASTS, name: 'Tinkerers', slug: 'tinkerers', network: 'originals' },
  { key: 'afterhours', org: ORG_PODCASTS, name: 'After Hours', slug: 'after-hours', network: null },
];

/** Episodes per round of the seed, per program: daily shows weigh more than weekly or monthly ones. */
const PROGRAM_WEIGHT: Record<string, number> = { morning: 5, world: 4, business: 2, matchday: 3, locker: 1, bookclub: 2, soundcheck: 1, screen: 1, community: 1, deepdive: 3, tinkerers: 2, afterhours: 1 };
/** One round: each program named as many times as its weight, interleaved so that the newest
 *  clips of every program are spread over the whole time range. */
const PROGRAM_TURNS: ProgramSeed[] = (() => {
  const turns: ProgramSeed[] = [];
  const max = Math.max(...Object.values(PROGRAM_WEIGHT));
  for (let round = 0; round < max; round++) for (const p of PROGRAMS) if ((PROGRAM_WEIGHT[p.key] ?? 1) > round) turns.push(p);
  return turns;
})();

export const DEMO_USERS: Array<{
  email: string;
  name: string;
  firstName: string;
  isAdmin?: boolean;
  isAdminOrSupport?: boolean;
  hasResellerAccess?: boolean;
  activated?: boolean;
  memberships: Array<{ org: string; permissions: PermissionEntry[] }>;
  description: string;
}> = [
  {
    email: 'demo@example.com',
    name: 'Dana Demo',
    firstName: 'Dana',
    description: 'organization scope, every flag, member of both organizations',
    memberships: [
      { org: ORG_DEMO, permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: ALL_FLAGS }] },
      { org: ORG_PODCASTS, permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: ALL_FLAGS }] },
    ],
  },
  {
    email: 'producer@example.com',
    name: 'Pat Producer',
    firstName: 'Pat',
    description: 'program scope: content access on Morning Briefing and Book Club',
    memberships: [
      {
        org: ORG_DEMO,
        permissions: [
          { ObjectType: 'Program', ObjectId: seedId('program:morning'), Permissions: { HasContentAccess: true } },
          { ObjectType: 'Program', ObjectId: seedId('program:bookclub'), Permissions: { HasContentAccess: true } },
        ],
      },
    ],
  },
  {
    email: 'analyst@example.com',
    name: 'Ari Analyst',
    firstName: 'Ari',
    description: 'analytics access only',
    memberships: [{ org: ORG_DEMO, permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasAnalyticsAccess: true } }] }],
  },
  {
    email: 'admin@example.com',
    name: 'Alex Admin',
    firstName: 'Alex',
    isAdmin: true,
    isAdminOrSupport: true,
    description: 'isAdmin',
    memberships: [{ org: ORG_DEMO, permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: ALL_FLAGS }] }],
  },
  {
    email: 'support@example.com',
    name: 'Sam Support',
    firstName: 'Sam',
    isAdminOrSupport: true,
    description: 'isAdminOrSupport',
    memberships: [
      { org: ORG_DEMO, permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasContentAccess: true, HasAuditAccess: true } }] },
    ],
  },
  {
    email: 'reseller@example.com',
    name: 'Robin Reseller',
    firstName: 'Robin',
    hasResellerAccess: true,
    description: 'hasResellerAccess',
    memberships: [
      { org: ORG_PODCASTS, permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true } }] },
    ],
  },
  {
    email: 'newbie@example.com',
    name: 'Nico Newbie',
    firstName: 'Nico',
    activated: false,
    description: 'not activated',
    memberships: [{ org: ORG_DEMO, permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasContentAccess: true } }] }],
  },
];

const TOPICS = ['Headlines', 'Interview', 'Round-up', 'Special', 'Q&A', 'Preview', 'Review', 'Behind the scenes', 'Live session', 'Archive'];
const DESCRIPTIONS: Array<(program: string, topic: string, n: number) => string> = [
  (p, t, n) => `${p} ${t} number ${n}: the stories of the week, the people behind them, and what comes next.`,
  (p, t) => `In this ${t}, the ${p} team takes listener questions and follows up on last week's episode.`,
  (p, t) => `A ${t} from ${p}, recorded in front of a studio audience. Includes the full interview.`,
  (p, t, n) => `${p}, episode ${n}. A ${t} with guests from around the region.`,
  (p) => `${p} goes back to the archive: the moments listeners asked us to play again.`,
];
/** Annotation texts of the demo recordings, at their start, a third and two thirds in. */
const RECORDING_NOTES = [
  ['Top of the hour', 'Guest arrives', 'Listener call'],
  ['Cold open', 'Interview starts', 'Ad break'],
  ['News headlines', 'Weather and travel', 'Sports desk'],
  ['Intro music', 'Main segment', 'Outro and credits'],
];

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A seeded clip's row and, for a Ready or Warning clip, the demo file its audio is. */
export type SeedClipRow = BulkRow & { media: DemoMedia | null };

/**
 * The i-th clip of the seed: State, PublishState and Visibility cycle so every combination appears.
 * A Ready or Warning clip's audio is one of `media` (the video file for a video clip, when there is one).
 */
export function seedClip(i: number, program: ProgramSeed, k: number, rand: () => number, media: DemoMediaSet = syntheticDemoMedia()): SeedClipRow {
  const id = seedId(`clip:${i}`);
  const state = CLIP_STATES[i % CLIP_STATES.length]!;
  const visibility = VISIBILITIES[Math.floor(i / (CLIP_STATES.length * PUBLISH_STATES.length)) % VISIBILITIES.length]!;
  // The oldest clips go through every combination of State, PublishState and Visibility (for the
  // screens' sake); the rest read like a live catalogue: published when visible, unpublished when
  // private, and only now and then caught mid-way through publishing.
  const everyCombination = i < COMBINATIONS * 2;
  const publishState: (typeof PUBLISH_STATES)[number] = everyCombination
    ? PUBLISH_STATES[Math.floor(i / CLIP_STATES.length) % PUBLISH_STATES.length]!
    : i % 97 === 13 ? 'Publishing' : i % 89 === 29 ? 'Unpublishing' : visibility === 'Private' ? 'Unpublished' : 'Published';
  const created = BASE_DATE + i * 17 * 60_000;
  const season = k % 9 === 8 ? null : 1 + Math.floor(k / 40);
  const episode = k % 13 === 12 ? null : (k % 40) + 1;
  const untitled = i % 23 === 0;
  const ready = state === 'Ready' || state === 'Warning';
  const audio = !ready ? null : i % 11 === 0 && media.video ? media.video : media.audio[Math.floor(rand() * media.audio.length)]!;
  // Every eleventh clip is a video where a video file exists (always, for the clips without audio).
  const video = audio ? audio.mediaType === 'AudioAndVideo' : i % 11 === 0;
  const duration = audio?.durationSeconds ?? null;
  const slug = visibility === 'Private' && i % 2 === 0 ? null : normalizeSlug(`${TOPICS[i % TOPICS.length]} ${k + 1}`);
  const urls = emptyClipUrls();
  if (audio) {
    // As a processed upload has them (audio/process.ts): the file is served as the video too.
    urls.AudioPrivateUrl = clipUrls.audio(id);
    urls.WaveformHighResUrl = clipUrls.waveform(id, 'high');
    urls.WaveformLowResUrl = clipUrls.waveform(id, 'low');
    if (video) urls.VideoPrivateUrl = clipUrls.audio(id);
  }
  const extension = audio ? audio.fileName.slice(audio.fileName.lastIndexOf('.') + 1) : video ? 'mp4' : 'mp3';
  Object.assign(urls, clipPublicUrls(id, seedId(`program:${program.key}`), slug, visibility));
  // Every tenth private clip is scheduled to become public.
  const scheduled = visibility === 'Private' && i % 10 === 3;
  const fields: Record<string, unknown> = {
    ...clipDefaults(),
    ProgramId: seedId(`program:${program.key}`),
    Title: untitled ? null : `${program.name}: ${TOPICS[i % TOPICS.length]} ${k + 1}`,
    Description: untitled ? null : DESCRIPTIONS[i % DESCRIPTIONS.length]!(program.name, TOPICS[i % TOPICS.length]!.toLowerCase(), k + 1),
    Season: season,
    Episode: episode,
    EpisodeType: k === 0 ? 'Trailer' : i % 17 === 0 ? 'Bonus' : 'Full',
    Tags: i % 3 === 0 ? ['demo', program.slug] : ['demo'],
    Chapters: duration !== null && i % 5 === 0 ? [{ StartSeconds: 0, Title: 'Intro' }, { StartSeconds: Math.floor(duration / 2), Title: 'Main story' }] : [],
    ContentRating: i % 19 === 0 ? 'Explicit' : 'Clean',
    State: state,
    PublishState: publishState,
    Visibility: visibility,
    ScheduledVisibility: scheduled ? 'Public' : null,
    VisibleAtUtc: scheduled ? iso(Date.UTC(2030, 0, 1) + i * 3_600_000) : null,
    PublishedUtc: visibility === 'Private' ? null : iso(created + 3_600_000),
    Slug: slug,
    DurationSeconds: duration,
    PublishedDurationSeconds: ready && publishState === 'Published' ? duration : null,
    MediaType: video ? 'AudioAndVideo' : 'Audio',
    UploadedMediaInfo: audio?.video ? { MediaType: 'AudioAndVideo', VideoInfo: { Height: audio.video.height, Width: audio.video.width } } : audio ? { MediaType: 'Audio', VideoInfo: null } : null,
    UploadedAudioFileName: state === 'None' || state === 'Draft' ? null : `episode-${i}.${extension}`,
    // A warning of the studio's own pipeline (audio/process.ts writes it so), not free text.
    AudioProcessingProblem: state === 'Warning' ? mediaProblemText({ code: MediaWarningCode.DamagedFrames }, 'en-US') : null,
    AudioProcessingProblemDismissed: state === 'Warning' && i % 2 === 1,
    // No transcript is seeded (the demo's audio is synthetic: nothing was said), so none is claimed:
    // a Completed status would have the transcript section show none under it.
    TranscriptStatus: null,
    Urls: urls,
  };
  const createdAt = new Date(created);
  return { id, createdAt, modifiedAt: createdAt, createdById: seedId('user:demo@example.com'), deleted: i % 97 === 96, fields, media: audio };
}

export type SeedSummary = {
  organizations: number; users: number; networks: number; programs: number; clips: number; playlists: number; recordings: number; annotations: number;
  /** The clips and recordings with audio, and their demo file (what seedIfEmpty links in the blob store). */
  mediaLinks: DemoLink[];
};

/** The demo users' hashes, made once per process (each with its own salt): at scrypt's cost a
 * test suite that seeds a store per file would otherwise spend seconds hashing the same password. */
let demoHashes: Promise<string[]> | null = null;
function demoPasswordHashes(): Promise<string[]> {
  demoHashes ??= Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
  demoHashes.catch(() => (demoHashes = null));
  return demoHashes;
}

/**
 * Seeds the demo into an empty store (all in one transaction). The rows name `media` (default: the
 * demo file made in code); they play once the files are stored and linked (seedIfEmpty).
 */
const ANALYZE_AFTER_CLIPS = 1000;

export async function seed(store: Store, options: { clips?: number; media?: DemoMediaSet } = {}): Promise<SeedSummary> {
  const clipCount = options.clips ?? DEMO_CLIP_COUNT;
  const media = options.media ?? syntheticDemoMedia();
  const mediaLinks: DemoLink[] = [];
  const passwordHashes = await demoPasswordHashes();
  const summary = await store.tx(async (q) => {
    const at = new Date(BASE_DATE);
    const demoUser = seedId('user:demo@example.com');
    const orgRows = (org: string): BulkRow[] =>
      org === ORG_DEMO
        ? [{ id: ORG_DEMO, createdAt: at, modifiedAt: at, createdById: null, fields: { Name: 'Castaway Demo Radio', IsDemoOrganization: true, Provider: 'Broadcaster' } }]
        : [{ id: ORG_PODCASTS, createdAt: at, modifiedAt: at, createdById: null, fields: { Name: 'Castaway Podcasts', IsDemoOrganization: false, Provider: 'Podcaster' } }];
    for (const org of [ORG_DEMO, ORG_PODCASTS]) await bulkInsert(q, 'organization', org, orgRows(org));
    // organizations.organization_id is the row's own id.
    await q.query(`UPDATE organizations SET organization_id = id`);

    await insertUsers(q, passwordHashes, at);
    await seedDemoEnterprises(q, at, { demo: ORG_DEMO, podcasts: ORG_PODCASTS });
    await seedDemoPlans(q, at, { demo: ORG_DEMO, podcasts: ORG_PODCASTS });

    for (const org of [ORG_DEMO, ORG_PODCASTS]) {
      await bulkInsert(
        q,
        'network',
        org,
        NETWORKS.filter((n) => n.org === org).map((n) => ({
          id: seedId(`network:${n.key}`),
          createdAt: at,
          modifiedAt: at,
          createdById: demoUser,
          fields: { Name: n.name, Urls: { ImagePublicUrl: null } },
        })),
      );
      await bulkInsert(
        q,
        'program',
        org,
        PROGRAMS.filter((p) => p.org === org).map((p) => ({
          id: seedId(`program:${p.key}`),
          createdAt: at,
          modifiedAt: at,
          createdById: demoUser,
          fields: {
            Name: p.name,
            NetworkId: p.network ? seedId(`network:${p.network}`) : null,
            Slug: p.slug,
            Description: `${p.name}, a Castaway demo program.`,
            Urls: { ImagePublicUrl: null },
          },
        })),
      );
    }

    // Clips: spread over the 12 programs by their weight (a daily show has more episodes than a
    // monthly one), in batches of 10,000 rows per statement.
    const rand = mulberry32(20250106);
    const perProgram = new Map<string, Array<{ id: string; deleted: boolean }>>();
    const batches = new Map<string, BulkRow[]>();
    let clips = 0;
    const flush = async () => {
      for (const [org, rows] of batches) {
        await bulkInsert(q, 'clip', org, rows);
        // Clips caught mid-publish (Publishing, Unpublishing) get their job like any other: the
        // running studio finishes them, rather than showing them pending for ever.
        for (const r of rows) if (r.fields['PublishState'] === 'Publishing' || r.fields['PublishState'] === 'Unpublishing') await enqueuePublishing(q, org, r.id);
      }
      batches.clear();
    };
    for (let i = 0; i < clipCount; i++) {
      const program = PROGRAM_TURNS[i % PROGRAM_TURNS.length]!;
      const list = perProgram.get(program.key) ?? [];
      const row = seedClip(i, program, list.length, rand, media);
      if (row.media) mediaLinks.push({ kind: 'clip', id: row.id, fileName: String(row.fields.UploadedAudioFileName), media: row.media });
      list.push({ id: row.id, deleted: row.deleted === true });
      perProgram.set(program.key, list);
      const batch = batches.get(program.org) ?? [];
      batch.push(row);
      batches.set(program.org, batch);
      clips++;
      if (clips % 10_000 === 0) await flush();
    }
    await flush();

    // Playlists: a full feed (episode order) and a 'Highlights' list (newest ten, newest first).
    let playlists = 0;
    for (const org of [ORG_DEMO, ORG_PODCASTS]) {
      const rows: BulkRow[] = [];
      for (const p of PROGRAMS.filter((x) => x.org === org)) {
        const live = (perProgram.get(p.key) ?? []).filter((x) => !x.deleted).map((x) => x.id);
        rows.push(
          playlistRow(p, 'feed', `${p.name} full feed`, `${p.slug}-feed`, 'Public', live.slice(0, 40), at, demoUser),
          playlistRow(p, 'highlights', `${p.name} highlights`, `${p.slug}-highlights`, 'Unlisted', live.slice(-10).reverse(), at, demoUser),
        );
      }
      playlists += rows.length;
      await bulkInsert(q, 'playlist', org, rows);
    }

    // Recordings: Processing, Live and Finalized per program; the first program adds a zero-duration one.
    let recordings = 0;
    let annotations = 0;
    for (const org of [ORG_DEMO, ORG_PODCASTS]) {
      const recs: BulkRow[] = [];
      const notes: BulkRow[] = [];
      PROGRAMS.filter((x) => x.org === org).forEach((p, pi) => {
        const programId = seedId(`program:${p.key}`);
        const kinds: Array<'Processing' | 'Live' | 'Finalized' | 'Zero'> = ['Processing', 'Live', 'Finalized'];
        if (pi === 0) kinds.push('Zero');
        // Section 4: Live has audio (and may have a duration), Finalized has audio, waveforms and a duration.
        const audio = media.audio[pi % media.audio.length]!;
        kinds.forEach((kind, ki) => {
          const id = seedId(`recording:${p.key}:${kind}`);
          const start = BASE_DATE + (pi * 10 + ki) * 3_600_000;
          const duration = kind === 'Finalized' ? audio.durationSeconds : kind === 'Zero' ? 0 : kind === 'Live' && pi % 2 === 0 ? audio.durationSeconds : null;
          const hasAudio = kind === 'Live' || kind === 'Finalized';
          const title = `${p.name} ${kind === 'Zero' ? 'test capture' : kind.toLowerCase() + ' recording'}`;
          if (hasAudio) mediaLinks.push({ kind: 'recording', id, fileName: `${p.slug}-${kind.toLowerCase()}${audio.fileName.slice(audio.fileName.lastIndexOf('.'))}`, media: audio });
          recs.push({
            id,
            createdAt: new Date(start),
            modifiedAt: new Date(start),
            createdById: demoUser,
            fields: {
              ProgramId: programId,
              Title: title,
              State: kind === 'Zero' ? 'Finalized' : kind,
              BreakType: ki % 2 === 0 ? 'Hour' : null,
              CaptureStartUtc: iso(start),
              CaptureEndUtc: kind === 'Finalized' || kind === 'Zero' ? iso(start + (duration ?? 0) * 1000) : null,
              Description: null,
              HasTornAudio: false,
              Rating: kind === 'Finalized' ? 4 : null,
              Reviewed: kind === 'Finalized',
              TranscriptStatus: null, // none seeded: see seedClip
              V1CorrelationId: null,
              V2CorrelationId: `v2-${p.key}-${kind.toLowerCase()}`,
              DurationSeconds: duration,
              Urls: {
                AudioUrl: hasAudio ? recordingUrls.audio(id) : null,
                WaveformHighResUrl: kind === 'Finalized' ? recordingUrls.waveform(id, 'high') : null,
                WaveformLowResUrl: kind === 'Finalized' ? recordingUrls.waveform(id, 'low') : null,
              },
            },
          });
          if (kind === 'Finalized' || kind === 'Live') {
            // Spread over the audio: at its start, a third and two thirds in.
            const third = Math.floor(audio.durationSeconds / 3);
            RECORDING_NOTES[pi % RECORDING_NOTES.length]!.forEach((text, ni) => {
              notes.push({
                id: seedId(`annotation:${p.key}:${kind}:${ni}`),
                createdAt: new Date(start + ni * 60_000),
                modifiedAt: new Date(start + ni * 60_000),
                createdById: demoUser,
                fields: { RecordingId: id, OffsetSeconds: ni * third, DurationSeconds: ni === 1 ? Math.max(1, Math.floor(third / 2)) : null, Text: text },
              });
            });
          }
        });
      });
      recordings += recs.length;
      annotations += notes.length;
      await bulkInsert(q, 'recording', org, recs);
      await bulkInsert(q, 'annotation', org, notes);
    }
    return {
      organizations: 2,
      users: DEMO_USERS.length,
      networks: NETWORKS.length,
      programs: PROGRAMS.length,
      clips,
      playlists,
      recordings,
      annotations,
      mediaLinks,
    };
  });
  // A bulk load leaves the planner's statistics behind (PGlite never analyzes by itself): without
  // them a program's first page of 100 clips was sorted from all 19,000 of them, 131 ms against 0.8.
  // Small stores (the tests' dozens) plan well without, and ANALYZE costs them 65 ms each. VACUUM
  // too: the list pages' index-only scans (migration 0495) need the visibility map it sets.
  if (summary.clips >= ANALYZE_AFTER_CLIPS) await store.exec('VACUUM ANALYZE');
  return summary;
}

function playlistRow(p: ProgramSeed, key: string, title: string, slug: string, visibility: string, clipIds: string[], at: Date, by: string): BulkRow {
  return {
    id: seedId(`playlist:${p.key}:${key}`),
    createdAt: at,
    modifiedAt: at,
    createdById: by,
    fields: {
      ProgramId: seedId(`program:${p.key}`),
      Title: title,
      Slug: slug,
      Description: null,
      Visibility: visibility,
      ClipIds: clipIds,
      Urls: { ImagePublicUrl: null },
    },
  };
}

async function insertUsers(q: Queryable, hashes: string[], at: Date): Promise<void> {
  for (const [i, u] of DEMO_USERS.entries()) {
    const id = seedId(`user:${u.email}`);
    await q.query(
      `INSERT INTO users (id, email, name, first_name, image_url, is_admin, is_admin_or_support, has_reseller_access,
         interface_language, activated, password_hash, created_at_utc, modified_at_utc, version)
       VALUES ($1, $2, $3, $4, NULL, $5, $6, $7, 'en-US', $8, $9, $10, $10, next_row_version())`,
      [id, u.email, u.name, u.firstName, u.isAdmin ?? false, u.isAdminOrSupport ?? false, u.hasResellerAccess ?? false, u.activated ?? true, hashes[i], at],
    );
    for (const m of u.memberships) {
      await q.query(
        `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
         VALUES ($1, $2, $3, $4, $4, next_row_version())`,
        [m.org, id, JSON.stringify(m.permissions), at],
      );
    }
  }
}

/**
 * Seeds only a store without organizations; returns null when it already had data. With a blob
 * folder (`npm start`), the demo files are stored there first (processed once, reused when already
 * there), so the rows carry their real durations, and every clip and recording with audio is linked
 * to its file.
 */
export type SeedMediaOptions = { clips?: number; blobDir?: string; blobs?: BlobStore; fixturesDir?: string };

export async function seedIfEmpty(store: Store, options: SeedMediaOptions = {}): Promise<SeedSummary | null> {
  const [row] = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM organizations`);
  if ((row?.n ?? 0) > 0) return null;
  return seedWithMedia(store, options);
}

/** seed(), with the demo files stored in and linked from a blob store (`blobs`, or the folder
 *  `blobDir`) when one is given. */
export async function seedWithMedia(store: Store, options: SeedMediaOptions = {}): Promise<SeedSummary> {
  const clips = options.clips === undefined ? {} : { clips: options.clips };
  const blobs = options.blobs ?? (options.blobDir ? fsBlobStore(options.blobDir) : null);
  if (!blobs) return seed(store, clips);
  const media = await prepareDemoMedia(blobs, ...(options.fixturesDir ? [options.fixturesDir] : []));
  const summary = await seed(store, { ...clips, media });
  await linkDemoMedia(blobs, summary.mediaLinks);
  return summary;
}
