// Container-level facts read with mediabunny's demuxers, without decoding: duration, the audio
// track's codec, and the video track's size (UploadedMediaInfo.VideoInfo).
import { ALL_FORMATS, BlobSource, Input, StreamSource, UnsupportedInputFormatError } from 'mediabunny';
import { MediaError, MediaErrorCode } from './errors.ts';
import type { ByteSource } from './source.ts';

export async function openMediabunnyInput(src: ByteSource): Promise<Input> {
  const source = src.blob
    ? new BlobSource(src.blob)
    : new StreamSource({ getSize: () => src.size, read: (start, end) => src.read(start, end - start) });
  const input = new Input({ source, formats: ALL_FORMATS });
  try {
    if (!(await input.canRead())) throw new MediaError(MediaErrorCode.NotAudio, 'The file is not audio in a format we accept');
  } catch (e) {
    input.dispose();
    if (e instanceof MediaError) throw e;
    if (e instanceof UnsupportedInputFormatError) throw new MediaError(MediaErrorCode.NotAudio, 'The file is not audio in a format we accept');
    throw new MediaError(MediaErrorCode.DecodeFailed, `The file could not be read: ${(e as Error).message}`);
  }
  return input;
}

export type ContainerInfo = {
  mediaType: 'Audio' | 'AudioAndVideo';
  audioCodec: string | null;
  sampleRate: number | null;
  channels: number | null;
  durationSeconds: number | null;
  video: { width: number; height: number } | null;
};

/** Reads container metadata (mediabunny's demuxers: MP4/MOV, MP3, WAV, FLAC, ADTS, Ogg, WebM). */
export async function readContainerInfo(src: ByteSource): Promise<ContainerInfo> {
  const input = await openMediabunnyInput(src);
  try {
    const audio = await input.getPrimaryAudioTrack();
    const video = await input.getPrimaryVideoTrack();
    const durationSeconds = await input.computeDuration().catch(() => null);
    return {
      mediaType: video ? 'AudioAndVideo' : 'Audio',
      audioCodec: audio?.codec ?? null,
      sampleRate: audio?.sampleRate ?? null,
      channels: audio?.numberOfChannels ?? null,
      durationSeconds,
      video: video ? { width: video.displayWidth, height: video.displayHeight } : null,
    };
  } finally {
    input.dispose();
  }
}
