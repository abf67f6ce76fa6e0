// Server-side analysis of a stored upload, shared by every audio pipeline: the clip processing job
// (versions.ts: an upload's waveforms and length, then its published version's), the recording
// ingest (recording-ingest.ts) and the demo media (demo-media.ts). Bad media is a result, never a
// throw. The same src/media code as the decode worker makes the waveform files, so they are the
// same thing; AAC (m4a, mp4, aac) decodes through sync-server/media/node-decoder.ts, registered
// below, where the browser has WebCodecs.
import { analyzeAudio } from '../../src/media/analyze.ts';
import { readContainerInfo, type ContainerInfo } from '../../src/media/container.ts';
import { MediaError, MediaErrorCode } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { registerNodeAudioDecoders } from '../media/node-decoder.ts';
import { blobSource } from '../../src/media/source.ts';
import { waveformToDat, waveformToJson } from '../../src/media/waveform-format.ts';
import { WAVEFORM_HIGH_RES_SPP, WAVEFORM_LOW_RES_SPP } from '../../src/protocol/media.ts';
import type { BlobStore } from './blob-store.ts';

registerNodeAudioDecoders();

type WaveformKey = (res: 'high' | 'low', ext: 'dat' | 'json') => string;

/** What one stored upload turned out to be; the clip and recording pipelines map it to their rows. */
export type StoredAudioAnalysis = {
  info: ContainerInfo | null;
  /** Waveform files were written at waveformKey. */
  waveforms: boolean;
  /** Seconds (ms precision): decoded length, or the container's when no decoder exists here; null on failure. */
  durationSeconds: number | null;
  /** The AudioProcessingProblem text (a warning when waveforms is true), or null. */
  problem: string | null;
  /** The upload is unusable (not audio, empty, nothing decodable). */
  failed: boolean;
};

/** Analyses a stored upload and writes its waveform files (.dat and .json); never throws for bad media. */
export async function analyzeStoredAudio(blobs: BlobStore, audioKey: string, waveformKey: WaveformKey): Promise<StoredAudioAnalysis> {
  const src = blobSource(await blobs.blob(audioKey));
  const problem = (e: MediaError) => mediaProblemText({ code: e.code, details: e.details }, 'en-US');
  let info: ContainerInfo | null = null;
  try {
    info = await readContainerInfo(src);
  } catch {
    // AIFF and damaged files: mediabunny does not read them; the decoder below decides.
  }
  const seconds = (s: number) => Math.round(s * 1000) / 1000;
  try {
    const a = await analyzeAudio(src, { levels: [WAVEFORM_HIGH_RES_SPP, 1024, WAVEFORM_LOW_RES_SPP] });
    const high = a.waveforms.find((w) => w.samplesPerPixel === WAVEFORM_HIGH_RES_SPP)!;
    const low = a.waveforms.find((w) => w.samplesPerPixel === WAVEFORM_LOW_RES_SPP)!;
    for (const [res, w] of [['high', high], ['low', low]] as const) {
      await blobs.putBytes(waveformKey(res, 'dat'), waveformToDat(w));
      await blobs.putBytes(waveformKey(res, 'json'), JSON.stringify(waveformToJson(w)));
    }
    const warning = a.warnings[0];
    return { info, waveforms: true, durationSeconds: seconds(a.durationSeconds), problem: warning ? mediaProblemText(warning, 'en-US') : null, failed: false };
  } catch (e) {
    const err = e instanceof MediaError ? e : new MediaError(MediaErrorCode.DecodeFailed, String(e));
    if (err.code === MediaErrorCode.UnsupportedInEnvironment && info?.durationSeconds != null) {
      // The container is fine and its duration known; only the waveform is missing.
      return { info, waveforms: false, durationSeconds: seconds(info.durationSeconds), problem: problem(err), failed: false };
    }
    return { info, waveforms: false, durationSeconds: null, problem: problem(err), failed: true };
  }
}
