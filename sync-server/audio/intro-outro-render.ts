// A program's intro and outro put around an episode as its published version is rendered
// (versions.ts, loudness-job.ts): the decoded episode (its cut) between the decoded intro and
// outro, each brought to the episode's sample rate and channel count, back to back:
//
//   intro (any rate/channels) ──conform──┐
//   episode's cut ───────────────────────┼──> one PCM stream at the episode's format ──> WAV ──> MP3
//   outro (any rate/channels) ──conform──┘
//
// Which intro and outro a version was made with is kept in its version.json (PublishedVersion.bumpers),
// by upload id: its files are kept while the program lives (migrations/0575), so a later render of
// the same version (the loudness normalization) makes the same audio even after the program's
// intro changed. Uploads and operations are intro-outro.ts's.
import { openAudioDecoding, type PcmBlock } from '../../src/media/decode.ts';
import { blobSource } from '../../src/media/source.ts';
import type { IntroOutroType } from '../../src/domain/intro-outro.ts';
import type { Queryable } from '../store/store.ts';
import type { BlobStore } from './blob-store.ts';

/** One intro or outro file as a version names it. */
export type BumperRef = { programId: string; uploadId: string; contentType: string; durationSeconds: number };
/** The intro and outro a version is made with (null: none). */
export type VersionBumpers = { intro: BumperRef | null; outro: BumperRef | null };

export const introOutroKeys = {
  dir: (programId: string) => `programs/${programId}/intro-outro`,
  folder: (programId: string, uploadId: string) => `programs/${programId}/intro-outro/${uploadId}`,
  audio: (programId: string, uploadId: string) => `programs/${programId}/intro-outro/${uploadId}/audio`,
};

/** What a version's bumpers are compared by: the uploads, or null for none (the versions made before intros compare equal to none). */
export const bumpersDigest = (b: VersionBumpers | null | undefined): string | null =>
  b && (b.intro || b.outro) ? `${b.intro?.uploadId ?? '-'}/${b.outro?.uploadId ?? '-'}` : null;

/**
 * The seconds of intro in front of a version's published audio, null for none: the clip's row
 * carries it as PublishedIntroSeconds (versions.ts versionPatch, in the write that switches the
 * clip to the version), and the version's own ID3 chapters are moved by it. One number for every
 * place that moves the episode's timeline onto the published audio.
 */
export const publishedIntroSeconds = (bumpers: VersionBumpers | null | undefined): number | null => {
  const seconds = bumpers?.intro?.durationSeconds ?? 0;
  return seconds > 0 ? seconds : null;
};

/**
 * The seconds of outro at the end of a version's published audio, null for none: the clip's row
 * carries it as PublishedOutroSeconds beside the intro's, so the episode's length (what its chapters
 * and mid-rolls must fall inside, src/domain/intro-outro.ts episodeSecondsOf) is the published
 * length less both.
 */
export const publishedOutroSeconds = (bumpers: VersionBumpers | null | undefined): number | null => {
  const seconds = bumpers?.outro?.durationSeconds ?? 0;
  return seconds > 0 ? seconds : null;
};

/** SQL of the seconds of intro in front of the published audio of the clip aliased `alias` (0 for none): its row's PublishedIntroSeconds. */
export const publishedIntroSql = (alias: string) => `COALESCE((${alias}.data->>'PublishedIntroSeconds')::double precision, 0)`;

/** The intro and outro in effect for the clip's program now (null when it has neither). */
export async function currentBumpers(q: Queryable, clipId: string): Promise<VersionBumpers | null> {
  const rows = await q.query<{ program_id: string; type: IntroOutroType; upload_id: string; content_type: string; duration_seconds: number }>(
    `SELECT b.program_id, b.type, b.upload_id, b.content_type, b.duration_seconds
       FROM clips c JOIN program_intro_outro b ON b.program_id = c.program_id WHERE c.id = $1`,
    [clipId],
  );
  if (rows.length === 0) return null;
  const ref = (type: IntroOutroType): BumperRef | null => {
    const r = rows.find((x) => x.type === type);
    return r ? { programId: r.program_id, uploadId: r.upload_id, contentType: r.content_type, durationSeconds: Number(r.duration_seconds) } : null;
  };
  return { intro: ref('intro'), outro: ref('outro') };
}

/**
 * Blocks brought to `sampleRate` and `channels`: channels are copied up (mono to stereo: the same
 * signal in both) or averaged down; the rate by linear interpolation, carrying the last frame of
 * each block into the next so the stream has no seams. Linear interpolation aliases a little when
 * it lowers the rate; intros are short music beds made at 44.1 or 48 kHz like the episodes they
 * open, so the change is rarely more than 48→44.1 kHz, where that folding is far above speech.
 */
export async function* conformBlocks(blocks: AsyncIterable<PcmBlock>, sampleRate: number, channels: number): AsyncGenerator<PcmBlock> {
  let last: Float32Array | null = null; // the previous block's last frame, per output channel
  let pos = 0; // where the next output frame falls, in frames of the current input block
  for await (const block of blocks) {
    const n = block.channels[0]?.length ?? 0;
    if (n === 0) continue;
    const mapped = mapChannels(block.channels, channels);
    if (block.sampleRate === sampleRate) {
      yield { sampleRate, channels: mapped };
      continue;
    }
    const step = block.sampleRate / sampleRate;
    const prev = last ?? Float32Array.from(mapped, (ch) => ch[0]!);
    // Output frames that fall before the block's last frame (between two known frames); the rest fall in the next block.
    const count = pos < n - 1 ? Math.ceil((n - 1 - pos) / step) : 0;
    const out = Array.from({ length: channels }, () => new Float32Array(count));
    for (let o = 0; o < count; o++, pos += step) {
      const i = Math.floor(pos);
      const frac = pos - i;
      for (let c = 0; c < channels; c++) {
        const ch = mapped[c]!;
        const a = i < 0 ? prev[c]! : ch[i]!;
        const b = ch[i + 1]!;
        out[c]![o] = a + (b - a) * frac;
      }
    }
    pos -= n;
    last = Float32Array.from(mapped, (ch) => ch[n - 1]!);
    if (count > 0) yield { sampleRate, channels: out };
  }
}

function mapChannels(input: Float32Array[], channels: number): Float32Array[] {
  if (input.length === channels) return input;
  if (channels === 1) {
    const n = input[0]!.length;
    const mono = new Float32Array(n);
    for (const ch of input) for (let i = 0; i < n; i++) mono[i]! += ch[i]! / input.length;
    return [mono];
  }
  return Array.from({ length: channels }, (_, c) => (input.length === 1 ? input[0]! : (input[c] ?? input[c % input.length]!)));
}

/**
 * The render shape of a version with an intro or outro: the episode's blocks between the
 * conformed intro and outro. An episode that yields nothing stays nothing (a cut that keeps no
 * audio is refused as before, not published as an intro alone).
 */
export function withBumpers(blobs: BlobStore, bumpers: VersionBumpers) {
  const decoded = async function* (ref: BumperRef): AsyncGenerator<PcmBlock> {
    const decoding = await openAudioDecoding(blobSource(await blobs.blob(introOutroKeys.audio(ref.programId, ref.uploadId))));
    yield* decoding.blocks;
  };
  return async function* (episode: AsyncIterable<PcmBlock>): AsyncGenerator<PcmBlock> {
    const it = episode[Symbol.asyncIterator]();
    const first = await it.next();
    if (first.done) return;
    const { sampleRate } = first.value;
    const channels = first.value.channels.length;
    if (bumpers.intro) yield* conformBlocks(decoded(bumpers.intro), sampleRate, channels);
    yield first.value;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    if (bumpers.outro) yield* conformBlocks(decoded(bumpers.outro), sampleRate, channels);
  };
}
