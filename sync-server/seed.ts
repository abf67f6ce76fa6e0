// The demo data of issue 2 item 10, deterministic (ids from names, a seeded PRNG, a fixed base
// date): "Castaway Demo Radio" (demo organization, Broadcaster) and "Castaway Podcasts"
// (Podcaster), 4 networks, 12 programs, clips covering every State × PublishState × Visibility,
// seasons and episodes, scheduled visibility, playlists with ordered clips, recordings in
// Processing, Live and Finalized (one of zero duration) with annotations, and seven users with
// the password castaway-demo. Rows go in with INSERT … SELECT unnest(…) (rows.bulkInsert).
import { createHash } from 'node:crypto';
import { allPermissions, type PermissionEntry } from '../src/domain/permissions.ts';
import { hashPassword } from './passwords.ts';
import { bulkInsert, type BulkRow } from './rows.ts';
import { clipDefaults, emptyClipUrls } from '../src/domain/clip-defaults.ts';
import { clipPublicUrls } from './routes/content-rules.ts';
import type { Queryable, Store } from './store/store.ts';

export const DEMO_PASSWORD = 'castaway-demo';
export const DEMO_CLIP_COUNT = 2000;
const BASE_DATE = Date.UTC(2025, 0, 6, 9, 0, 0);
const MEDIA = 'https://media.castaway.example';

const CLIP_STATES = ['AudioUploaded', 'None', 'Processing', 'Draft', 'Error', 'Ready', 'Warning'] as const;
const PUBLISH_STATES = ['Published', 'Unpublished', 'Publishing', 'Unpublishing'] as const;
const VISIBILITIES = ['Private', 'Public', 'Restricted', 'Unlisted'] as const;

/** A stable UUID (version 5 layout) for a seed key, so every run makes the same ids. */
export function seedId(key: string): string {
  const h = createHash('sha1').update(`castaway-seed:${key}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The i-th clip of the seed: State, PublishState and Visibility cycle so every combination appears. */
export function seedClip(i: number, program: ProgramSeed, k: number, rand: () => number): BulkRow {
  const id = seedId(`clip:${i}`);
  const state = CLIP_STATES[i % CLIP_STATES.length]!;
  const publishState = PUBLISH_STATES[Math.floor(i / CLIP_STATES.length) % PUBLISH_STATES.length]!;
  const visibility = VISIBILITIES[Math.floor(i / (CLIP_STATES.length * PUBLISH_STATES.length)) % VISIBILITIES.length]!;
  const created = BASE_DATE + i * 17 * 60_000;
  const season = k % 9 === 8 ? null : 1 + Math.floor(k / 40);
  const episode = k % 13 === 12 ? null : (k % 40) + 1;
  const untitled = i % 23 === 0;
  const video = i % 11 === 0;
  const ready = state === 'Ready' || state === 'Warning';
  const duration = ready ? 300 + Math.floor(rand() * 3300) : null;
  const slug = visibility === 'Private' && i % 2 === 0 ? null : `episode-${i}`;
  const urls = emptyClipUrls();
  if (ready) {
    urls.AudioPrivateUrl = `${MEDIA}/clips/${id}/audio.mp3`;
    urls.AudioPublicUrl = `${MEDIA}/clips/${id}/public.mp3`;
    urls.WaveformHighResUrl = `${MEDIA}/clips/${id}/waveform-high.json`;
    urls.WaveformLowResUrl = `${MEDIA}/clips/${id}/waveform-low.json`;
    if (video) {
      urls.VideoPrivateUrl = `${MEDIA}/clips/${id}/video.mp4`;
      urls.VideoPublicUrl = `${MEDIA}/clips/${id}/public.mp4`;
    }
  }
  Object.assign(urls, clipPublicUrls(id, program.slug, seedId(`program:${program.key}`), slug, visibility));
  // Every tenth private clip is scheduled to become public.
  const scheduled = visibility === 'Private' && i % 10 === 3;
  const fields: Record<string, unknown> = {
    ...clipDefaults(),
    ProgramId: seedId(`program:${program.key}`),
    Title: untitled ? null : `${program.name}: ${TOPICS[i % TOPICS.length]} ${k + 1}`,
    Description: untitled ? null : `Episode ${k + 1} of ${program.name}.`,
    Season: season,
    Episode: episode,
    EpisodeType: k === 0 ? 'Trailer' : i % 17 === 0 ? 'Bonus' : 'Full',
    Tags: i % 3 === 0 ? ['demo', program.slug] : ['demo'],
    Chapters: ready && i % 5 === 0 ? [{ StartSeconds: 0, Title: 'Intro' }, { StartSeconds: 60, Title: 'Main story' }] : [],
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
    UploadedMediaInfo: video ? { MediaType: 'AudioAndVideo', VideoInfo: { Height: 1080, Width: 1920 } } : null,
    UploadedAudioFileName: state === 'None' || state === 'Draft' ? null : `episode-${i}.${video ? 'mp4' : 'mp3'}`,
    AudioProcessingProblem: state === 'Warning' ? 'The audio is quieter than the loudness target' : null,
    AudioProcessingProblemDismissed: state === 'Warning' && i % 2 === 1,
    TranscriptStatus: ready ? 'Completed' : null,
    Urls: urls,
  };
  const createdAt = new Date(created);
  return { id, createdAt, modifiedAt: createdAt, createdById: seedId('user:demo@example.com'), deleted: i % 97 === 96, fields };
}

export type SeedSummary = { organizations: number; users: number; networks: number; programs: number; clips: number; playlists: number; recordings: number; annotations: number };

/** Seeds the demo into an empty store (all in one transaction). */
export async function seed(store: Store, options: { clips?: number } = {}): Promise<SeedSummary> {
  const clipCount = options.clips ?? DEMO_CLIP_COUNT;
  const passwordHashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
  return store.tx(async (q) => {
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
            Urls: { ImagePublicUrl: `${MEDIA}/programs/${p.slug}/cover.jpg` },
          },
        })),
      );
    }

    // Clips: spread round-robin over the 12 programs, in batches of 10,000 rows per statement.
    const rand = mulberry32(20250106);
    const perProgram = new Map<string, Array<{ id: string; deleted: boolean }>>();
    const batches = new Map<string, BulkRow[]>();
    let clips = 0;
    const flush = async () => {
      for (const [org, rows] of batches) await bulkInsert(q, 'clip', org, rows);
      batches.clear();
    };
    for (let i = 0; i < clipCount; i++) {
      const program = PROGRAMS[i % PROGRAMS.length]!;
      const list = perProgram.get(program.key) ?? [];
      const row = seedClip(i, program, list.length, rand);
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
        kinds.forEach((kind, ki) => {
          const id = seedId(`recording:${p.key}:${kind}`);
          const start = BASE_DATE + (pi * 10 + ki) * 3_600_000;
          const duration = kind === 'Finalized' ? 1800 + pi * 60 : kind === 'Zero' ? 0 : kind === 'Live' && pi % 2 === 0 ? 600 : null;
          const hasAudio = kind === 'Live' || kind === 'Finalized';
          recs.push({
            id,
            createdAt: new Date(start),
            modifiedAt: new Date(start),
            createdById: demoUser,
            fields: {
              ProgramId: programId,
              Title: `${p.name} ${kind === 'Zero' ? 'test capture' : kind.toLowerCase() + ' recording'}`,
              State: kind === 'Zero' ? 'Finalized' : kind,
              BreakType: ki % 2 === 0 ? 'Hour' : null,
              CaptureStartUtc: iso(start),
              CaptureEndUtc: kind === 'Finalized' || kind === 'Zero' ? iso(start + (duration ?? 0) * 1000) : null,
              Description: null,
              HasTornAudio: false,
              Rating: kind === 'Finalized' ? 4 : null,
              Reviewed: kind === 'Finalized',
              TranscriptStatus: kind === 'Finalized' ? 'Completed' : null,
              V1CorrelationId: null,
              V2CorrelationId: `v2-${p.key}-${kind.toLowerCase()}`,
              DurationSeconds: duration,
              Urls: {
                AudioUrl: hasAudio ? `${MEDIA}/recordings/${id}/audio.mp3` : null,
                WaveformHighResUrl: kind === 'Finalized' ? `${MEDIA}/recordings/${id}/waveform-high.json` : null,
                WaveformLowResUrl: kind === 'Finalized' ? `${MEDIA}/recordings/${id}/waveform-low.json` : null,
              },
            },
          });
          if (kind === 'Finalized' || kind === 'Live') {
            ['Top of the hour', 'Guest arrives', 'Listener call'].forEach((text, ni) => {
              notes.push({
                id: seedId(`annotation:${p.key}:${kind}:${ni}`),
                createdAt: new Date(start + ni * 60_000),
                modifiedAt: new Date(start + ni * 60_000),
                createdById: demoUser,
                fields: { RecordingId: id, OffsetSeconds: ni * 300, DurationSeconds: ni === 1 ? 120 : null, Text: text },
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
    };
  });
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
       VALUES ($1, $2, $3, $4, NULL, $5, $6, $7, 'en-US', $8, $9, $10, $10, nextval('row_version'))`,
      [id, u.email, u.name, u.firstName, u.isAdmin ?? false, u.isAdminOrSupport ?? false, u.hasResellerAccess ?? false, u.activated ?? true, hashes[i], at],
    );
    for (const m of u.memberships) {
      await q.query(
        `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
         VALUES ($1, $2, $3, $4, $4, nextval('row_version'))`,
        [m.org, id, JSON.stringify(m.permissions), at],
      );
    }
  }
}

/** Seeds only a store without organizations; returns null when it already had data. */
/** The demo recordings that get real audio when `npm start` seeds (blobDir given). */
export const DEMO_RECORDING_AUDIO = [
  { recordingId: seedId('recording:morning:Finalized'), file: 'speech-12s.mp3' },
  { recordingId: seedId('recording:world:Finalized'), file: 'speech-12s.flac' },
];

export async function seedIfEmpty(store: Store, options: { clips?: number; blobDir?: string } = {}): Promise<SeedSummary | null> {
  const [row] = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM organizations`);
  if ((row?.n ?? 0) > 0) return null;
  const summary = await seed(store, options.clips === undefined ? {} : { clips: options.clips });
  if (options.blobDir) {
    // Loaded only here: the audio pipeline is not needed by the other users of the seed.
    const { seedRecordingAudio } = await import('./audio/seed-audio.ts');
    await seedRecordingAudio(store, options.blobDir, DEMO_RECORDING_AUDIO);
  }
  return summary;
}
