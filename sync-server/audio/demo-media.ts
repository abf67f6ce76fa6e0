// Real, playable audio for the demo (`npm start` seeds ~2,000 clips): a handful of files processed
// once through the real pipeline (analyzeStoredAudio: the same decoding and waveform code as
// uploads) into content-addressed folders of the blob store, demo/{sha256 prefix}/, then shared:
// each seeded Ready or Warning clip and each Finalized or Live recording gets a small pointer
// (its audio.json or current.json names the folder), so its URLs have the shapes of processed
// uploads (/api/media/clips/{id}/audio, waveform-{high|low}.dat) without 700 copies.
//
//   fixtures present (dev, CI) ──> speech-12s.mp3 / .flac / -stereo.wav for audio, video-12s.mp4 for video clips
//   no fixtures                ──> one voice-like WAV made in code (demo-tone.ts); video clips become audio clips
//
// A folder whose info.json exists was fully prepared (info.json is written last) and is reused
// as it is, so seeding again over a kept blob store processes nothing.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import { SHARED_FIXTURES_DIR } from './shared-fixtures.ts';
import { DEMO_SYNTH, synthesizeDemoVoice } from './demo-tone.ts';
import { clipKeys, demoKeys, mediaFiles, recordingKeys, type CurrentAudio, type UploadMeta } from './media-paths.ts';
import { audioContentType } from './upload-rules.ts';

const AUDIO_FIXTURES = ['speech-12s.mp3', 'speech-12s.flac', 'speech-12s-stereo.wav'];
const VIDEO_FIXTURE = 'video-12s.mp4';

/** One prepared demo file (its info.json). */
export type DemoMedia = {
  /** sha256 of the bytes, 16 hex digits: the folder demo/{id}. */
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  durationSeconds: number;
  mediaType: 'Audio' | 'AudioAndVideo';
  video: { width: number; height: number } | null;
};

export type DemoMediaSet = { audio: DemoMedia[]; video: DemoMedia | null };

/** A seeded clip or recording and the demo file that serves it (under its own file name). */
export type DemoLink = { kind: 'clip' | 'recording'; id: string; fileName: string; media: DemoMedia };

const idOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

function describe(fileName: string, bytes: Uint8Array, durationSeconds: number): DemoMedia {
  return { id: idOf(bytes), fileName, contentType: audioContentType(fileName), size: bytes.length, durationSeconds, mediaType: 'Audio', video: null };
}

let synthetic: DemoMediaSet | null = null;

/**
 * The made-in-code demo file as the seed describes it before (or without) storing it: the rows of
 * `seed()` without a blob store name it, and prepareDemoMedia stores exactly this file.
 */
export function syntheticDemoMedia(): DemoMediaSet {
  synthetic ??= { audio: [describe(DEMO_SYNTH.fileName, synthesizeDemoVoice(), DEMO_SYNTH.seconds)], video: null };
  return synthetic;
}

/** Stores and processes the demo files (or finds them prepared); never throws for a bad fixture. */
export async function prepareDemoMedia(blobs: BlobStore, fixturesDir = SHARED_FIXTURES_DIR): Promise<DemoMediaSet> {
  // Loaded here: the decoders are needed only when something is processed.
  const { analyzeStoredAudio } = await import('./process.ts');
  async function prepare(fileName: string, bytes: Uint8Array): Promise<DemoMedia | null> {
    const base = describe(fileName, bytes, 0);
    const ready = await readJsonBlob<DemoMedia>(blobs, demoKeys.info(base.id));
    if (ready) return ready;
    const folder = demoKeys.dir(base.id);
    await blobs.putBytes(mediaFiles.audio(folder), bytes);
    const a = await analyzeStoredAudio(blobs, mediaFiles.audio(folder), (res, ext) => mediaFiles.waveform(folder, res, ext));
    if (!a.waveforms || a.durationSeconds === null || a.problem) {
      await blobs.remove(folder);
      return null;
    }
    const media: DemoMedia = { ...base, durationSeconds: a.durationSeconds, mediaType: a.info?.mediaType ?? 'Audio', video: a.info?.video ?? null };
    await blobs.putBytes(demoKeys.info(media.id), JSON.stringify(media));
    return media;
  }
  const fixture = (name: string) => {
    const path = join(fixturesDir, name);
    return existsSync(path) ? prepare(name, readFileSync(path)) : Promise.resolve(null);
  };
  const audio: DemoMedia[] = [];
  for (const name of AUDIO_FIXTURES) {
    const media = await fixture(name);
    if (media) audio.push(media);
  }
  const video = await fixture(VIDEO_FIXTURE);
  if (audio.length === 0) {
    const made = await prepare(DEMO_SYNTH.fileName, synthesizeDemoVoice());
    if (!made) throw new Error('the demo voice made in code did not decode');
    audio.push(made);
  }
  return { audio, video: video?.mediaType === 'AudioAndVideo' ? video : null };
}

/** Points each seeded clip and recording at its demo folder (a few small files written in parallel). */
export async function linkDemoMedia(blobs: BlobStore, links: readonly DemoLink[]): Promise<void> {
  const write = (l: DemoLink) => {
    const media = demoKeys.dir(l.media.id);
    if (l.kind === 'clip') {
      const meta: UploadMeta = { fileName: l.fileName, contentType: l.media.contentType, size: l.media.size, media };
      return blobs.putBytes(clipKeys.meta(l.id), JSON.stringify(meta));
    }
    const current: CurrentAudio = { uploadId: 'demo', contentType: l.media.contentType, durationSeconds: l.media.durationSeconds, fileName: l.fileName, media };
    return blobs.putBytes(recordingKeys.current(l.id), JSON.stringify(current));
  };
  const BATCH = 64;
  for (let i = 0; i < links.length; i += BATCH) await Promise.all(links.slice(i, i + BATCH).map(write));
}
